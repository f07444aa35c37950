import { describe, expect, test } from 'bun:test'
import { TypeCompiler } from '@sinclair/typebox/compiler'
import { fakeLookup, NETWORKS } from '../../tests/support/fake-ipdb'
import { clientClaims, consistencyOf, ConsistencySchema, type ConsistencyItem } from './consistency'
import type { ServerObservation } from './tools/observation'
import { assembleResults } from './tools/assemble'
import { resultsSchema } from './results'
import { TOOL_IDS } from '../../common/tools'
import { proxyFingerprintEvidence } from '../evidence/proxy-fingerprints'
import { ok } from '../../tests/support/signals'

const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36'
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0'
const ctx = { lookupIp: fakeLookup({ '79.200.1.1': NETWORKS.telekom, '2a02:8109::5': NETWORKS.telekom, '3.120.0.9': NETWORKS.aws, '81.2.69.160': NETWORKS.aaisp, '8.8.8.8': NETWORKS.google, '73.0.0.1': NETWORKS.comcast }) }

function server(over: Partial<ServerObservation> = {}, acceptLanguage = 'de-DE,de;q=0.9'): ServerObservation {
  return { ip: '79.200.1.1', userAgent: CHROME, headers: [['accept-language', acceptLanguage], ['user-agent', over.userAgent ?? CHROME]], receivedAt: Date.UTC(2026, 10, 21), ...over }
}
const byId = (items: ConsistencyItem[], id: string) => items.find((i) => i.id === id)!
const zone = (timeZone: string, languages: string[]) => ok({ timeZone, locale: languages[0]!, calendar: 'gregory', numberingSystem: 'latn', hourCycle: 'h23', language: languages[0]!, languages })
const ice = (lines: string[]) => ok({ candidates: lines, sdp: '', gathering: 'complete', gatheringMs: 10, errors: [] })

// Chromium 156's ClientHello and HTTP/2 preface as the TLS listener files them (the fields read here).
const CHROMIUM_TLS = { ja4: 't13d1516h2_8daaf6152771_d8a2da3f94cd', grease: true, extensions: [0, 17513], alps: 17513, record_size_limit: null }
const CHROMIUM_H2 = { akamai: '1:65536;2:0;4:6291456;6:262144|15663105|0|m,a,s,p' }

