import { describe, expect, test } from 'bun:test'
import { summarize, type Check } from '../scoring'
import type { SignalResult } from '../../../common/signal'
import type { HttpHeadersSignals } from '../../../common/signals/http-headers'
import { httpHeaders } from './http-headers'
import type { ServerObservation } from './observation'
import { ok, missing } from '../../../tests/support/signals'
import { SPIDERMONKEY } from './bot-detector.fixture'

const CHROME_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36'
const HEADLESS_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36'

const CHROME_BRANDS = [
  { brand: 'Chromium', version: '124' },
  { brand: 'Google Chrome', version: '124' },
  { brand: 'Not-A.Brand', version: '99' },
]
const CHROME_FULL = [
  { brand: 'Chromium', version: '124.0.6367.91' },
  { brand: 'Google Chrome', version: '124.0.6367.91' },
  { brand: 'Not-A.Brand', version: '99.0.0.0' },
]


/** The page's navigator (navigator-identity): its userAgentData and secure context follow the uaData and context signals. */
type Over = Omit<Partial<HttpHeadersSignals>, 'navigator'> & { navigator?: SignalResult<{ userAgent: string; platform: string }> }

function signals(over: Over = {}): HttpHeadersSignals {
  const s = base(over)
  const nav = over.navigator ?? ok({ userAgent: CHROME_UA, platform: 'Win32' })
  const uaData = s.uaData.ok ? { brands: s.uaData.value.brands, mobile: s.uaData.value.mobile, platform: s.uaData.value.platform } : null
  const secureContext = s.context.ok ? s.context.value.secureContext : true
  return { ...s, navigator: nav.ok ? ok({ appVersion: '5.0', language: 'en-US', languages: ['en-US', 'en'], vendor: 'Google Inc.', secureContext, uaData, ...nav.value }) : nav }
}

function base(over: Over): Omit<HttpHeadersSignals, 'navigator'> {
  const rest = { ...over }
  delete rest.navigator
  return {
    languages: ok({ language: 'en-US', languages: ['en-US', 'en'] }),
    uaData: ok({
      brands: CHROME_BRANDS,
      mobile: false,
      platform: 'Windows',
      high: { architecture: 'x86', bitness: '64', model: '', platformVersion: '15.0.0', uaFullVersion: '124.0.6367.91', fullVersionList: CHROME_FULL, wow64: false, formFactors: ['Desktop'] },
      highError: null,
    }),
    privacy: ok({ globalPrivacyControl: null, doNotTrack: null }),
    context: ok({ secureContext: true, protocol: 'https:', hostname: 'antibot.example' }),
    ...rest,
  }
}

const brandHeader = (l: typeof CHROME_BRANDS) => l.map((b) => `"${b.brand}";v="${b.version}"`).join(', ')

/** A fetch() POST from desktop Chrome 124, in Chrome's own header order. */
function chromeHeaders(ua = CHROME_UA): Array<[string, string]> {
  return [
    ['host', 'antibot.example'],
    ['connection', 'keep-alive'],
    ['content-length', '900'],
    ['sec-ch-ua-full-version-list', brandHeader(CHROME_FULL)],
    ['sec-ch-ua-platform', '"Windows"'],
    ['sec-ch-ua-bitness', '"64"'],
    ['sec-ch-ua-model', '""'],
    ['sec-ch-ua-mobile', '?0'],
    ['sec-ch-ua-wow64', '?0'],
    ['sec-ch-ua-arch', '"x86"'],
    ['sec-ch-ua-platform-version', '"15.0.0"'],
    ['user-agent', ua],
    ['sec-ch-ua', brandHeader(CHROME_BRANDS)],
    ['content-type', 'application/json'],
    ['accept', '*/*'],
    ['origin', 'https://antibot.example'],
    ['sec-fetch-site', 'same-origin'],
    ['sec-fetch-mode', 'cors'],
    ['sec-fetch-dest', 'empty'],
    ['referer', 'https://antibot.example/tools/http-headers'],
    ['accept-encoding', 'gzip, deflate, br, zstd'],
    ['accept-language', 'en-US,en;q=0.9'],
  ]
}

function obs(headers: Array<[string, string]>): ServerObservation {
  return { ip: '203.0.113.9', userAgent: headers.find(([n]) => n === 'user-agent')?.[1] ?? '', headers, receivedAt: 1_760_000_000_000 }
}

function judge(s: HttpHeadersSignals, headers: Array<[string, string]>) {
  const { checks, sections } = httpHeaders.judge(s, obs(headers))
  const byId = Object.fromEntries(checks.map((c) => [c.id, c])) as Record<string, Check>
  return { checks, byId, sections: sections as { http: Record<string, unknown>; verdict: string }, summary: summarize(checks) }
}

