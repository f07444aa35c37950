import { describe, expect, test } from 'bun:test'
import type { Static } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import { summarize, type Check } from '../scoring'
import { BrowserFingerprintSignals } from '../../../common/signals/browser-fingerprint'
import { COMMON_ADDRESSES } from '../../checks/visitor-commonness'
import { visitorIdOf } from '../../checks/visitor-id'
import { BrowserFingerprintSections, browserFingerprint } from './browser-fingerprint'
import { submittedIdentity } from './assemble'
import { SEEN_CAP } from '../fingerprint-seen'
import type { JudgeContext } from '../../checks/define'
import type { ServerObservation } from './observation'
import { CHROME_UA, FIREFOX_153_UA, PDF, defaultFirefox, desktopChrome, fail, plain, resistingFirefox, scope, twice, webgl } from './browser-fingerprint.fixture'

const HEADLESS_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36'
const FIREFOX_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:125.0) Gecko/20100101 Firefox/125.0'

function server(ua = CHROME_UA, headers: Array<[string, string]> = []): ServerObservation {
  return {
    ip: '203.0.113.9',
    userAgent: ua,
    headers: [['user-agent', ua], ['accept-language', 'de-DE,de;q=0.9,en;q=0.8'], ['sec-ch-ua-arch', '"x86"'], ['sec-ch-device-memory', '8'], ['sec-ch-prefers-color-scheme', 'light'], ...headers],
    receivedAt: Date.UTC(2025, 0, 1),
  }
}

function judge(s: BrowserFingerprintSignals, obs = server(), ctx?: JudgeContext) {
  expect(Value.Check(BrowserFingerprintSignals, s)).toBe(true)
  const { checks, sections } = browserFingerprint.judge(s, obs, ctx)
  expect(Value.Check(BrowserFingerprintSections, sections)).toBe(true)
  const by = (id: string): Check => {
    const c = checks.find((x) => x.id === id)
    if (!c) throw new Error(`no check ${id}`)
    return c
  }
  return { checks, by, summary: summarize(checks), fingerprint: (sections as { fingerprint: Static<typeof BrowserFingerprintSections>['fingerprint'] }).fingerprint }
}

