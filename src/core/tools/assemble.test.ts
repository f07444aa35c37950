import { describe, expect, test } from 'bun:test'
import { TypeCompiler } from '@sinclair/typebox/compiler'
import { resultsSchema } from '../results'
import { TOOL_IDS } from '../../../common/tools'
import { assembleResults, NOT_SENT } from './assemble'
import type { ServerObservation } from './observation'
import { SPEC_EXAMPLE_RESULTS } from './bot-detector.fixture'
import { today as dnsToday } from './dns-leak.fixture'

const CURL = 'curl/7.88.1'

function curlRequest(over: Partial<ServerObservation> = {}): ServerObservation {
  return { ip: '127.0.0.1', userAgent: CURL, headers: [['accept', '*/*'], ['host', '127.0.0.1:3000'], ['user-agent', CURL]], receivedAt: Date.UTC(2026, 10, 21), nonce: 'missing', ...over }
}

describe('a client that sends no signals (curl, an HTTP library)', () => {
  for (const tool of TOOL_IDS.filter((t) => t !== 'bot-detector')) {
    test(`${tool}: stored and judged on what the service saw; no client check passes or fails`, () => {
      const r = assembleResults(tool, {}, curlRequest())
      expect(r.ok).toBe(true)
      if (!r.ok) return
      const checks = r.results.checks as Array<{ source: string; verdict: string; expected: string }>
      expect(checks.length).toBeGreaterThan(0)
      for (const c of checks.filter((c) => c.source === 'client')) expect(c).toMatchObject({ verdict: 'na', expected: NOT_SENT })
      // Nothing the client did not send is stored as if it had.
      expect(r.results.signals).toBeUndefined()
      // What is stored is what GET serves, in its documented shape.
      expect(TypeCompiler.Compile(resultsSchema(tool)).Check(r.results)).toBe(true)
    })
  }

  test('http-headers: curl’s User-Agent fails on the server side alone', () => {
    const r = assembleResults('http-headers', {}, curlRequest())
    if (!r.ok) throw new Error(r.error)
    const checks = r.results.checks as Array<{ id: string; verdict: string }>
    expect(checks.find((c) => c.id === 'ua-automation')?.verdict).toBe('fail')
    expect(r.score).toBeLessThan(100)
  })

  test('bot-detector keeps the spec’s shape: an empty results object is refused, naming what is missing', () => {
    const r = assembleResults('bot-detector', {}, curlRequest())
    expect(r).toMatchObject({ ok: false })
    if (!r.ok) expect(r.error).toStartWith('results.summary')
  })

  test('signals that are sent must be valid: a half-written object is still refused', () => {
    const r = assembleResults('ip-leak', { signals: { ice: 1 } }, curlRequest())
    expect(r).toMatchObject({ ok: false })
    if (!r.ok) expect(r.error).toStartWith('results.signals')
  })
})

describe('results.tested: whether the score is a result of the tool’s main test', () => {
  test('a tool none of whose checks could be judged is not tested, and says why; the score stays that of the checks (100)', () => {
    const r = assembleResults('canvas-fingerprint', {}, curlRequest())
    if (!r.ok) throw new Error(r.error)
    expect(r.results.tested).toBe(false)
    expect(r.results.untested).toEqual({ reason: expect.stringMatching(/^none of the \d+ checks could be judged: not sent/), url: null })
    expect(r.score).toBe(100)
    expect((r.results.summary as { score: number }).score).toBe(r.score)
  })

  test('tls-fingerprint without a handshake is not tested: the reason and the HTTPS link come from results.handshake', () => {
    const r = assembleResults('tls-fingerprint', {}, curlRequest())
    if (!r.ok) throw new Error(r.error)
    const handshake = r.results.handshake as { tested: boolean; reason: string; httpsUrl: string | null }
    expect(handshake.tested).toBe(false)
    expect(r.results.tested).toBe(false)
    expect(r.results.untested).toEqual({ reason: `handshake not tested: ${handshake.reason}`, url: handshake.httpsUrl })
  })

  test('dns-leak without the DNS listener is not tested, though the page’s own check passed', () => {
    const r = assembleResults('dns-leak', { signals: dnsToday }, curlRequest({ ip: '81.2.69.160', nonce: 'valid' }))
    if (!r.ok) throw new Error(r.error)
    expect((r.results.summary as { total: number }).total).toBeGreaterThan(0)
    expect(r.results.tested).toBe(false)
    expect(r.results.untested).toEqual({ reason: expect.stringContaining('no DNS zone configured (DNS_ZONE)'), url: null })
  })

  test('a tool that judged something is tested, and a client cannot say otherwise', () => {
    const r = assembleResults('http-headers', { tested: false, untested: { reason: 'made up', url: 'https://evil.example/' } }, curlRequest())
    if (!r.ok) throw new Error(r.error)
    expect(r.results.tested).toBe(true)
    expect(r.results.untested).toBeUndefined()
    expect(TypeCompiler.Compile(resultsSchema('http-headers')).Check(r.results)).toBe(true)
  })
})

describe('what a client cannot set (issue 34)', () => {
  const spec = SPEC_EXAMPLE_RESULTS

  test('a spec body with a live nonce and its own verdict: unverified, client-scored, the verdict dropped; it matches the published schema', () => {
    const r = assembleResults('bot-detector', { ...spec, verdict: 'human', frameworks: [] }, curlRequest({ nonce: 'valid' }))
    if (!r.ok) throw new Error(r.error)
    expect(r.results).toMatchObject({ verified: false, unverified: { code: 'client-scored' }, dropped: ['verdict', 'frameworks'] })
    expect('verdict' in r.results || 'frameworks' in r.results).toBe(false)
    expect(r.score).toBe(100)
    expect(TypeCompiler.Compile(resultsSchema('bot-detector')).Check(r.results)).toBe(true)
  })

  test('a body without signals keeps none of what it wrote: a forged `tls` section is the service’s own again', () => {
    const r = assembleResults('tls-fingerprint', { tls: { ja4: 't13d1516h2_8daaf6152771_02713d6af862', family: 'chrome' } }, curlRequest({ nonce: 'valid' }))
    if (!r.ok) throw new Error(r.error)
    expect((r.results.tls as { ja4: string | null }).ja4).toBeNull()
    expect(r.results.dropped).toEqual(['tls'])
    expect(r.results.verified).toBe(true)
  })
})