const without = (h: Array<[string, string]>, ...names: string[]) => h.filter(([n]) => !names.includes(n) && !names.some((p) => p.endsWith('*') && n.startsWith(p.slice(0, -1))))
const replace = (h: Array<[string, string]>, name: string, value: string) => h.map(([n, v]) => [n, n === name ? value : v] as [string, string])

describe('http-headers judge', () => {
  test('a normal desktop Chrome passes everything that applies', () => {
    const r = judge(signals(), chromeHeaders())
    const bad = r.checks.filter((c) => c.verdict === 'fail' || c.verdict === 'warn')
    expect(bad).toEqual([])
    expect(r.summary.score).toBe(100)
    expect(r.byId['header-order']!.verdict).toBe('pass')
    expect(r.byId['header-case-http-version']!.verdict).toBe('na')
    expect(r.sections.http.orderPreserved).toBe(true)
    expect(r.sections.verdict).toBe('Headers are consistent with what Chrome 124 says in JavaScript.')
  })

  test('headless Chromium is caught by its User-Agent and nothing else', () => {
    const brands = [{ brand: 'Not:A-Brand', version: '8' }, { brand: 'Chromium', version: '156' }]
    const headers = chromeHeaders(HEADLESS_UA).map(([n, v]) => [n, n === 'sec-ch-ua' ? brandHeader(brands) : v] as [string, string])
    // Bun lists headers sorted, as the service really sees them.
    const sorted = without(headers, 'sec-ch-ua-full-version-list', 'sec-ch-ua-platform', 'sec-ch-ua-platform-version').concat([['sec-ch-ua-platform', '"Linux"']]).sort(([a], [b]) => (a < b ? -1 : 1))
    const s = signals({
      navigator: ok({ userAgent: HEADLESS_UA, platform: 'Linux x86_64' }),
      languages: ok({ language: 'en-US', languages: ['en-US'] }),
      uaData: ok({ brands, mobile: false, platform: 'Linux', high: { architecture: 'x86', bitness: '64', model: '', platformVersion: '', uaFullVersion: '156.0.8078.79', fullVersionList: null, wow64: false, formFactors: ['Desktop'] }, highError: null }),
    })
    const r = judge(s, replace(sorted, 'accept-language', 'en-US'))
    expect(r.byId['ua-automation']!.verdict).toBe('fail')
    expect(r.checks.filter((c) => c.verdict === 'fail').map((c) => c.id)).toEqual(['ua-automation'])
    expect(r.byId['header-order']!.verdict).toBe('na')
    expect(r.byId['header-order']!.expected).toContain('TLS_PORT')
    expect(r.summary.score).toBe(40)
    expect(r.sections.verdict).toStartWith('The headers do not come from an ordinary browser session (the User-Agent claims headless Chrome). Failed: User-Agent names')
    expect(r.sections.verdict).toContain('Not tested: header order, original case and HTTP version')
  })

  test("the TLS listener's HTTP/1 record: a browser on HTTP/1.1 with lower-case names fails; its HTTP/2 record passes", () => {
    const o = obs(chromeHeaders())
    const h1 = httpHeaders.judge(signals(), { ...o, evidence: [{ kind: 'http1', data: { version: 'HTTP/1.1', headers: [['host', 'x'], ['user-agent', CHROME_UA]] }, observedAt: 'x' }] })
    const raw1 = h1.checks.find((c) => c.id === 'header-case-http-version')!
    expect(raw1.verdict).toBe('fail')
    expect(String(raw1.observed)).toContain('lower-case names host, user-agent')
    const h2 = httpHeaders.judge(signals(), { ...o, evidence: [{ kind: 'http2', data: { header_order: ['sec-ch-ua', 'user-agent'] }, observedAt: 'x' }] })
    expect(h2.checks.find((c) => c.id === 'header-case-http-version')!.verdict).toBe('pass')
    expect(httpHeaders.judge(signals(), o).checks.find((c) => c.id === 'header-case-http-version')!.verdict).toBe('na')
  })

  test("header order is judged from the TLS listener's wire order when the request's own order is lost", () => {
    const sorted = chromeHeaders().sort(([a], [b]) => (a < b ? -1 : 1))
    const o = obs(sorted)
    const order = (evidence: ServerObservation['evidence']) => httpHeaders.judge(signals(), { ...o, evidence }).checks.find((c) => c.id === 'header-order')!
    expect(order(undefined).verdict).toBe('na')
    // Chromium 156's HTTP/2 HEADERS for the page's fetch to the listener, captured from
    // `chromium --headless --dump-dom` (tests/tls-fingerprint.e2e.ts runs the same).
    const chromium = ['pragma', 'cache-control', 'sec-ch-ua-platform', 'user-agent', 'sec-ch-ua', 'sec-ch-ua-mobile', 'accept', 'origin', 'sec-fetch-site', 'sec-fetch-mode', 'sec-fetch-dest', 'referer', 'accept-encoding', 'accept-language', 'priority']
    const good = order([{ kind: 'http2', data: { header_order: chromium }, observedAt: 'x' }])
    expect(good.verdict).toBe('pass')
    const sections = httpHeaders.judge(signals(), { ...o, evidence: [{ kind: 'http2', data: { header_order: chromium }, observedAt: 'x' }] }).sections!
    expect(sections.http).toMatchObject({ orderSource: 'wire', httpVersion: 'HTTP/2', originalNames: chromium })
    expect(sections.verdict).not.toContain('Not tested')
    expect(httpHeaders.judge(signals(), o).sections!.http).toMatchObject({ orderSource: null, httpVersion: null, originalNames: null })
    expect(String(good.observed)).toContain('wire order')
    // The same browser driven by Playwright, whose locale override adds Accept-Language as an
    // extra header, early (captured likewise): the order gives the automation away.
    const playwright = ['pragma', 'cache-control', 'sec-ch-ua-platform', 'user-agent', 'sec-ch-ua', 'accept-language', 'sec-ch-ua-mobile', 'accept', 'origin', 'sec-fetch-site', 'sec-fetch-mode', 'sec-fetch-dest', 'referer', 'accept-encoding', 'priority']
    const driven = order([{ kind: 'http2', data: { header_order: playwright }, observedAt: 'x' }])
    expect(driven.verdict).toBe('fail')
    expect(driven.observed).toMatchObject({ broken: ['accept-encoding after accept-language'] })
    // An HTTP/1 record gives the order too (names compared in lower case).
    const h1 = order([{ kind: 'http1', data: { version: 'HTTP/1.1', headers: chromium.map((n) => [n.replace(/^./, (c) => c.toUpperCase()), 'v']) }, observedAt: 'x' }])
    expect(h1.verdict).toBe('pass')
  })

  test('Firefox behind a Chrome UA switcher: no userAgentData, no client hints, Firefox headers', () => {
    const headers: Array<[string, string]> = [
      ['host', 'antibot.example'],
      ['user-agent', CHROME_UA],
      ['accept', '*/*'],
      ['accept-language', 'en-US,en;q=0.5'],
      ['accept-encoding', 'gzip, deflate, br, zstd'],
      ['referer', 'https://antibot.example/tools/http-headers'],
      ['content-type', 'application/json'],
      ['content-length', '900'],
      ['origin', 'https://antibot.example'],
      ['connection', 'keep-alive'],
      ['sec-fetch-dest', 'empty'],
      ['sec-fetch-mode', 'cors'],
      ['sec-fetch-site', 'same-origin'],
    ]
    const s = signals({ uaData: missing('unsupported', 'no navigator.userAgentData (Chromium only, in secure contexts)'), engine: ok(SPIDERMONKEY) })
    const r = judge(s, headers)
    expect(r.byId['navigator-ua-vs-ua-data']!.verdict).toBe('fail')
    expect(r.byId['navigator-ua-vs-ua-data']!.observed).toContain('the page runs on SpiderMonkey (Gecko)')
    expect(r.byId['header-order']!.verdict).toBe('fail')
    expect(r.byId['accept-language-q']!.verdict).toBe('warn')
    // Judged by the claim against the wire; the engine the page really runs on is named, with how it was told.
    for (const id of ['header-order', 'accept-language-q']) expect(r.byId[id]!.expected, id).toContain('SpiderMonkey (Gecko)')
    expect(r.byId['header-order']!.expected).toContain("judged by SpiderMonkey (Gecko), the engine the page's error messages show")
    expect(r.summary.score).toBeLessThan(60)
  })

  test('a spoofed User-Agent header disagrees with navigator and the client hints', () => {
    const spoof = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36'
    const r = judge(signals(), chromeHeaders(spoof))
    expect(r.byId['ua-header-vs-navigator']!.verdict).toBe('fail')
    expect(r.byId['ua-vs-client-hints']!.verdict).toBe('fail')
    expect(r.byId['ua-vs-client-hints']!.observed).toEqual(expect.arrayContaining([expect.stringContaining('version 120')]))
    expect(r.summary.score).toBeLessThanOrEqual(25)
  })

  test('patched userAgentData in the page shows against the headers', () => {
    const s = signals({ uaData: ok({ brands: [{ brand: 'Google Chrome', version: '124' }], mobile: false, platform: 'macOS', high: null, highError: 'NotAllowedError' }) })
    const r = judge(s, chromeHeaders())
    expect(r.byId['sec-ch-ua-vs-navigator']!.verdict).toBe('fail')
    expect(r.byId['brands-grease']!.verdict).toBe('fail')
    expect(r.byId['navigator-ua-vs-ua-data']!.verdict).toBe('fail')
    expect(r.byId['high-entropy-hints']!.verdict).toBe('na')
  })

  test('high-entropy hints that differ from getHighEntropyValues fail; absent ones warn', () => {
    const r = judge(signals(), replace(chromeHeaders(), 'sec-ch-ua-arch', '"arm"'))
    expect(r.byId['high-entropy-hints']!.verdict).toBe('fail')
    const none = judge(signals(), without(chromeHeaders(), 'sec-ch-ua-arch', 'sec-ch-ua-bitness', 'sec-ch-ua-model', 'sec-ch-ua-platform-version', 'sec-ch-ua-full-version-list', 'sec-ch-ua-wow64'))
    expect(none.byId['high-entropy-hints']!.verdict).toBe('warn')
  })

  // Issue 10: stripped hints warn (was: fail), as in bot-detector; a UA-switcher extension or
  // a TLS-inspecting proxy strips them for people too (src/checks/client-hints.ts).
  test('Chromium hints stripped from the request warn in a secure context only', () => {
    const stripped = without(chromeHeaders(), 'sec-ch-ua*')
    expect(judge(signals(), stripped).byId['sec-ch-ua-vs-navigator']!.verdict).toBe('warn')
    const http = signals({ context: ok({ secureContext: false, protocol: 'http:', hostname: 'antibot.example' }) })
    expect(judge(http, stripped).byId['sec-fetch']!.verdict).toBe('na')
  })

  test('a python-requests style request misses browser headers', () => {
    const headers: Array<[string, string]> = [
      ['host', 'antibot.example'],
      ['user-agent', 'python-requests/2.31.0'],
      ['accept-encoding', 'gzip, deflate'],
      ['accept', '*/*'],
      ['connection', 'keep-alive'],
      ['content-length', '900'],
      ['content-type', 'application/json'],
    ]
    const r = judge(signals(), headers)
    expect(r.byId['ua-automation']!.verdict).toBe('fail')
    expect(r.byId['browser-headers-present']!.observed).toEqual({ missing: ['accept-language', 'origin'] })
    expect(r.summary.score).toBe(0)
  })

  test('an injected Accept-Language is caught; a reduced one only warns', () => {
    expect(judge(signals(), replace(chromeHeaders(), 'accept-language', 'de-DE,de;q=0.9')).byId['accept-language-vs-languages']!.verdict).toBe('fail')
    expect(judge(signals(), replace(chromeHeaders(), 'accept-language', 'en-US')).byId['accept-language-vs-languages']!.verdict).toBe('warn')
  })

  test('Accept-Encoding without zstd warns, without gzip fails', () => {
    expect(judge(signals(), replace(chromeHeaders(), 'accept-encoding', 'gzip, deflate, br')).byId['accept-encoding']!.verdict).toBe('warn')
    expect(judge(signals(), replace(chromeHeaders(), 'accept-encoding', 'br')).byId['accept-encoding']!.verdict).toBe('fail')
  })

  test('wrong Sec-Fetch values and tool headers fail', () => {
    const r = judge(signals(), [...replace(chromeHeaders(), 'sec-fetch-site', 'none'), ['x-devtools-emulate-network-conditions-client-id', 'ABC']])
    expect(r.byId['sec-fetch']!.verdict).toBe('fail')
    expect(r.byId['automation-headers']!.verdict).toBe('fail')
  })

  test('DNT and GPC warn when the header and navigator disagree', () => {
    const s = signals({ privacy: ok({ globalPrivacyControl: true, doNotTrack: '1' }) })
    const r = judge(s, chromeHeaders())
    expect(r.byId['dnt-header']!.verdict).toBe('warn')
    expect(r.byId['gpc-header']!.verdict).toBe('warn')
    const both = judge(s, [...chromeHeaders(), ['dnt', '1'], ['sec-gpc', '1']])
    expect([both.byId['dnt-header']!.verdict, both.byId['gpc-header']!.verdict]).toEqual(['pass', 'pass'])
  })

  test('empty navigator.languages fails', () => {
    const r = judge(signals({ languages: ok({ language: 'en-US', languages: [] }) }), chromeHeaders())
    expect(r.byId['languages-present']!.verdict).toBe('fail')
  })

  test('missing signals make their checks na, not failures', () => {
    const gone = missing('timeout', 'no answer within 3000 ms')
    const r = judge({ navigator: gone, languages: gone, uaData: gone, privacy: gone, context: gone }, chromeHeaders())
    for (const id of ['ua-header-vs-navigator', 'languages-present', 'accept-language-vs-languages', 'brands-grease', 'dnt-header', 'gpc-header', 'navigator-ua-vs-ua-data']) {
      expect(r.byId[id]!.verdict).toBe('na')
    }
    expect(r.summary.score).toBe(100)
  })
})
