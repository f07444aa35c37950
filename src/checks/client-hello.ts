// The TLS ClientHello against the browser the User-Agent claims: its stack family from JA4
// (or a full JA3 string), the JA3/JA3N hashes, and the parameters engines and libraries differ
// in (GREASE, ALPN, TLS 1.3, post-quantum key shares). Read by the TLS evidence listener, or
// as far as a trusted proxy's headers show it (./tls-views.ts): what a proxy cannot show is
// skipped, never held against the claim. https://github.com/FoxIO-LLC/ja4

import type { TlsFingerprintSignals } from '../../common/signals/tls-fingerprint'
import { parseUserAgent, type ClaimedBrowser } from '../../common/user-agent'
import { FAMILY_NAME, familyVerdict, tlsFamily, type FamilyGuess } from '../core/tls-families'
import type { ServerObservation } from '../core/tools/observation'
import { checkOn, type Outcome } from './define'
import { claimExpect, claimsBrowser } from './tls-match'
import { LISTENER_MISSING, tlsEvidenceOf, type TlsView } from './tls-views'
import { failing, interception, reencrypted, wireFamily } from './wire-family'

type Probe = { port: number; nonce: string; reached: boolean } | undefined

/** What the page's probe says of its connection to the listener when nothing is filed; null without a probe. */
export function unfiledReason(probe: Probe): string | null {
  if (!probe) return null
  return probe.reached ? `the page reached port ${probe.port} but nothing is filed under its nonce` : `the page could not reach port ${probe.port} (certificate not trusted, or the port is blocked)`
}

/** The na outcome of a handshake check when nothing was read: why, and what the page's probe says. */
function nothingRead(probe: Probe): Outcome {
  return { verdict: 'na', observed: unfiledReason(probe) ?? 'no ClientHello recorded', expected: probe ? `the listener's record for nonce ${probe.nonce}` : LISTENER_MISSING }
}

const NO_HELLO_HEADER = 'a JA4, JA4_r or JA3 header from the trusted proxy (TLS_FINGERPRINT_HEADERS ja4=, ja4_r=, ja3=)'

interface Hello {
  t: TlsView
  claimed: ClaimedBrowser
  fromProxy: boolean
  /** The stack the ClientHello shows; null when nothing names one (a JA3 hash alone). */
  guess: FamilyGuess | null
  /** The verdict on the stack against the claim; null without a guess (and not outdated). */
  stackVerdict: 'pass' | 'warn' | 'fail' | null
  /** A browser claim offering less than TLS 1.3. */
  old: boolean
}

/** The ClientHello the service saw, judged once for the three checks; an Outcome when there is none. */
function hello(server: ServerObservation, probe: Probe): Hello | Outcome {
  const e = tlsEvidenceOf(server)
  if (!e) return nothingRead(probe)
  if (!e.tls) return { verdict: 'na', observed: 'no TLS fingerprint header', expected: NO_HELLO_HEADER }
  // A proven browser whose connection a middlebox re-encrypts: the hello is the middlebox's (tls-interception says so).
  const proxied = interception(server)
  if (proxied) return reencrypted(proxied, 'the ClientHello')
  const t = e.tls
  const claimed = parseUserAgent(server.userAgent)
  const guess = tlsFamily(t)
  const old = claimsBrowser(claimed) && t.version !== null && t.version !== '13'
  // Without the claimed family's invariants (src/core/tls-invariants.ts) the stack is another one, whatever version is claimed.
  const w = wireFamily(server)
  const offFamily = !!w && failing([...w.hello, ...w.order]).length > 0
  return { t, claimed, fromProxy: e.source === 'proxy', guess, old, stackVerdict: old || (offFamily && guess) ? 'fail' : guess ? familyVerdict(guess.family, claimed) : null }
}

const isOutcome = (h: Hello | Outcome): h is Outcome => 'verdict' in h

/**
 * Claims whose stack always sends GREASE (RFC 8701): Chromium's BoringSSL, and Apple's, which
 * every WebKit browser on macOS and iOS uses. WebKit elsewhere (WebKitGTK, WPE) speaks GnuTLS,
 * which sends none, like NSS.
 */
