// The ClientHello against what the claimed browser version's own TLS stack sends in every hello
// (src/core/tls-versions.ts, issue 46): impersonating HTTP clients copy an older version's hello
// and claim the current one. Judged only for versions the data has; every other version, a
// proxy's fingerprint headers (no extension list), and a claim of another engine are `na`.

import { claimedTlsStack, TLS_VERSION_TRAITS, tlsVersionDifferences, traitsFor } from '../core/tls-versions'
import { checkOn, na } from './define'
import { tlsEvidenceOf } from './tls-views'

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
  why: "Each browser version's TLS stack puts the same extensions and signature algorithms in every hello, whatever the page, the connection or the person's settings; what the service knows of each version was captured from the browser itself. Impersonating HTTP clients (wreq, curl-impersonate, tls-client) copy an older version's hello while claiming the newest: Chrome 156 offers extension 0xca34 and the ML-DSA signature algorithms 0x0904–0x0906, which a Chrome 149 profile lacks. Chrome switches single features by field trial (trust_anchors arrived behind one), so one feature off only warns; two or more fail. Versions the data does not have yet are not judged; a TLS-inspecting middlebox replaces the whole hello, which the other TLS checks show too.",
  needs: [],
  judge: (_, { server }) => {
    const e = tlsEvidenceOf(server)
    if (e?.source !== 'listener' || !e.tls) return na("needs the TLS evidence listener's record of this page's ClientHello (its extensions and signature algorithms)")
    const claim = claimedTlsStack(server.userAgent)
    if (!claim) return na('version data exists for Chromium-based browsers and Firefox only')
    const traits = traitsFor(claim.family, claim.major)
    const name = `${claim.family === 'chromium' ? 'Chromium' : 'Firefox'} ${claim.major}`
    if (!traits) return na(`no data yet for ${name}'s hello (known: ${claim.family === 'chromium' ? 'Chromium' : 'Firefox'} ${known(claim.family)})`)
    // The listener's record keeps both lists (src/evidence/tls-records.ts); records from before it did are not judged.
    const hello = e.tls as unknown as { extensions?: unknown; signature_algorithms?: unknown }
    const numbers = (v: unknown): v is number[] => Array.isArray(v) && v.every((x) => typeof x === 'number')
    if (!numbers(hello.extensions) || !numbers(hello.signature_algorithms)) return na("needs the record's extensions and signature algorithms")
    const differences = tlsVersionDifferences(traits, { extensions: hello.extensions, signature_algorithms: hello.signature_algorithms })
    // One feature off may be a field trial of the person's browser: it warns. Several at once
    // are not the version's stack.
    const verdict = differences.length >= SEVERAL ? 'fail' : differences.length ? 'warn' : 'pass'
    return {
      verdict,
      labels: verdict === 'fail' ? ['impersonation'] : [],
      observed: differences.length ? `${e.tls.ja4}: ${differences.join('; ')}` : `${e.tls.ja4}: ${name}'s extensions and signature algorithms`,
      expected: `the hello ${name} sends (${traits.source})`,
    }
  },
})
