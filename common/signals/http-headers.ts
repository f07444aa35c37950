// http-headers: what the page says of the browser's identity and preferences
// (probes/entries/http-headers.ts); the server compares it with the headers of the page's POST.

import { Type, type Static } from '@sinclair/typebox'
import { NBool, NStr } from '../shorthands'
import { Signal } from '../signal'
import { NavigatorIdentitySchema } from './shared'
import { JsEngineSchema, LanguagesSchema, PageContextSchema, PageProofSchema, TlsEvidenceProbeSchema, UaClientHintsSchema } from './shared'

/** probes/signals/privacy-prefs.ts: navigator.globalPrivacyControl and navigator.doNotTrack. */
export const PrivacyPrefsSchema = Type.Object({ globalPrivacyControl: NBool, doNotTrack: NStr(16) })
export type PrivacyPrefs = Static<typeof PrivacyPrefsSchema>

export const HttpHeadersSignals = Type.Object({
  /** probes/signals/navigator-identity.ts: userAgent, secureContext and low-entropy userAgentData, as bot-detector reads them. */
  navigator: Signal(NavigatorIdentitySchema),
  languages: Signal(LanguagesSchema),
  uaData: Signal(UaClientHintsSchema),
  privacy: Signal(PrivacyPrefsSchema),
  context: Signal(PageContextSchema),
  /** Optional: the page's connection to the TLS evidence listener, whose record keeps header names as sent. */
  tlsEvidence: Type.Optional(Signal(TlsEvidenceProbeSchema)),
  /** probes/signals/page-proof.ts: the page's answer to its layout challenge, which the server verifies against the nonce (results.server.proof). Optional: pages from before it do not send it. */
  proof: Type.Optional(Signal(PageProofSchema)),
  /** probes/signals/js-engine.ts: the engine the page runs on, told by its error messages, which the engine-dependent checks judge by. Optional: pages from before this signal do not send it. */
  engine: Type.Optional(Signal(JsEngineSchema)),
})
export type HttpHeadersSignals = Static<typeof HttpHeadersSignals>
