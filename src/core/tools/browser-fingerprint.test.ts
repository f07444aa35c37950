import { describe, expect, test } from 'bun:test'
import { Value } from '@sinclair/typebox/value'
import { summarize, type Check } from '../checks'
import { BrowserFingerprintSignals, browserFingerprint, fingerprintOf, scopeMismatches, uaDataMismatches, type ScopeSnapshot } from './browser-fingerprint'
import type { ServerObservation } from './observation'

const CHROME_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36'
const HEADLESS_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36'
const FIREFOX_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:125.0) Gecko/20100101 Firefox/125.0'

const twice = <T,>(value: T, again?: T) => ({ ok: true as const, value: again === undefined ? { value } : { value, again }, ms: 3 })
const plain = <T,>(value: T) => ({ ok: true as const, value, ms: 3 })
const fail = (kind: 'unsupported' | 'blocked' | 'timeout' | 'farbled' | 'error', message: string) => ({ ok: false as const, error: { kind, message }, ms: 3 })

const PDF = ['PDF Viewer', 'Chrome PDF Viewer', 'Chromium PDF Viewer', 'Microsoft Edge PDF Viewer', 'WebKit built-in PDF'].map((name) => ({ name, filename: 'internal-pdf-viewer', mimeTypes: ['application/pdf', 'text/pdf'] }))

function scope(ua = CHROME_UA, over: Partial<ScopeSnapshot> = {}): ScopeSnapshot {
  return {
    userAgent: ua, platform: 'Win32', languages: ['de-DE', 'de', 'en'], hardwareConcurrency: 8, deviceMemory: 8, webdriver: false,
    timeZone: 'Europe/Berlin', timezoneOffset: -120, uaPlatform: 'Windows', uaBrands: 'Chromium/124, Google Chrome/124, Not-A.Brand/99', ...over,
  }
}

function webgl(renderer: string, vendor = 'Google Inc. (NVIDIA)') {
  return {
    vendor: 'WebKit', renderer: 'WebKit WebGL', unmaskedVendor: vendor, unmaskedRenderer: renderer,
    version: 'WebGL 1.0 (OpenGL ES 2.0 Chromium)', glsl: 'WebGL GLSL ES 1.0 (OpenGL ES GLSL ES 1.0 Chromium)',
    params: { MAX_TEXTURE_SIZE: 16384, MAX_VIEWPORT_DIMS: [32767, 32767], MAX_VERTEX_ATTRIBS: 16, MAX_TEXTURE_IMAGE_UNITS: 16, MAX_COMBINED_TEXTURE_IMAGE_UNITS: 32 },
    extensions: ['ANGLE_instanced_arrays', 'WEBGL_debug_renderer_info'], pixelsHash: '0123456789abcdef', pixelsStable: true, webgl2: true,
  }
}

/** An ordinary Chrome 124 on Windows, German, 8 cores, an NVIDIA GPU. */
function desktopChrome(): BrowserFingerprintSignals {
  return {
    fonts: twice(['Segoe UI', 'Calibri', 'Cambria', 'Consolas', 'Marlett', 'Arial', 'Verdana']),
    canvas: twice({ winding: true, hash: 'aaaaaaaaaaaaaaaa' }),
    webgl: twice(webgl('ANGLE (NVIDIA, NVIDIA GeForce RTX 3060 (0x00002504) Direct3D11 vs_5_0 ps_5_0, D3D11)')),
    audio: twice({ sum: 124.04347527516074, copySum: 124.04347527516074, reduction: -20.538286209106445 }),
    screen: twice({ width: 1920, height: 1080, availWidth: 1920, availHeight: 1032, colorDepth: 24, pixelDepth: 24, orientation: 'landscape-primary', devicePixelRatio: 1 }),
    timezone: twice({ zone: 'Europe/Berlin', offset: -120, intlOffset: -120, locale: 'de-DE', calendar: 'gregory' }),
    languages: twice({ language: 'de-DE', languages: ['de-DE', 'de', 'en'] }),
    navigator: twice({ userAgent: CHROME_UA, appVersion: CHROME_UA.slice(8), platform: 'Win32', vendor: 'Google Inc.', productSub: '20030107', oscpu: null, cpuClass: null }),
    hardware: twice({ hardwareConcurrency: 8, deviceMemory: 8 }),
    plugins: twice({ plugins: PDF, mimeTypes: 2, pdfViewerEnabled: true, nativePrototypes: true }),
    vendorFlavours: twice({ flavours: ['chrome'], chromeKeys: ['app', 'csi', 'loadTimes'] }),
    math: twice({ tan: -1.4214488238747245, sinh: 1.1752011936438014 }),
    media: twice({ colorGamut: 'srgb', invertedColors: 'none', forcedColors: 'none', monochrome: 0, contrast: 'no-preference', reducedMotion: 'no-preference', reducedTransparency: 'no-preference', hdr: 'standard', colorScheme: 'light' }),
    touch: twice({ maxTouchPoints: 0, touchEvent: false }),
    storage: twice({ cookieEnabled: true, cookies: true, localStorage: true, sessionStorage: true, indexedDB: true, openDatabase: false }),
    architecture: twice(255),
    uaData: twice({
      brands: [{ brand: 'Chromium', version: '124' }, { brand: 'Google Chrome', version: '124' }, { brand: 'Not-A.Brand', version: '99' }],
      mobile: false, platform: 'Windows',
      high: { architecture: 'x86', bitness: '64', model: '', platformVersion: '15.0.0', uaFullVersion: null, wow64: false, fullVersionList: null, formFactors: null },
      highError: null,
    }),
    pageScope: plain(scope()),
    iframeScope: plain(scope()),
    workerScope: plain(scope()),
  }
}

