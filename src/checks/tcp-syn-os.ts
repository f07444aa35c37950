// The kernel the connection's SYN shows (issue 49, src/evidence/tcp-syn.ts) against the operating
// system the browser claims (the User-Agent header; where it names none, Sec-CH-UA-Platform, then
// the page's navigator.platform on tools that read it): a browser claiming Windows
// over a Linux server's TCP stack (an automation farm's spoofed fingerprint) shows Linux's
// initial TTL and option order. Server evidence only.
//
// Never a fail: a middlebox that terminates TCP (a corporate proxy, a carrier's TCP optimiser,
// iCloud Private Relay) sends its own SYN for a real person, so a mismatch warns and says so.
// NAT lowers the TTL by its hops (the initial one is rounded up) and may clamp the MSS; neither
// changes the family. Behind a trusted proxy (TRUSTED_PROXIES) the SYN is the proxy's: na.

import { parseUserAgent, type Os } from '../../common/user-agent'
import { kernelFamily, type KernelFamily, type SynRecord } from '../evidence/tcp-syn'
import { hintsFromHeaders } from './client-hints'
import { checkOn, na } from './define'
import { tlsEvidenceOf } from './tls-views'
import { unlessReencrypted } from './wire-family'

const FAMILY_TEXT: Record<KernelFamily, string> = {
  windows: 'Windows',
  linux: 'Linux or Android',
  apple: 'macOS or iOS',
  other: 'no known default stack',
}

/** The kernel family an OS ships; null when the claim names none. */
function familyOfOs(os: Os): KernelFamily | null {
  if (os === 'windows') return 'windows'
  if (os === 'linux' || os === 'android' || os === 'chromeos') return 'linux'
  if (os === 'mac' || os === 'ios') return 'apple'
  return null
}

const PLATFORM_OS: Record<string, Os> = { windows: 'windows', macos: 'mac', 'mac os x': 'mac', ios: 'ios', android: 'android', linux: 'linux', 'chrome os': 'chromeos', chromeos: 'chromeos' }

/** navigator.platform's operating system (Win32, MacIntel, iPhone, Linux x86_64, Linux armv8l…); unknown otherwise. */
function osOfNavigatorPlatform(p: string): Os {
  if (/^Win/.test(p)) return 'windows'
  if (/^Mac/.test(p)) return 'mac'
  if (/^(iPhone|iPad|iPod)/.test(p)) return 'ios'
  if (/^Linux|^X11|^CrOS/.test(p)) return 'linux'
  return 'unknown'
}

/** The page's navigator.platform, on tools whose signals carry it (bot-detector); null otherwise. */
function navigatorPlatform(raw: unknown): string | null {
  const nav = (raw as { navigator?: { ok?: boolean; value?: { platform?: unknown } } } | null)?.navigator
  return nav?.ok && typeof nav.value?.platform === 'string' ? nav.value.platform : null
}

const noSyn = () => na("needs the SYN of the page's connection, which the HTTPS listener keeps on Linux (TCP_SAVE_SYN)")

/** The SYN of the page's connection, from the listener's tls record; null when none was kept. */
export function synOf(server: Parameters<typeof tlsEvidenceOf>[0]): (SynRecord & { proxy: boolean }) | null {
  const e = tlsEvidenceOf(server)
  const syn = e?.source === 'listener' ? (e.tls as { syn?: unknown } | null)?.syn : undefined
  return syn && typeof syn === 'object' && typeof (syn as SynRecord).ja4t === 'string' ? (syn as SynRecord & { proxy: boolean }) : null
}