const greaseExpected = (c: ClaimedBrowser) => c.engine === 'blink' || (c.engine === 'webkit' && (c.os === 'mac' || c.os === 'ios'))

const check = checkOn<TlsFingerprintSignals>()

export const ja4 = check({
  id: 'ja4',
  name: 'JA4 fingerprint fits the claimed browser',
  found: 'the JA4 fingerprint is not the claimed browser\'s',
  source: 'server',
  why: 'JA4 (FoxIO) describes the ClientHello in a readable, order-independent form (protocol, version, SNI, cipher and extension counts, ALPN, sorted hashes). Chrome, Firefox and Safari each have a stable JA4 per version; impersonation libraries (curl-impersonate, utls) copy it, but most automation does not.',
  ref: 'https://github.com/FoxIO-LLC/ja4/blob/main/technical_details/JA4.md',
  needs: [],
  uses: ['evidence'],
  judge: ({ evidence }, { server }) => {
    const h = hello(server, evidence)
    if (isOutcome(h)) return h
    if (!h.t.ja4 || !h.stackVerdict) return { verdict: 'na', observed: 'no JA4 from the proxy', expected: 'a JA4 or JA4_r header from the trusted proxy (TLS_FINGERPRINT_HEADERS ja4= or ja4_r=)' }
    const stack = h.guess ? `${FAMILY_NAME[h.guess.family]} (${h.guess.reasons.join('; ')})` : ''
    const browser = claimsBrowser(h.claimed)
    return {
      verdict: h.stackVerdict,
      observed: `${h.t.ja4}: ${stack}${h.fromProxy ? ' (read by the trusted proxy)' : ''}`,
      expected: `${browser ? 'JA4 starting t13 (every current browser offers TLS 1.3) from ' : ''}${claimExpect(h.claimed)}`,
    }
  },
})

export const ja3 = check({
  id: 'ja3',
  name: 'JA3 / JA3N fingerprint fits the claimed browser',
  found: 'the JA3 / JA3N fingerprint is not the claimed browser\'s',
  source: 'server',
  why: 'JA3 hashes the ClientHello (version, ciphers, extensions, curves, point formats); JA3N sorts the extensions first because Chrome 110+ shuffles them on every connection. Each browser version has few JA3N values; curl, Python, Go and Node have their own, so a browser User-Agent with a library\'s JA3N is a bot.',
  ref: 'https://github.com/salesforce/ja3',
  needs: [],
  uses: ['evidence'],
  judge: ({ evidence }, { server }) => {
    const h = hello(server, evidence)
    if (isOutcome(h)) return h
    const { t } = h
    // JA3 itself changes per connection in Chromium (shuffled extensions); JA3N is the stable
    // form. Both hash the same lists as JA4, so they agree with it on the family. A JA3 hash
    // alone (what some proxies pass) names no stack: the tables are by list, not by hash.
    if (h.guess && h.stackVerdict && (!h.fromProxy || t.ja3)) {
      return { verdict: h.stackVerdict, observed: { ja3: t.ja3_hash, ja3n: t.ja3n_hash, family: FAMILY_NAME[h.guess.family], ...(h.fromProxy ? { from: 'trusted proxy' } : {}) }, expected: claimExpect(h.claimed) }
    }
    if (t.ja3_hash || t.ja3n_hash) {
      const hashes = [t.ja3_hash && `JA3 ${t.ja3_hash}`, t.ja3n_hash && `JA3N ${t.ja3n_hash}`].filter(Boolean).join(', ')
      return { verdict: 'na', observed: `${hashes} from the trusted proxy: a hash alone names no stack (the tables list cipher lists, not JA3 hashes), so it neither confirms nor refutes the claim`, expected: 'the full JA3 string from the trusted proxy (TLS_FINGERPRINT_HEADERS ja3=), or JA4' }
    }
    return { verdict: 'na', observed: 'no JA3 from the proxy', expected: 'a JA3 header from the trusted proxy (TLS_FINGERPRINT_HEADERS ja3=)' }
  },
})