function server(ua = CHROME_UA, headers: Array<[string, string]> = []): ServerObservation {
  return {
    ip: '203.0.113.9',
    userAgent: ua,
    headers: [['user-agent', ua], ['accept-language', 'de-DE,de;q=0.9,en;q=0.8'], ['sec-ch-ua-arch', '"x86"'], ['sec-ch-device-memory', '8'], ['sec-ch-prefers-color-scheme', 'light'], ...headers],
    receivedAt: Date.UTC(2025, 0, 1),
  }
}

function judge(s: BrowserFingerprintSignals, obs = server()) {
  expect(Value.Check(BrowserFingerprintSignals, s)).toBe(true)
  const { checks, sections } = browserFingerprint.judge(s, obs)
  const by = (id: string): Check => {
    const c = checks.find((x) => x.id === id)
    if (!c) throw new Error(`no check ${id}`)
    return c
  }
  return { checks, by, summary: summarize(checks), fingerprint: (sections as { fingerprint: ReturnType<typeof fingerprintOf> }).fingerprint }
}

describe('browser-fingerprint judge', () => {
  test('passes an ordinary desktop Chrome on every applicable check, with full score', () => {
    const { checks, summary, by } = judge(desktopChrome())
    const notPass = checks.filter((c) => c.verdict !== 'pass' && c.verdict !== 'na').map((c) => `${c.id}: ${JSON.stringify(c.observed)}`)
    expect(notPass).toEqual([])
    expect(summary.score).toBe(100)
    expect(by('fp-commonness').verdict).toBe('na')
    expect(by('fp-commonness').expected).toContain('stored-task index')
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
    expect(String(by('fp-stability').observed)).toContain('farbling detected: audio (two reads differ), canvas (two reads differ)')
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
    expect(by('fp-fonts-os').verdict).toBe('warn')
    expect(by('fp-ua-header').verdict).toBe('fail')
  })

  test('fails a Firefox User-Agent over a Blink audio stack, vendor and window.chrome', () => {
    const s = desktopChrome()
    s.navigator = twice({ userAgent: FIREFOX_UA, appVersion: '5.0 (Windows)', platform: 'Win32', vendor: 'Google Inc.', productSub: '20030107', oscpu: null, cpuClass: null })
    s.pageScope = s.iframeScope = s.workerScope = plain(scope(FIREFOX_UA))
    const { by } = judge(s, server(FIREFOX_UA))
    expect(by('fp-audio-engine').verdict).toBe('fail')
    expect(by('fp-vendor').verdict).toBe('fail')
    expect(String(by('fp-vendor').observed)).toContain('window.chrome in Firefox')
    expect(by('fp-ua-client-hints').verdict).toBe('fail')
    expect(by('fp-hardware').verdict).toBe('fail') // deviceMemory in Gecko
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

  test('warns on the resistFingerprinting profile of Firefox', () => {
    const s = desktopChrome()
    s.navigator = twice({ userAgent: FIREFOX_UA, appVersion: '5.0 (Windows)', platform: 'Win32', vendor: '', productSub: '20100101', oscpu: 'Windows NT 10.0; Win64; x64', cpuClass: null })
    s.hardware = twice({ hardwareConcurrency: 2, deviceMemory: null })
    s.timezone = twice({ zone: 'UTC', offset: 0, intlOffset: 0, locale: 'en-US', calendar: 'gregory' })
    s.languages = twice({ language: 'en-US', languages: ['en-US', 'en'] })
    s.vendorFlavours = twice({ flavours: [], chromeKeys: null })
    s.uaData = fail('unsupported', 'no navigator.userAgentData (Chromium only, on secure contexts)')
    const { by } = judge(s, server(FIREFOX_UA))
    expect(by('fp-privacy-mode').verdict).toBe('warn')
    expect(by('fp-vendor').verdict).toBe('pass')
    expect(by('fp-ua-client-hints').verdict).toBe('na')
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

function withHeaders(h: Record<string, string>): ServerObservation {
  const base = server()
  return { ...base, headers: [...base.headers.filter(([k]) => !(k in h)), ...Object.entries(h)] }
}

describe('helpers', () => {
  test('scopeMismatches lists differing fields and skips fields one side lacks', () => {
    expect(scopeMismatches(scope(), scope(CHROME_UA, { deviceMemory: null, webdriver: null }))).toEqual([])
    expect(scopeMismatches(scope(), scope(CHROME_UA, { hardwareConcurrency: 4, languages: ['en-US'] }))).toEqual(['languages: ["de-DE","de","en"] vs ["en-US"]', 'hardwareConcurrency: 8 vs 4'])
  })
  test('uaDataMismatches ignores GREASE brands and compares version, platform and mobile', () => {
    const brands = [{ brand: 'Not/A)Brand', version: '8' }, { brand: 'Chromium', version: '124' }, { brand: 'Google Chrome', version: '124' }]
    expect(uaDataMismatches(CHROME_UA, { brands, platform: 'Windows', mobile: false })).toEqual([])
    expect(uaDataMismatches(CHROME_UA, { brands: [{ brand: 'Chromium', version: '120' }], platform: 'macOS', mobile: true })).toEqual([
      'the User-Agent says version 124, the brands 120',
      'the User-Agent claims windows, userAgentData.platform "macOS"',
      'the User-Agent says mobile=false, userAgentData.mobile=true',
    ])
    expect(uaDataMismatches(FIREFOX_UA, { brands, platform: 'Windows', mobile: false })[0]).toContain('gecko')
  })
})
