// tls-fingerprint: what the page can see of its network stack (probes/entries/tls-fingerprint.ts);
// the handshake itself is read on the server (src/checks/tls-views.ts).

import { Type, type Static } from '@sinclair/typebox'
import { Bool, NBool, NStr, Str } from '../shorthands'
import { Signal } from '../signal'
import { NetworkInformationSchema } from './dns-leak'
import { JsEngineSchema, NavigatorUaSchema, PageProofSchema, TlsEvidenceProbeSchema, UaClientHintsSchema } from './shared'

/** probes/signals/network-stack.ts: the protocol negotiated for the page and for a fresh fetch. */
export const NetworkStackSchema = Type.Object({
  pageProtocol: Str(16),
  secureContext: Bool,
  navigationProtocol: NStr(32),
  fetchProtocol: NStr(32),
  navigationTls: NBool,
})
export type NetworkStack = Static<typeof NetworkStackSchema>

export const TlsFingerprintSignals = Type.Object({
  navigator: Signal(NavigatorUaSchema),
  uaData: Signal(UaClientHintsSchema),
  stack: Signal(NetworkStackSchema),
  /** probes/signals/network-information.ts (navigator.connection, Chromium only). */
  connection: Signal(NetworkInformationSchema),
  /** probes/signals/tls-evidence.ts: the nonce under which the TLS listener filed this browser's ClientHello. */
  evidence: Signal(TlsEvidenceProbeSchema),
  /** probes/signals/page-proof.ts: the page's answer to its layout challenge, which the server verifies against the nonce (results.server.proof). Optional: pages from before it do not send it. */
  proof: Type.Optional(Signal(PageProofSchema)),
  /** probes/signals/js-engine.ts: the engine the page runs on, told by its error messages, which the engine-dependent checks judge by. Optional: pages from before this signal do not send it. */
  engine: Type.Optional(Signal(JsEngineSchema)),
})
export type TlsFingerprintSignals = Static<typeof TlsFingerprintSignals>