export const tlsParameters = check({
  id: 'tls-parameters',
  name: 'Ciphers, extensions, curves and ALPN fit the browser',
  found: 'ciphers, extensions, curves or ALPN do not fit the browser',
  source: 'server',
  why: 'Beyond the hashes: GREASE values (Chromium, and Safari on Apple systems; WebKitGTK and WPE speak GnuTLS, which sends none), post-quantum key shares (X25519MLKEM768 in Chrome 131+, Firefox 132+), ALPN h2 then http/1.1, and extension sets that engines have and libraries lack.',
  ref: 'https://www.rfc-editor.org/rfc/rfc8701',
  needs: [],
  uses: ['evidence'],
  judge: ({ evidence }, { server }) => {
    const h = hello(server, evidence)
    if (isOutcome(h)) return h
    const { t, claimed } = h
    const browser = claimsBrowser(claimed)
    // What is not visible (a proxy's headers show no GREASE, and only the first ALPN) is
    // skipped, not counted either way.
    const problems: string[] = []
    const seen: string[] = []
    const unseen: string[] = []
    const firstAlpn = t.ja4_alpn ? (({ h2: 'h2', h1: 'http/1.1', h3: 'h3', '00': 'none' }) as Record<string, string>)[t.ja4_alpn] ?? t.ja4_alpn : null
    if (t.alpn) seen.push(`ALPN ${t.alpn.join(',')}`)
    else if (firstAlpn) seen.push(`first ALPN ${firstAlpn}`)
    else unseen.push('ALPN')
    if (t.grease !== null) seen.push(t.grease ? 'GREASE' : 'no GREASE')
    else unseen.push('GREASE')
    if (browser) {
      if (t.alpn && !t.alpn.includes('h2')) problems.push(`ALPN ${t.alpn.join(',') || 'none'} without h2 (browsers offer h2 and http/1.1)`)
      if (!t.alpn && firstAlpn && firstAlpn !== 'h2' && firstAlpn !== 'h3') problems.push(`first ALPN ${firstAlpn} (browsers offer h2 first)`)
      if (greaseExpected(claimed) && t.grease === false) problems.push(`no GREASE (${claimed.engine === 'blink' ? 'Chromium' : "Safari's stack"} always sends it)`)
      if (claimed.engine === 'gecko' && t.grease === true) problems.push('GREASE values (Firefox sends none)')
      if (h.old) problems.push(`highest version offered is ${t.version} (not TLS 1.3)`)
    }
    // X25519MLKEM768 (0x11ec) since Chrome 131 and Firefox 132; X25519Kyber768 (0x6399) before.
    const wantsPq = (claimed.engine === 'blink' && (claimed.version ?? 0) >= 131) || (claimed.family === 'firefox' && (claimed.version ?? 0) >= 132)
    const pq = t.groups ? t.groups.includes(0x11ec) || t.groups.includes(0x6399) : null
    if (t.groups) seen.push(`groups ${t.groups.filter((g) => (g & 0x0f0f) !== 0x0a0a).join(',')}`)
    else if (wantsPq) unseen.push('key share groups')
    const warnings = wantsPq && pq === false ? ['no post-quantum key share group'] : []
    const hidden = unseen.length ? ` (not visible in the proxy's headers: ${unseen.join(', ')})` : ''
    if (!seen.length && t.version === null) {
      const proxyHeaders = Object.entries(tlsEvidenceOf(server)?.headers ?? {}).map(([field, name]) => `${name} (${field})`).join(', ')
      return { verdict: 'na', observed: `nothing readable in ${proxyHeaders || 'the proxy headers'}`, expected: 'the ALPN, version and groups of the ClientHello: a JA4 or the JA3 string from the trusted proxy' }
    }
    return {
      verdict: problems.length ? 'fail' : warnings.length ? 'warn' : 'pass',
      observed: (problems.length || warnings.length ? [...problems, ...warnings].join('; ') : seen.join(', ')) + hidden,
      expected: browser ? `ALPN h2 and http/1.1, ${greaseExpected(claimed) ? 'GREASE' : claimed.engine === 'gecko' ? 'no GREASE' : 'GREASE not judged (WebKit off Apple systems speaks GnuTLS, which sends none)'}, TLS 1.3${wantsPq ? ', a post-quantum key share' : ''}` : 'any',
    }
  },
})
