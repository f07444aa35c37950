// vpn-detector: what probes/signals/ice-candidates.ts, tz-zone.ts, languages.ts, fetch-rtt.ts
// and tls-evidence.ts report (probes/entries/vpn-detector.ts).

import { DnsLookupsSchema } from './dns-leak'
import { Type, type Static } from '@sinclair/typebox'
import { NStr, Num } from '../shorthands'
import { Signal } from '../signal'
import { JsEngineSchema, LanguagesSchema, TlsEvidenceProbeSchema } from './shared'
import { IntlZoneSchema } from './timezone-geo'
import { IceGatheringSchema } from './webrtc-leak'

/** Round trips of small requests from the page to the service (ms), after a warm-up one. */
export const FetchRttSchema = Type.Object({
  samples: Type.Array(Num, { maxItems: 20 }),
  medianMs: Num,
  minMs: Num,
  /** nextHopProtocol of the last request (h2, http/1.1…), when resource timing gives it. */
  protocol: NStr(32),
})
export type FetchRtt = Static<typeof FetchRttSchema>

export const VpnDetectorSignals = Type.Object({
  ice: Signal(IceGatheringSchema),
  /** probes/signals/tz-zone.ts, as timezone-geo collects it. */
  zone: Signal(IntlZoneSchema),
  /** probes/signals/languages.ts: what accept-language-vs-languages compares the header with, as http-headers does. */
  languages: Signal(LanguagesSchema),
  rtt: Signal(FetchRttSchema),
  /** probes/signals/dns-lookups.ts, as dns-leak makes them: the resolvers that ask are compared with the address. */
  lookups: Signal(DnsLookupsSchema),
  /** The page's connection to the TLS listener, whose round trips the server reads. */
  tlsEvidence: Type.Optional(Signal(TlsEvidenceProbeSchema)),
  /** probes/signals/js-engine.ts: the engine the page runs on, told by its error messages, which the engine-dependent checks judge by. Optional: pages from before this signal do not send it. */
  engine: Type.Optional(Signal(JsEngineSchema)),
})
export type VpnDetectorSignals = Static<typeof VpnDetectorSignals>