export const tcpSynOs = checkOn<Record<string, never>>()({
  id: 'tcp-syn-os',
  name: 'TCP SYN fits the claimed operating system',
  found: "the connection's SYN comes from another operating system's kernel than the one claimed",
  source: 'server',
  why: "The first packet of a TCP connection is written by the client's kernel, not the browser: Windows starts at TTL 128 with MSS, NOP, window scale, NOP, NOP, SACK; Linux and Android at 64 with MSS, SACK, timestamps, NOP, window scale; macOS and iOS at 64 with MSS, NOP, window scale, NOP, NOP, timestamps, SACK, EOL (p0f, JA4T). A browser that claims Windows over a Linux server's stack shows it here. A middlebox that terminates TCP (a corporate proxy, a carrier's optimiser, iCloud Private Relay) sends its own SYN for a real person, so a mismatch only warns.",
  ref: 'https://github.com/FoxIO-LLC/ja4/blob/main/technical_details/JA4T.md',
  needs: [],
  judge: (_, { server, raw }) => {
    const syn = synOf(server)
    if (!syn) return noSyn()
    const seen = `JA4T ${syn.ja4t}, TTL ${syn.ttl} (initial ${syn.initialTtl}, ${syn.hops} hop${syn.hops === 1 ? '' : 's'})`
    if (syn.proxy) return { verdict: 'na', observed: `${seen}: the SYN of the trusted proxy in front (TRUSTED_PROXIES), not the client's`, expected: "the client's own SYN" }
    const claimed = parseUserAgent(server.userAgent)
    const platform = hintsFromHeaders(server).platform?.toLowerCase()
    const hinted = platform ? PLATFORM_OS[platform] : undefined
    const platformOs = (() => {
      const p = navigatorPlatform(raw)
      return p === null ? 'unknown' : osOfNavigatorPlatform(p)
    })()
    const os = claimed.os !== 'unknown' ? claimed.os : (hinted ?? platformOs)
    const want = familyOfOs(os)
    const family = kernelFamily(syn)
    const observed = `${seen}: ${FAMILY_TEXT[family]}`
    if (want === null) return { verdict: 'na', observed, expected: 'a claimed operating system to compare the SYN with (the User-Agent names none)' }
    const expected = `a ${FAMILY_TEXT[want]} SYN, as the claimed ${os} sends`
    if (family === 'other') return { verdict: 'pass', observed: `${observed} (a tuned kernel, a VPN client's own stack or a middlebox: not compared)`, expected }
    if (family === want) return { verdict: 'pass', observed, expected }
    // A middlebox that re-encrypts a proven browser's connection (wire-family.ts) opened this TCP connection itself.
    return unlessReencrypted(server, { verdict: 'warn', observed: `${observed}, not ${FAMILY_TEXT[want]} — another machine's kernel, or a middlebox that terminates TCP in between`, expected }, "the connection's SYN")
  },
})

/** The MSS of a full Ethernet path (MTU 1500 less the IP and TCP headers). */
const FULL_MSS = { 4: 1460, 6: 1440 } as const
/** PPPoE's eight bytes (DSL lines): a reduced MSS that is no tunnel. */
const PPPOE_MSS = { 4: 1452, 6: 1432 } as const

export const tcpMss = checkOn<Record<string, never>>()({
  id: 'tcp-mss',
  name: 'TCP MSS of a full path',
  found: "the SYN's MSS is reduced, as a tunnel reduces it",
  source: 'server',
  why: "The client's kernel announces the largest segment its path takes (MSS): 1460 on an IPv4 Ethernet path, 1440 on IPv6. A tunnel's headers take their share of each packet, so a VPN interface announces less: WireGuard 1380 (IPv4) or 1360 (IPv6), OpenVPN and IPsec about 1350–1400. PPPoE (DSL) takes 8 bytes (1452) and is no tunnel; mobile networks and some routers clamp the MSS too, so a reduced MSS is a weak hint, never a failure.",
  ref: 'https://github.com/FoxIO-LLC/ja4/blob/main/technical_details/JA4T.md',
  needs: [],
  judge: (_, { server }) => {
    const syn = synOf(server)
    if (!syn) return noSyn()
    const expected = `an MSS of ${FULL_MSS[syn.ipVersion]} or more (IPv${syn.ipVersion} over Ethernet), or ${PPPOE_MSS[syn.ipVersion]} (PPPoE)`
    if (syn.proxy) return { verdict: 'na', observed: `MSS ${syn.mss ?? 'none'}: the trusted proxy's SYN (TRUSTED_PROXIES), not the client's`, expected }
    if (syn.mss === null) return { verdict: 'na', observed: 'no MSS option in the SYN', expected }
    if (syn.mss >= FULL_MSS[syn.ipVersion]) return { verdict: 'pass', observed: `MSS ${syn.mss}${syn.mss > FULL_MSS[syn.ipVersion] ? ' (a path larger than Ethernet: loopback or jumbo frames)' : ''}`, expected }
    if (syn.mss === PPPOE_MSS[syn.ipVersion]) return { verdict: 'pass', observed: `MSS ${syn.mss}: a PPPoE (DSL) link`, expected }
    return { verdict: 'warn', observed: `MSS ${syn.mss}, ${FULL_MSS[syn.ipVersion] - syn.mss} bytes below a full IPv${syn.ipVersion} path: a tunnel (WireGuard, OpenVPN, IPsec), or a mobile network or router that clamps it`, expected }
  },
})
