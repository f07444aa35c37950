// bot-detector signals as the page reports them for a person's Chrome, Debian's Chromium on a
// virtual display and Playwright's headless Chromium, and a judge that also stores the results:
// for the tool's tests (src/core/tools/bot-detector.test.ts) and its checks' (src/checks/*.test.ts).

import type { Check } from '../scoring'
import { assembleResults } from './assemble'
import type { Static } from '@sinclair/typebox'
import { botDetector, type BotDetectorSections } from './bot-detector'
import type { BotDetectorSignals as Signals } from '../../../common/signals/bot-detector'
import type { ServerObservation } from './observation'

export const ok = <T,>(value: T) => ({ ok: true as const, value, ms: 1 })
export const missing = (kind: 'timeout' | 'unsupported' | 'blocked' | 'error' = 'timeout', message = 'no answer within 3000 ms') => ({ ok: false as const, error: { kind, message }, ms: 3000 })

/** The example body of docs/api.md: exactly the interface spec's bot-detector `results` shape. */
export const SPEC_EXAMPLE_RESULTS = {
  summary: { total: 3, passed: 3, failed: 0, warnings: 0, score: 100 },
  leaks: { webdriver: false, selenium: false, phantomjs: false },
  navigator: { userAgent: 'Mozilla/5.0', platform: 'Linux x86_64', language: 'en-US' },
  screen: { width: 1920, height: 1080, colorDepth: 24 },
  webgl: { vendor: 'Google Inc.', renderer: 'ANGLE' },
  canvas: { hash: 'a1b2c3' },
  scoring: { webdriver: 'pass', selenium: 'pass', phantomjs: 'pass' },
}

export const CHROME_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
export const HEADLESS_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36'
export const FIREFOX_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0'
export const SAFARI_UA = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15'
export const CHROME_BRANDS = [
  { brand: 'Google Chrome', version: '131' },
  { brand: 'Chromium', version: '131' },
  { brand: 'Not_A Brand', version: '24' },
]
export const V8 = { evalLength: 33, nullError: "Cannot read properties of null (reading 'x')", rangeError: 'toFixed() digits argument must be between 0 and 100' }
export const SPIDERMONKEY = { evalLength: 37, nullError: 'JSON.parse(...) is null', rangeError: 'precision -1 out of range' }
export const JSC = { evalLength: 37, nullError: "null is not an object (evaluating 'JSON.parse('null').x')", rangeError: 'toFixed() argument must be between 0 and 100' }
export const PDF_PLUGINS = ['PDF Viewer', 'Chrome PDF Viewer', 'Chromium PDF Viewer', 'Microsoft Edge PDF Viewer', 'WebKit built-in PDF'].map((name) => ({ name }))

type ScopeValue = Extract<Signals['page'], { ok: true }>['value']

export function scope(ua: string, o: Partial<ScopeValue> = {}): ScopeValue {
  return {
    userAgent: ua,
    platform: 'Win32',
    languages: ['en-GB', 'en'],
    hardwareConcurrency: 8,
    deviceMemory: 8,
    webdriver: false,
    timeZone: 'Europe/London',
    timezoneOffset: 0,
    uaPlatform: 'Windows',
    uaBrands: 'Google Chrome/131, Chromium/131, Not_A Brand/24',
    ...o,
  }
}