describe('consistency', () => {
  test('reads claims wherever the tools keep them', () => {
    expect(clientClaims({ navigator: ok({ userAgent: CHROME, platform: 'Linux x86_64' }), languages: ok({ language: 'de-DE', languages: ['de-DE', 'de'] }) })).toMatchObject({
      userAgent: { value: CHROME, from: 'navigator.userAgent' }, languages: { value: ['de-DE', 'de'], from: 'languages.languages' }, timeZone: null, ice: null,
    })
    // browser-fingerprint's components are read twice: value.value.
    expect(clientClaims({ timezone: ok({ value: { zone: 'Europe/Berlin', offset: -60 } }), pageScope: ok({ userAgent: CHROME, languages: ['de'] }) })).toMatchObject({
      userAgent: { from: 'pageScope.userAgent' }, timeZone: { value: 'Europe/Berlin', from: 'timezone.zone' },
    })
    // A signal that failed gives nothing.
    expect(clientClaims({ zone: { ok: false, error: { kind: 'timeout', message: 'x' }, ms: 1 } }).timeZone).toBeNull()
  })

  test('a consistent German Chromium on a German line: no contradiction, every item explained', () => {
    const c = consistencyOf({ navigator: ok({ userAgent: CHROME }), zone: zone('Europe/Berlin', ['de-DE', 'de']) }, server({ evidence: [{ kind: 'tls', data: CHROMIUM_TLS, observedAt: 'x' }, { kind: 'http2', data: CHROMIUM_H2, observedAt: 'x' }] }), ctx)
    expect(c.contradictions).toBe(0)
    expect(Object.fromEntries(c.items.map((i) => [i.id, i.verdict]))).toEqual({
      'user-agent-navigator': 'consistent', 'user-agent-tls': 'consistent', 'user-agent-http2': 'consistent', 'accept-language-navigator': 'consistent',
      'ip-country-time-zone': 'consistent', 'ip-country-languages': 'consistent', 'resolver-vs-ip': 'unknown', 'webrtc-vs-http': 'unknown',
    })
    expect(byId(c.items, 'ip-country-time-zone')).toMatchObject({ claim: 'Europe/Berlin', observed: { ip: '79.200.1.1', country: 'DE' }, sources: ['client', 'server'] })
    expect(TypeCompiler.Compile(ConsistencySchema).Check(c)).toBe(true)
  })

  test('a Firefox User-Agent on a Chromium TLS stack, with a navigator override and a rewritten Accept-Language', () => {
    const c = consistencyOf(
      { navigator: ok({ userAgent: CHROME }), languages: ok({ language: 'en-US', languages: ['en-US'] }) },
      server({ userAgent: FIREFOX, evidence: [{ kind: 'tls', data: CHROMIUM_TLS, observedAt: 'x' }, { kind: 'http2', data: CHROMIUM_H2, observedAt: 'x' }] }, 'de-DE'),
      ctx,
    )
    expect(byId(c.items, 'user-agent-navigator')).toMatchObject({ verdict: 'contradiction', claim: CHROME, observed: FIREFOX, sources: ['client', 'server'] })
    expect(byId(c.items, 'user-agent-tls')).toMatchObject({ verdict: 'contradiction', claim: 'firefox 128 (gecko)', observed: { family: 'chromium' } })
    expect(byId(c.items, 'user-agent-http2').verdict).toBe('contradiction')
    expect(byId(c.items, 'accept-language-navigator').verdict).toBe('contradiction')
    expect(c.contradictions).toBe(4)
  })

  test("a trusted proxy's JA4 and Akamai headers stand in for the listener, which wins when both exist", () => {
    const proxy = proxyFingerprintEvidence({ ja4: 'x-ja4', akamai: 'x-h2' }, new Headers({ 'x-ja4': 't13d3112h2_e8f1e7e78f70_b26ce05bbdd6', 'x-h2': '3:100;4:33554432;2:0|33488897|0|m,p,s,a' })).map((i) => ({ ...i, observedAt: 'x' }))
    const alone = consistencyOf(undefined, server({ evidence: proxy }), ctx)
    expect(byId(alone.items, 'user-agent-tls')).toMatchObject({ verdict: 'contradiction', observed: { family: 'openssl' } })
    expect((byId(alone.items, 'user-agent-tls').observed as { reasons: string[] }).reasons).toContain("read from a trusted proxy's headers")
    expect(byId(alone.items, 'user-agent-http2').verdict).toBe('contradiction')
    const both = consistencyOf(undefined, server({ evidence: [{ kind: 'tls', data: CHROMIUM_TLS, observedAt: 'x' }, { kind: 'http2', data: CHROMIUM_H2, observedAt: 'x' }, ...proxy] }), ctx)
    expect(byId(both.items, 'user-agent-tls').verdict).toBe('consistent')
    expect(byId(both.items, 'user-agent-http2').verdict).toBe('consistent')
  })

  test('IP country against zone and languages: a Berlin browser on a US address', () => {
    const c = consistencyOf({ zone: zone('Europe/Berlin', ['de-DE', 'de']) }, server({ ip: '73.0.0.1' }), ctx)
    expect(byId(c.items, 'ip-country-time-zone')).toMatchObject({ verdict: 'contradiction', observed: { country: 'US', network: 'US, AS7922 Comcast Cable Communications, LLC' } })
    expect(byId(c.items, 'ip-country-languages').verdict).toBe('contradiction')
  })

  test('without signals the languages come from the header; without the database the country items are unknown', () => {
    const c = consistencyOf(undefined, server(), ctx)
    expect(byId(c.items, 'ip-country-languages')).toMatchObject({ claim: ['de-DE', 'de'], sources: ['server', 'server'], verdict: 'consistent' })
    expect(byId(c.items, 'user-agent-navigator').verdict).toBe('unknown')
    const none = consistencyOf({ zone: zone('Europe/Berlin', ['de-DE']) }, server())
    expect(byId(none.items, 'ip-country-time-zone')).toMatchObject({ verdict: 'unknown', detail: 'The service has not loaded its IP database.' })
    const loop = consistencyOf({ zone: zone('Europe/Berlin', ['de-DE']) }, server({ ip: '127.0.0.1' }), ctx)
    expect(byId(loop.items, 'ip-country-time-zone').detail).toContain('not a public address (loopback)')
  })

  test('resolvers: the client\'s own network and public resolvers are consistent, another country is not', () => {
    const dns = (resolver: string) => ({ kind: 'dns', data: { name: 'abc-1.zone.test', resolver }, observedAt: 'x' })
    expect(byId(consistencyOf(undefined, server({ evidence: [dns('79.200.1.1')] }), ctx).items, 'resolver-vs-ip').verdict).toBe('consistent')
    expect(byId(consistencyOf(undefined, server({ evidence: [dns('8.8.8.8')] }), ctx).items, 'resolver-vs-ip').verdict).toBe('consistent')
    const leak = byId(consistencyOf(undefined, server({ ip: '3.120.0.9', evidence: [dns('81.2.69.160')] }), ctx).items, 'resolver-vs-ip')
    expect(leak).toMatchObject({ verdict: 'contradiction', observed: [{ resolver: '81.2.69.160', network: 'GB, AS20712 Andrews & Arnold Ltd', provider: null, verdict: 'contradiction' }] })
  })

  test('WebRTC: page candidates and STUN listener addresses against the HTTP address', () => {
    const cand = (ip: string) => `candidate:1 1 udp 2122260223 ${ip} 54400 typ srflx raddr 0.0.0.0 rport 0 generation 0`
    const same = consistencyOf({ ice: ice([cand('2a02:8109::5')]) }, server(), ctx)
    expect(byId(same.items, 'webrtc-vs-http')).toMatchObject({ verdict: 'consistent', sources: ['server', 'client'] })
    const leak = consistencyOf({ ice: ice([]) }, server({ ip: '3.120.0.9', evidence: [{ kind: 'stun', data: { address: '79.200.1.1', port: 5000, family: 'IPv4', transport: 'udp' }, observedAt: 'x' }] }), ctx)
    expect(byId(leak.items, 'webrtc-vs-http')).toMatchObject({
      verdict: 'contradiction', claim: '3.120.0.9', sources: ['server', 'server'],
      observed: [{ address: '79.200.1.1', source: 'server', network: 'DE, AS3320 Deutsche Telekom AG', sameAsHttp: false }],
    })
  })

  test('every stored task carries it, and every tool\'s published results schema has it', () => {
    const r = assembleResults('timezone-geo', { signals: {} }, server(), ctx)
    expect(r.ok).toBe(false) // the signals are validated first: no section for an invalid submission
    const spec = assembleResults('bot-detector', { summary: { total: 0, passed: 0, failed: 0, warnings: 0, score: 100 }, leaks: { webdriver: false, selenium: false, phantomjs: false }, navigator: { userAgent: CHROME, platform: 'Linux', language: 'de-DE' }, screen: { width: 1, height: 1, colorDepth: 24 }, webgl: { vendor: '', renderer: '' }, canvas: { hash: '' }, scoring: { webdriver: 'pass', selenium: 'pass', phantomjs: 'pass' } }, server(), ctx)
    if (!spec.ok) throw new Error(spec.error)
    expect((spec.results.consistency as { items: ConsistencyItem[] }).items.map((i) => i.id)).toContain('ip-country-languages')
    for (const tool of TOOL_IDS) expect((resultsSchema(tool) as unknown as { properties: Record<string, unknown> }).properties.consistency).toBeDefined()
  })
})
