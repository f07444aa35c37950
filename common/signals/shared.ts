// Schemas of signals several tools collect with the same probe (probes/signals/*), so that a
// value means the same thing on every page that reports it.

import { Type, type Static } from '@sinclair/typebox'
import { Bool, List, NStr, Num, Str } from '../shorthands'

export const BrandListSchema = Type.Array(Type.Object({ brand: Str(128), version: Str(64) }), { maxItems: 16 })

/** probes/signals/ua-client-hints.ts: navigator.userAgentData, low and high entropy. */
export const UaClientHintsSchema = Type.Object({
  brands: BrandListSchema,
  mobile: Type.Boolean(),
  platform: Str(64),
  high: Type.Union([
    Type.Object({
      architecture: NStr(64),
      bitness: NStr(16),
      model: NStr(128),
      platformVersion: NStr(64),
      uaFullVersion: NStr(64),
      fullVersionList: Type.Union([BrandListSchema, Type.Null()]),
      wow64: Type.Union([Type.Boolean(), Type.Null()]),
      formFactors: Type.Union([Type.Array(Str(32), { maxItems: 8 }), Type.Null()]),
    }),
    Type.Null(),
  ]),
  /** Why getHighEntropyValues rejected (a Permissions-Policy), when it did. */
  highError: NStr(200),
})
export type UaClientHints = Static<typeof UaClientHintsSchema>

/** probes/signals/page-context.ts */
export const PageContextSchema = Type.Object({ secureContext: Type.Boolean(), protocol: Str(16), hostname: Str(253) })
export type PageContext = Static<typeof PageContextSchema>

/** probes/signals/languages.ts */
export const LanguagesSchema = Type.Object({ language: Str(64), languages: Type.Array(Str(64), { maxItems: 64 }) })
export type Languages = Static<typeof LanguagesSchema>

/** probes/signals/navigator-props.ts (the members the network tools read). */
export const NavigatorUaSchema = Type.Object({ userAgent: Str(1024), platform: Str(128) })

/**
 * probes/signals/tls-evidence.ts: the page's fresh connection to the TLS evidence listener
 * (TLS_PORT), which files the ClientHello and HTTP/2 preface under the page's nonce. `reached`
 * says whether the exchange completed; the evidence itself is read on the server, never from
 * this signal.
 */
export const TlsEvidenceProbeSchema = Type.Object({
  port: Type.Integer({ minimum: 1, maximum: 65535 }),
  nonce: Type.String({ pattern: '^[a-z2-7]{26}$' }),
  reached: Type.Boolean(),
  ms: Type.Number(),
})
export type TlsEvidenceProbe = Static<typeof TlsEvidenceProbeSchema>

/** probes/signals/navigator-identity.ts */
export const NavigatorIdentitySchema = Type.Object({
  userAgent: Str(1000),
  appVersion: Str(1000),
  platform: Str(200),
  language: Str(64),
  languages: List(64, 32),
  vendor: Str(200),
  secureContext: Bool,
  uaData: Type.Union([Type.Object({ brands: BrandListSchema, mobile: Bool, platform: Str(64) }), Type.Null()]),
})
export type NavigatorIdentity = Static<typeof NavigatorIdentitySchema>

/**
 * probes/signals/notification-permission.ts: Notification.permission and
 * permissions.query({name: 'notifications'}).state, read in the same page (bot-detector and
 * permissions-api collect it; src/checks/notification-permission.ts compares them).
 */
export const NotificationPermissionSchema = Type.Object({
  notification: NStr(32),
  query: NStr(32),
  /** Why query is null: its error message. */
  queryError: NStr(200),
})
export type NotificationPermission = Static<typeof NotificationPermissionSchema>

/** probes/signals/js-engine.ts: the error messages that tell the engine (common/engine-errors.ts). Any tool whose checks depend on the engine collects it. */
export const JsEngineSchema = Type.Object({
  evalLength: Num,
  /** Message of reading a property of null. */
  nullError: Str(200),
  /** Message of (1).toFixed(-1): a second, independent wording. */
  rangeError: Str(200),
})
export type JsEngine = Static<typeof JsEngineSchema>

/**
 * probes/signals/page-proof.ts: the layout challenge of the page's nonce laid out (common/page-proof.ts):
 * each measured box's x, y, width and height relative to the challenge's root, rounded, in document order.
 */
export const PageProofSchema = Type.Object({
  v: Type.Integer({ minimum: 0, maximum: 1000 }),
  boxes: Type.Array(Type.Integer({ minimum: -100000, maximum: 100000 }), { maxItems: 400 }),
})
export type PageProof = Static<typeof PageProofSchema>