/** A person's headful Chrome 131 on Windows with a GPU, as our page reports it. */
export function humanChrome(): Signals {
  return {
    lies: ok({ tested: 50, lies: [] }),
    webdriver: ok({ value: false, present: true, ownProperties: [], proto: 'getter' as const, getterNative: true }),
    cdp: ok({ prepareStackTrace: false, stackGetter: false }),
    stack: ok({ hooked: 10, calls: 2, frames: [] }),
    globals: ok({ window: [], document: [], attributes: [] }),
    navigator: ok({
      userAgent: CHROME_UA,
      appVersion: CHROME_UA.slice(8),
      platform: 'Win32',
      language: 'en-GB',
      languages: ['en-GB', 'en'],
      vendor: 'Google Inc.',
      secureContext: true,
      uaData: { brands: CHROME_BRANDS, mobile: false, platform: 'Windows' },
    }),
    page: ok(scope(CHROME_UA)),
    iframe: ok(scope(CHROME_UA)),
    // WorkerNavigator has no webdriver in Chromium.
    worker: ok(scope(CHROME_UA, { webdriver: null })),
    iframeProxy: ok({ sameAsFrames: true, selfIsWindow: true, getterNative: true, chrome: 'object' }),
    chrome: ok({ present: true, keys: ['loadTimes', 'csi', 'app'], runtime: false, functions: { loadTimes: { native: true, constructible: true }, csi: { native: true, constructible: true } } }),
    notification: ok({ notification: 'default', query: 'prompt', queryError: null }),
    plugins: ok({ plugins: PDF_PLUGINS, mimeTypes: 2, pdfViewerEnabled: true, nativePrototypes: true }),
    engine: ok(V8),
    webgl: ok({ vendor: 'WebKit', renderer: 'WebKit WebGL', unmaskedVendor: 'Google Inc. (NVIDIA)', unmaskedRenderer: 'ANGLE (NVIDIA, NVIDIA GeForce RTX 3060 (0x00002504) Direct3D11 vs_5_0 ps_5_0, D3D11)' }),
    canvas: ok({ hash: '0123456789abcdef', stable: true, knownWrong: 0, knownFlat: false }),
    screen: ok({ width: 1920, height: 1080, availWidth: 1920, availHeight: 1040, colorDepth: 24 }),
    window: ok({ innerWidth: 1920, innerHeight: 945, outerWidth: 1920, outerHeight: 1040 }),
    frames: ok({ frames: 10, ticks: 3, waitedMs: 170, firstFrameMs: 12, steadyAtMs: 170, maxTicksWithoutFrame: 1, visible: true }),
    pointer: ok({ pointer: 'fine', anyPointer: ['fine'], hover: 'hover', anyHover: ['hover'] }),
    // Chromium's NavigationRateLimiter drops replaceState calls after the 200th.
    navRate: ok({ calls: 400, accepted: 400, lastApplied: 200, error: null }),
    partition: ok({ state: 'partitioned', error: null, withResolvers: true }),
  }
}

/** No input devices, as headless Chromium reports them (Playwright fakes a mouse). */
export const NO_POINTER = { pointer: 'none', anyPointer: ['none'], hover: 'none', anyHover: ['none'] }
export const SWIFTSHADER = { vendor: 'WebKit', renderer: 'WebKit WebGL', unmaskedVendor: 'Google Inc. (Google)', unmaskedRenderer: 'ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero) (0x0000C0DE)), SwiftShader driver)' }
export const LINUX_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36'
export const CHROMIUM_156 = [
  { brand: 'Not:A-Brand', version: '8' },
  { brand: 'Chromium', version: '156' },
]
export const CHROMIUM_HINTS = { 'sec-ch-ua': '"Not:A-Brand";v="8", "Chromium";v="156"', 'sec-ch-ua-mobile': '?0', 'sec-ch-ua-platform': '"Linux"' }

/**
 * Debian's Chromium 156 on Linux with a Chrome user agent, as this page recorded it in the
 * detection matrix: `person` is the headful browser on Xvfb (no GPU, no window manager or
 * taskbar, UTC); the tests below turn it into the automated clients.
 */
export function linuxChromium(): Signals {
  const s = humanChrome()
  const linux = scope(LINUX_UA, { platform: 'Linux x86_64', languages: ['en-US', 'en'], hardwareConcurrency: 2, deviceMemory: 16, timeZone: 'UTC', uaPlatform: 'Linux', uaBrands: 'Not:A-Brand/8, Chromium/156' })
  s.navigator = ok({ userAgent: LINUX_UA, appVersion: LINUX_UA.slice(8), platform: 'Linux x86_64', language: 'en-US', languages: ['en-US', 'en'], vendor: 'Google Inc.', secureContext: true, uaData: { brands: CHROMIUM_156, mobile: false, platform: 'Linux' } })
  s.page = ok(linux)
  s.iframe = ok(linux)
  s.worker = ok({ ...linux, webdriver: null })
  s.webgl = ok(SWIFTSHADER)
  s.screen = ok({ width: 1920, height: 1080, availWidth: 1920, availHeight: 1080, colorDepth: 24 })
  s.window = ok({ innerWidth: 945, innerHeight: 973, outerWidth: 945, outerHeight: 1060 })
  return s
}

