// Schemas of signals several tools collect with the same probe (probes/signals/*), so that a
// value means the same thing on every page that reports it.

import { Type } from '@sinclair/typebox'

const Str = (max: number) => Type.String({ maxLength: max })
const NullableStr = (max: number) => Type.Union([Type.String({ maxLength: max }), Type.Null()])

export const BrandListSchema = Type.Array(Type.Object({ brand: Str(128), version: Str(64) }), { maxItems: 16 })

/** probes/signals/ua-client-hints.ts: navigator.userAgentData, low and high entropy. */
export const UaClientHintsSchema = Type.Object({
  brands: BrandListSchema,
  mobile: Type.Boolean(),
  platform: Str(64),
  high: Type.Union([
    Type.Object({
      architecture: NullableStr(64),
      bitness: NullableStr(16),
      model: NullableStr(128),
      platformVersion: NullableStr(64),
      uaFullVersion: NullableStr(64),
      fullVersionList: Type.Union([BrandListSchema, Type.Null()]),
      wow64: Type.Union([Type.Boolean(), Type.Null()]),
      formFactors: Type.Union([Type.Array(Str(32), { maxItems: 8 }), Type.Null()]),
    }),
    Type.Null(),
  ]),
  /** Why getHighEntropyValues rejected (a Permissions-Policy), when it did. */
  highError: NullableStr(200),
})

/** probes/signals/page-context.ts */
export const PageContextSchema = Type.Object({ secureContext: Type.Boolean(), protocol: Str(16), hostname: Str(253) })

/** probes/signals/languages.ts */
export const LanguagesSchema = Type.Object({ language: Str(64), languages: Type.Array(Str(64), { maxItems: 64 }) })

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

/** What probes/signals/dns-lookups.ts reports when the page has no DNS zone to look up names in. */
export const NO_ZONE_MESSAGE = 'no DNS zone configured (DNS_ZONE)'
