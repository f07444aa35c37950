// The ClientHello against what the claimed browser's stack sends whatever its version — its
// family's invariants (src/core/tls-invariants.ts, issue 56), judged for every version, listed or
// not — and, where the data has the claimed version, what that version's own stack sends in every
// hello (src/core/tls-versions.ts, issue 46): impersonating HTTP clients copy an older version's
// hello and claim the current one. A proxy's fingerprint headers (no extension list) and a claim
// of another engine are `na`; so is a proven browser's connection re-encrypted by a middlebox
// (src/checks/wire-family.ts), which tls-interception reports instead.

import { claimedTlsStack, TLS_VERSION_TRAITS, tlsVersionDifferences, traitsFor } from '../core/tls-versions'
import { checkOn, na } from './define'
import { tlsEvidenceOf } from './tls-views'
import { brokenText, interception, reencrypted, wireFamily } from './wire-family'

/** Differing features from which the hello is another stack's (one alone only warns). */
const SEVERAL = 2

const known = (family: string) =>
  TLS_VERSION_TRAITS.filter((t) => t.family === family)
    .map((t) => t.major)
    .join(', ')

export const tlsVersion = checkOn<Record<string, never>>()({
  id: 'tls-version',
  name: "ClientHello is the claimed version's own",
  found: "the ClientHello is not the claimed browser version's",
  source: 'server',
  why: "Every version of a browser's TLS stack shows its family's invariants: BoringSSL (every Chromium browser) puts GREASE first among the cipher suites, extensions, groups, versions and key shares, sends ALPS and signature algorithms of Chromium's shape, and permutes its extensions on every connection; NSS (Firefox) sends no GREASE, record_size_limit and delegated_credentials, and ends its signature algorithms with the two SHA-1 schemes. A hello without them fails whatever version the User-Agent claims. Beyond them, each browser version's TLS stack puts the same extensions and signature algorithms in every hello, whatever the page, the connection or the person's settings; what the service knows of each version was captured from the browser itself. Impersonating HTTP clients (wreq, curl-impersonate, tls-client) copy an older version's hello while claiming the newest: Chrome 156 offers extension 0xca34 and the ML-DSA signature algorithms 0x0904–0x0906, which a Chrome 149 profile lacks. Chrome switches single features by field trial (trust_anchors arrived behind one), so one feature off only warns; two or more fail. Versions the data does not have yet are judged by the invariants alone (a library that copies a browser's hello faithfully passes them: the page's proof that it ran is what stops it). A TLS-inspecting middlebox replaces the whole hello: behind a page that proved it ran in a browser, that is not judged here (tls-interception says so).",
  needs: [],
  judge: (_, { server }) => {
    const e = tlsEvidenceOf(server)
    if (e?.source !== 'listener' || !e.tls) return na("needs the TLS evidence listener's record of this page's ClientHello (its extensions and signature algorithms)")
    const claim = claimedTlsStack(server.userAgent)
    if (!claim) return na('version data exists for Chromium-based browsers and Firefox only')
    const proxied = interception(server)
    if (proxied) return reencrypted(proxied, "the ClientHello's version")
    const stack = claim.family === 'chromium' ? 'Chromium' : 'Firefox'
    const name = `${stack} ${claim.major}`
    const w = wireFamily(server)
    // The family's invariants, for any version: one that no setting of a person's explains
    // fails; a `warn` one (a preference) counts as one feature off.
    const broken = w ? [...w.hello, ...w.order] : []
    const hard = broken.filter((b) => b.severity === 'fail')
    const soft = broken.filter((b) => b.severity === 'warn').map((b) => `without ${b.says}`)
    const order = w && !w.orderJudged ? `; extension order between connections not judged (${w.hellos} hello${w.hellos === 1 ? '' : 's'} of this page load)` : ''
    if (hard.length) return { verdict: 'fail', labels: ['impersonation'], observed: `${e.tls.ja4}: not ${stack}'s stack for any version: ${brokenText(hard)}`, expected: `the invariants every ${stack} hello shows (src/core/tls-invariants.ts)` }
    const traits = traitsFor(claim.family, claim.major)
    // The listener's record keeps both lists (src/evidence/tls-records.ts); records from before it did are not judged by version.
    const hello = e.tls as unknown as { extensions?: unknown; signature_algorithms?: unknown }
    const numbers = (v: unknown): v is number[] => Array.isArray(v) && v.every((x) => typeof x === 'number')
    const differences = [...soft, ...(traits && numbers(hello.extensions) && numbers(hello.signature_algorithms) ? tlsVersionDifferences(traits, { extensions: hello.extensions, signature_algorithms: hello.signature_algorithms }) : [])]
    // One feature off may be a field trial or a preference of the person's browser: it warns.
    // Several at once are not the version's stack.
    const verdict = differences.length >= SEVERAL ? 'fail' : differences.length ? 'warn' : 'pass'
    const version = traits ? `${name}'s extensions and signature algorithms` : `no data yet for ${name}'s own hello (known: ${stack} ${known(claim.family)}), so the version itself is not judged`
    return {
      verdict,
      labels: verdict === 'fail' ? ['impersonation'] : [],
      observed: differences.length ? `${e.tls.ja4}: ${differences.join('; ')}` : `${e.tls.ja4}: ${stack}'s invariants${order}; ${version}`,
      expected: traits ? `the hello ${name} sends (${traits.source}), with ${stack}'s invariants` : `the invariants every ${stack} hello shows (src/core/tls-invariants.ts)`,
    }
  },
})
