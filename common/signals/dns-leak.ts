// dns-leak: what probes/signals/dns-lookups.ts, network-information.ts and
// navigation-timing.ts report (probes/entries/dns-leak.ts).

import { Type, type Static } from '@sinclair/typebox'
import { Bool, NBool, NNum, NStr, Num, Str } from '../shorthands'
import { Signal } from '../signal'

export const DnsLookupsSchema = Type.Object({
  zone: Str(200),
  /** The label prefix: the page nonce, under which the DNS server files the queries. */
  nonce: Type.String({ pattern: '^[0-9a-z]{8,32}$' }),
  names: Type.Array(
    Type.Object({
      name: Str(253),
      via: Type.Union([Type.Literal('img'), Type.Literal('fetch')]),
      /** The load itself fails for a name with no web server; the lookup is what counts. */
      outcome: Type.Union([Type.Literal('load'), Type.Literal('error'), Type.Literal('timeout')]),
      ms: Num,
    }),
    { maxItems: 16 },
  ),
})
export type DnsLookups = Static<typeof DnsLookupsSchema>

/** navigator.connection (Network Information API, Chromium only). */
export const NetworkInformationSchema = Type.Object({ type: NStr(32), effectiveType: NStr(32), rtt: NNum, downlink: NNum, saveData: NBool })
export type NetworkInformation = Static<typeof NetworkInformationSchema>

/** Navigation timing of this page: how its own host name was resolved. */
export const NavigationTimingSchema = Type.Object({ hostIsIp: Bool, dnsMs: NNum, connectMs: NNum, tlsMs: NNum, protocol: NStr(32) })
export type NavigationTiming = Static<typeof NavigationTimingSchema>

export const DnsLeakSignals = Type.Object({
  lookups: Signal(DnsLookupsSchema),
  connection: Signal(NetworkInformationSchema),
  navigation: Signal(NavigationTimingSchema),
})
export type DnsLeakSignals = Static<typeof DnsLeakSignals>