export function chromeServer(ua = CHROME_UA, hints: Record<string, string> = { 'sec-ch-ua': '"Google Chrome";v="131", "Chromium";v="131", "Not_A Brand";v="24"', 'sec-ch-ua-mobile': '?0', 'sec-ch-ua-platform': '"Windows"' }): ServerObservation {
  return { ip: '203.0.113.7', userAgent: ua, headers: [['host', 'example.test'], ['user-agent', ua], ...Object.entries(hints)], receivedAt: Date.UTC(2025, 0, 1) }
}

/** Playwright 1.x driving Debian's Chromium 156 headless, as recorded from this page. */
export function playwrightHeadless(): { signals: Signals; server: ServerObservation } {
  const s = humanChrome()
  const brands = [
    { brand: 'Not:A-Brand', version: '8' },
    { brand: 'Chromium', version: '156' },
  ]
  const linux = scope(HEADLESS_UA, { platform: 'Linux x86_64', languages: ['en-US', 'en'], hardwareConcurrency: 2, deviceMemory: 16, webdriver: true, timeZone: 'UTC', uaPlatform: 'Linux', uaBrands: 'Not:A-Brand/8, Chromium/156' })
  s.webdriver = ok({ value: true, present: true, ownProperties: [], proto: 'getter' as const, getterNative: true })
  s.cdp = ok({ prepareStackTrace: true, stackGetter: false })
  s.stack = ok({ hooked: 10, calls: 3, frames: ['at eval (eval at evaluate (:370:30), <anonymous>:1:16)', 'at UtilityScript.evaluate (<anonymous>:372:16)'] })
  s.navigator = ok({ userAgent: HEADLESS_UA, appVersion: HEADLESS_UA.slice(8), platform: 'Linux x86_64', language: 'en-US', languages: ['en-US', 'en'], vendor: 'Google Inc.', secureContext: true, uaData: { brands, mobile: false, platform: 'Linux' } })
  s.page = ok(linux)
  s.iframe = ok(linux)
  s.worker = ok({ ...linux, webdriver: null })
  s.webgl = ok({ vendor: 'WebKit', renderer: 'WebKit WebGL', unmaskedVendor: 'Google Inc. (Google)', unmaskedRenderer: 'ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero) (0x0000C0DE)), SwiftShader driver)' })
  s.screen = ok({ width: 1280, height: 720, availWidth: 1280, availHeight: 720, colorDepth: 24 })
  s.window = ok({ innerWidth: 1280, innerHeight: 720, outerWidth: 1280, outerHeight: 720 })
  // Playwright launches with --disable-ipc-flooding-protection and fakes a mouse.
  s.navRate = ok({ calls: 400, accepted: 400, lastApplied: 400, error: null })
  const server = chromeServer(HEADLESS_UA, { 'sec-ch-ua': '"Not:A-Brand";v="8", "Chromium";v="156"', 'sec-ch-ua-mobile': '?0', 'sec-ch-ua-platform': '"Linux"' })
  return { signals: s, server }
}

export function judge(s: Signals, server: ServerObservation = chromeServer()) {
  const j = botDetector.judge(s, server)
  const byId = (id: string): Check => {
    const c = j.checks.find((x) => x.id === id)
    if (!c) throw new Error(`no check ${id}`)
    return c
  }
  const stored = assembleResults('bot-detector', { signals: s }, server)
  if (!stored.ok) throw new Error(stored.error)
  return { ...j, sections: j.sections as Static<typeof BotDetectorSections>, byId, score: stored.score, stored: stored.results }
}

export const failing = (checks: Check[]) => checks.filter((c) => c.verdict === 'fail').map((c) => c.id)