describe('browser-fingerprint judge', () => {
  test('passes an ordinary desktop Chrome on every applicable check, with full score', () => {
    const { checks, summary } = judge(desktopChrome())
    const notPass = checks.filter((c) => c.verdict !== 'pass' && c.verdict !== 'na').map((c) => `${c.id}: ${JSON.stringify(c.observed)}`)
    expect(notPass).toEqual([])
    expect(summary.score).toBe(100)
  })

  test('gives the same visitor id for the same browser and another one when a component changes', () => {
    const a = judge(desktopChrome()).fingerprint
    const b = judge(desktopChrome()).fingerprint
    expect(a.visitorId).toBe(b.visitorId)
    expect(a.visitorId).toMatch(/^[0-9a-f]{16}$/)
    const other = desktopChrome()
    other.hardware = twice({ hardwareConcurrency: 4, deviceMemory: 8 })
    const c = judge(other).fingerprint
    expect(c.visitorId).not.toBe(a.visitorId)
    expect(c.components.hardware!.hash).not.toBe(a.components.hardware!.hash)
    expect(c.components.canvas!.hash).toBe(a.components.canvas!.hash)
  })

  test('reports noise as farbling and keeps the noised components out of the visitor id', () => {
    const s = desktopChrome()
    const base = judge(desktopChrome()).fingerprint.visitorId
    s.canvas = twice({ winding: true, hash: 'aaaaaaaaaaaaaaaa' }, { winding: true, hash: 'bbbbbbbbbbbbbbbb' })
    s.audio = twice({ sum: 124.04347527516074, copySum: 124.04347527516074, reduction: -20.5 }, { sum: 124.0434761, copySum: 124.0434761, reduction: -20.5 })
    const { by, fingerprint, summary } = judge(s)
    expect(by('fp-stability').verdict).toBe('warn')
    expect(String(by('fp-stability').observed)).toBe('anti-fingerprinting detected, noise added per read (farbling): audio (two reads differ), canvas (two reads differ); left out of the visitor id')
    expect(fingerprint.unstable).toEqual(['audio', 'canvas'])
    expect(fingerprint.excluded).toEqual(['audio', 'canvas'])
    expect(fingerprint.components.canvas).toMatchObject({ stable: false, inVisitorId: false })
    expect(fingerprint.visitorId).not.toBe(base)
    // The audio engine check cannot judge a noised sum.
    expect(by('fp-audio-engine').verdict).toBe('na')
    expect(summary.score).toBe(85)
  })

  test('flags headless Chromium’s SwiftShader renderer as a warning only', () => {
    const s = desktopChrome()
    const sw = 'ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero) (0x0000C0DE)), SwiftShader driver)'
    s.webgl = twice(webgl(sw, 'Google Inc. (Google)'))
    s.navigator = twice({ userAgent: HEADLESS_UA, appVersion: HEADLESS_UA.slice(8), platform: 'Linux x86_64', vendor: 'Google Inc.', productSub: '20030107', oscpu: null, cpuClass: null })
    s.fonts = twice(['DejaVu Sans', 'DejaVu Serif', 'Liberation Sans', 'Liberation Mono', 'Arial'])
    s.uaData = twice({ brands: [{ brand: 'Chromium', version: '156' }, { brand: 'Not:A-Brand', version: '8' }], mobile: false, platform: 'Linux', high: { architecture: 'x86', bitness: '64', model: '', platformVersion: '6.1.0', uaFullVersion: null, wow64: false, fullVersionList: null, formFactors: null }, highError: null })
    const sc = scope(HEADLESS_UA, { platform: 'Linux x86_64', uaPlatform: 'Linux', uaBrands: 'Not:A-Brand/8, Chromium/156' })
    s.pageScope = s.iframeScope = s.workerScope = plain(sc)
    s.audio = twice({ sum: 124.04347776696522, copySum: 124.04347776696522, reduction: -20.538288116455078 })
    const { by, summary } = judge(s, server(HEADLESS_UA))
    expect(by('fp-software-renderer').verdict).toBe('warn')
    expect(String(by('fp-software-renderer').observed)).toContain('SwiftShader')
    expect(by('fp-gpu-os').verdict).toBe('pass')
    expect(by('fp-fonts-os').verdict).toBe('pass')
    expect(by('fp-audio-engine').verdict).toBe('pass')
    expect(summary.score).toBe(90)
  })

  test('fails a User-Agent rewritten in the page only: header, worker and platform disagree', () => {
    const s = desktopChrome()
    const mac = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36'
    s.navigator = twice({ userAgent: mac, appVersion: mac.slice(8), platform: 'Win32', vendor: 'Google Inc.', productSub: '20030107', oscpu: null, cpuClass: null })
    s.pageScope = s.iframeScope = plain(scope(mac))
    s.workerScope = plain(scope(CHROME_UA))
    const { by, summary } = judge(s)
    expect(by('fp-ua-header').verdict).toBe('fail')
    expect(by('fp-worker-consistency').verdict).toBe('fail')
    expect(String(by('fp-worker-consistency').observed)).toContain('userAgent')
    expect(by('fp-iframe-consistency').verdict).toBe('pass')
    expect(by('fp-platform').verdict).toBe('fail')
    expect(by('fp-ua-client-hints').verdict).toBe('fail')
    expect(by('fp-gpu-os').verdict).toBe('pass') // judged on the header's OS, which is Windows
    expect(summary.score).toBe(0)
  })

  test('fails Direct3D on a browser whose header claims macOS', () => {
    const mac = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36'
    const { by } = judge(desktopChrome(), server(mac))
    expect(by('fp-gpu-os').verdict).toBe('fail')
    // Windows fonts and none of Apple's: the fonts contradict the claim, as fonts-match-os judges.
    expect(by('fp-fonts-os').verdict).toBe('fail')
    expect(by('fp-ua-header').verdict).toBe('fail')
  })

  test('fails a Firefox User-Agent over a V8 engine with a Blink audio stack, vendor and userAgentData', () => {
    const s = desktopChrome()
    s.navigator = twice({ userAgent: FIREFOX_UA, appVersion: '5.0 (Windows)', platform: 'Win32', vendor: 'Google Inc.', productSub: '20030107', oscpu: null, cpuClass: null })
    s.pageScope = s.iframeScope = s.workerScope = plain(scope(FIREFOX_UA))
    const { by } = judge(s, server(FIREFOX_UA))
    expect(by('fp-audio-engine').verdict).toBe('fail')
    expect(by('fp-vendor').verdict).toBe('fail')
    expect(String(by('fp-vendor').observed)).toBe('the User-Agent claims gecko, but the page runs on V8 (Blink)')
    expect(by('fp-ua-client-hints').verdict).toBe('fail')
    // deviceMemory is V8's: judged by the engine the page runs on, it is no injection.
    expect(by('fp-hardware').verdict).toBe('pass')
  })

  test('spots the Intl-only time-zone spoof and a language switched in the page only', () => {
    const s = desktopChrome()
    s.timezone = twice({ zone: 'America/New_York', offset: -120, intlOffset: 240, locale: 'en-US', calendar: 'gregory' })
    s.languages = twice({ language: 'en-US', languages: ['en-US', 'en'] })
    const { by } = judge(s)
    expect(by('fp-timezone').verdict).toBe('fail')
    expect(by('fp-language').verdict).toBe('fail')
  })

  test('fails client hints that contradict the page (device memory, colour scheme) and warns on an architecture mismatch', () => {
    const { by } = judge(desktopChrome(), withHeaders({ 'sec-ch-device-memory': '4', 'sec-ch-prefers-color-scheme': 'dark', 'sec-ch-ua-arch': '"arm"' }))
    expect(by('fp-device-memory-hint').verdict).toBe('fail')
    expect(by('fp-media-hints').verdict).toBe('fail')
    expect(by('fp-architecture').verdict).toBe('warn')
  })

  test('fails a fake plugin list and warns on an empty one in desktop Chromium', () => {
    const s = desktopChrome()
    s.plugins = twice({ plugins: PDF.slice(0, 3), mimeTypes: 2, pdfViewerEnabled: true, nativePrototypes: false })
    expect(judge(s).by('fp-plugins').verdict).toBe('fail')
    s.plugins = twice({ plugins: [], mimeTypes: 0, pdfViewerEnabled: null, nativePrototypes: true })
    expect(judge(s).by('fp-plugins').verdict).toBe('warn')
  })

  test("a default Firefox ESR 153 on a 2-core machine in UTC is no privacy mode (the tools matrix's Firefox person)", () => {
    const obs = { ...server(FIREFOX_153_UA), headers: [['user-agent', FIREFOX_153_UA], ['accept-language', 'en-US,en;q=0.9']] as Array<[string, string]> }
    const { by, checks } = judge(defaultFirefox(), obs)
    expect(by('fp-privacy-mode').verdict).toBe('pass')
    expect(checks.filter((c) => c.verdict !== 'pass' && c.verdict !== 'na').map((c) => c.id)).toEqual([])
    for (const id of ['fp-vendor', 'fp-audio-engine', 'fp-hardware', 'fp-privacy-mode']) expect(by(id).expected, id).toContain("judged by SpiderMonkey (Gecko), the engine the page's error messages show")
  })

  test('warns on the resistFingerprinting profile of Firefox, saying anti-fingerprinting was detected', () => {
    const obs = { ...server(FIREFOX_153_UA), headers: [['user-agent', FIREFOX_153_UA], ['accept-language', 'en-US,en;q=0.9']] as Array<[string, string]> }
    const { by, summary } = judge(resistingFirefox(), obs)
    expect(by('fp-privacy-mode').verdict).toBe('warn')
    expect(String(by('fp-privacy-mode').observed)).toStartWith('anti-fingerprinting detected (resistFingerprinting): the zone Atlantic/Reykjavik')
    expect(String(by('fp-stability').observed)).toStartWith('anti-fingerprinting detected')
    expect(by('fp-vendor').verdict).toBe('pass')
    expect(by('fp-ua-client-hints').verdict).toBe('na')
    expect(summary.score).toBeGreaterThanOrEqual(80)
  })

  test('marks checks na when their signals are missing, and keeps steady absences in the visitor id', () => {
    const s = desktopChrome()
    s.webgl = fail('unsupported', 'no webgl context')
    s.audio = fail('timeout', 'no answer within 3000 ms')
    s.workerScope = fail('blocked', 'cannot start a worker')
    s.canvas = fail('farbled', 'two reads differ')
    const { by, fingerprint, summary } = judge(s)
    expect(by('fp-software-renderer').verdict).toBe('na')
    expect(by('fp-software-renderer').expected).toContain('unsupported: no webgl context')
    expect(by('fp-audio-engine').verdict).toBe('na')
    expect(by('fp-worker-consistency').verdict).toBe('na')
    expect(fingerprint.components.webgl).toMatchObject({ inVisitorId: true, stable: true })
    expect(fingerprint.components.audio).toMatchObject({ inVisitorId: false, hash: null })
    expect(fingerprint.unstable).toEqual(['canvas'])
    expect(by('fp-stability').verdict).toBe('warn')
    expect(summary.score).toBe(85)
  })
})

describe('fp-commonness, from the count over stored tasks the service passes', () => {
  const seen = (tasks: number, addresses: number) => ({ fingerprintSeen: { tasks, addresses } })

  test('is na without the count (pure callers), saying it was not counted', () => {
    const { by, fingerprint, summary } = judge(desktopChrome())
    expect(by('fp-commonness')).toMatchObject({ verdict: 'na', source: 'server', points: 0 })
    expect(by('fp-commonness').expected).toBe(`not counted: the stored tasks were not consulted for visitor id ${fingerprint.visitorId}`)
    expect(fingerprint.commonness).toBeNull()
    expect(summary.score).toBe(100)
  })

  test('passes a visitor id never stored before as unique', () => {
    const { by, fingerprint, summary } = judge(desktopChrome(), server(), seen(0, 0))
    expect(by('fp-commonness').verdict).toBe('pass')
    expect(by('fp-commonness').observed).toBe(`unique: no task stored in the last 90 days has visitor id ${fingerprint.visitorId}`)
    expect(fingerprint.commonness).toEqual({ tasks: 0, addresses: 0 })
    expect(summary.score).toBe(100)
  })

  test('passes a visitor id stored before only from this address: reloading is not common', () => {
    const { by } = judge(desktopChrome(), server(), seen(40, 0))
    expect(by('fp-commonness').verdict).toBe('pass')
    expect(String(by('fp-commonness').observed)).toBe(`unique to this address: 40 stored tasks have visitor id ${judge(desktopChrome()).fingerprint.visitorId} in the last 90 days, all from this address`)
  })

  test(`passes a visitor id shared by up to ${COMMON_ADDRESSES - 1} other addresses as rare`, () => {
    for (const n of [1, COMMON_ADDRESSES - 1]) {
      const { by, fingerprint, summary } = judge(desktopChrome(), server(), seen(n + 2, n))
      expect(by('fp-commonness').verdict).toBe('pass')
      expect(String(by('fp-commonness').observed)).toBe(`rare: ${n + 2} stored tasks have visitor id ${fingerprint.visitorId} in the last 90 days, from ${n} other address${n === 1 ? '' : 'es'} (the same browser on another network, or a close twin)`)
      expect(summary.score).toBe(100)
    }
  })

  test(`warns from ${COMMON_ADDRESSES} other addresses: a default configuration, as automation fleets have`, () => {
    const { by, fingerprint, summary } = judge(desktopChrome(), server(), seen(COMMON_ADDRESSES, COMMON_ADDRESSES))
    expect(by('fp-commonness').verdict).toBe('warn')
    expect(by('fp-commonness').observed).toBe(`common: 5 stored tasks have visitor id ${fingerprint.visitorId} in the last 90 days, from 5 other addresses — a default configuration, as automation fleets have`)
    expect(fingerprint.commonness).toEqual({ tasks: 5, addresses: 5 })
    expect(summary.score).toBe(95)
  })

  test('says "at least" when the count reached its cap', () => {
    const { by } = judge(desktopChrome(), server(), seen(SEEN_CAP, 300))
    expect(by('fp-commonness').verdict).toBe('warn')
    expect(String(by('fp-commonness').observed)).toStartWith(`common: at least ${SEEN_CAP} stored tasks have visitor id `)
  })

  test('is na with the reason when the count could not be made', () => {
    const { by, fingerprint } = judge(desktopChrome(), server(), { fingerprintSeen: { error: 'the count over stored tasks could not be made (the query failed)' } })
    expect(by('fp-commonness')).toMatchObject({ verdict: 'na', expected: 'not counted: the count over stored tasks could not be made (the query failed)' })
    expect(fingerprint.commonness).toBeNull()
  })

  test('is na when no component went into the visitor id, whatever the count', () => {
    const s = desktopChrome()
    for (const k of Object.keys(s) as Array<keyof BrowserFingerprintSignals>) (s as Record<string, unknown>)[k] = fail('timeout', 'no answer within 3000 ms')
    const { by, fingerprint } = judge(s, server(), seen(900, 900))
    expect(by('fp-commonness')).toMatchObject({ verdict: 'na', expected: 'no visitor id: no component was read reliably' })
    expect(fingerprint.commonness).toBeNull()
    expect(visitorIdOf(s)).toBeNull()
  })

  test('visitorIdOf and the identity of a submission are the visitor id the judge reports', () => {
    const s = desktopChrome()
    const { fingerprint } = judge(s)
    expect(visitorIdOf(s)).toBe(fingerprint.visitorId)
    expect(browserFingerprint.identity!(s)).toBe(fingerprint.visitorId)
    expect(submittedIdentity({ tool: 'browser-fingerprint', results: { signals: s } })).toEqual({ tool: 'browser-fingerprint', fingerprint: fingerprint.visitorId })
  })

  test('a submission without valid signals, or of another tool, has no identity', () => {
    const s = desktopChrome()
    for (const body of [null, 7, [], {}, { tool: 'browser-fingerprint' }, { tool: 'browser-fingerprint', results: {} }, { tool: 'browser-fingerprint', results: { signals: { ...s, hardware: 'eight' } } }, { tool: 'nope', results: { signals: s } }, { tool: 'canvas-fingerprint', results: { signals: s } }]) {
      expect(submittedIdentity(body)).toBeNull()
    }
  })
})

function withHeaders(h: Record<string, string>): ServerObservation {
  const base = server()
  return { ...base, headers: [...base.headers.filter(([k]) => !(k in h)), ...Object.entries(h)] }
}
