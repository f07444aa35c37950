import { describe, expect, test } from 'bun:test'
import { TypeCompiler } from '@sinclair/typebox/compiler'
import { Value } from '@sinclair/typebox/value'
import type { Check } from '../scoring'
import { resultsSchema } from '../results'
import { assembleResults } from './assemble'
import {
  botDetector,
  BotDetectorSignals,
  frameworkOfFrame,
  frameworkOfGlobal,
  isAutomationApi,
  scopeMismatches,
  verdictOf,
  type BotDetectorSignals as Signals,
} from './bot-detector'
import { jsEngineOf } from '../../../common/engine-errors'
import type { ServerObservation } from './observation'
import { fakeLookup, NETWORKS } from '../../../tests/support/fake-ipdb'
import { proxyFingerprintEvidence } from '../../evidence/proxy-fingerprints'

const ok = <T,>(value: T) => ({ ok: true as const, value, ms: 1 })
const missing = (kind: 'timeout' | 'unsupported' | 'blocked' | 'error' = 'timeout', message = 'no answer within 3000 ms') => ({ ok: false as const, error: { kind, message }, ms: 3000 })

const CHROME_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
const HEADLESS_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36'
const FIREFOX_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0'
const SAFARI_UA = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15'
const CHROME_BRANDS = [
  { brand: 'Google Chrome', version: '131' },
  { brand: 'Chromium', version: '131' },
  { brand: 'Not_A Brand', version: '24' },
]
const V8 = { evalLength: 33, nullError: "Cannot read properties of null (reading 'x')", rangeError: 'toFixed() digits argument must be between 0 and 100' }
const SPIDERMONKEY = { evalLength: 37, nullError: 'JSON.parse(...) is null', rangeError: 'precision -1 out of range' }
const JSC = { evalLength: 37, nullError: "null is not an object (evaluating 'JSON.parse('null').x')", rangeError: 'toFixed() argument must be between 0 and 100' }
const PDF_PLUGINS = ['PDF Viewer', 'Chrome PDF Viewer', 'Chromium PDF Viewer', 'Microsoft Edge PDF Viewer', 'WebKit built-in PDF'].map((name) => ({ name }))

type ScopeValue = Extract<Signals['page'], { ok: true }>['value']

function scope(ua: string, o: Partial<ScopeValue> = {}): ScopeValue {
  return {
    userAgent: ua,
    platform: 'Win32',
    languages: ['en-GB', 'en'],
    hardwareConcurrency: 8,
    deviceMemory: 8,
    webdriver: false,
    timeZone: 'Europe/London',
    uaPlatform: 'Windows',
    uaBrands: 'Google Chrome/131, Chromium/131, Not_A Brand/24',
    ...o,
  }
}

/** A person's headful Chrome 131 on Windows with a GPU, as our page reports it. */
function humanChrome(): Signals {
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
  }
}

/** No input devices, as headless Chromium reports them (Playwright fakes a mouse). */
const NO_POINTER = { pointer: 'none', anyPointer: ['none'], hover: 'none', anyHover: ['none'] }
const SWIFTSHADER = { vendor: 'WebKit', renderer: 'WebKit WebGL', unmaskedVendor: 'Google Inc. (Google)', unmaskedRenderer: 'ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero) (0x0000C0DE)), SwiftShader driver)' }
const LINUX_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36'
const CHROMIUM_156 = [
  { brand: 'Not:A-Brand', version: '8' },
  { brand: 'Chromium', version: '156' },
]
const CHROMIUM_HINTS = { 'sec-ch-ua': '"Not:A-Brand";v="8", "Chromium";v="156"', 'sec-ch-ua-mobile': '?0', 'sec-ch-ua-platform': '"Linux"' }

/**
 * Debian's Chromium 156 on Linux with a Chrome user agent, as this page recorded it in the
 * detection matrix: `person` is the headful browser on Xvfb (no GPU, no window manager or
 * taskbar, UTC); the tests below turn it into the automated clients.
 */
function linuxChromium(): Signals {
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

function chromeServer(ua = CHROME_UA, hints: Record<string, string> = { 'sec-ch-ua': '"Google Chrome";v="131", "Chromium";v="131", "Not_A Brand";v="24"', 'sec-ch-ua-mobile': '?0', 'sec-ch-ua-platform': '"Windows"' }): ServerObservation {
  return { ip: '203.0.113.7', userAgent: ua, headers: [['host', 'example.test'], ['user-agent', ua], ...Object.entries(hints)], receivedAt: Date.UTC(2025, 0, 1) }
}

/** Playwright 1.x driving Debian's Chromium 156 headless, as recorded from this page. */
function playwrightHeadless(): { signals: Signals; server: ServerObservation } {
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

function judge(s: Signals, server: ServerObservation = chromeServer()) {
  const j = botDetector.judge(s, server)
  const byId = (id: string): Check => {
    const c = j.checks.find((x) => x.id === id)
    if (!c) throw new Error(`no check ${id}`)
    return c
  }
  const stored = assembleResults('bot-detector', { signals: s }, server)
  if (!stored.ok) throw new Error(stored.error)
  return { ...j, sections: j.sections as Record<string, any>, byId, score: stored.score, stored: stored.results }
}

const failing = (checks: Check[]) => checks.filter((c) => c.verdict === 'fail').map((c) => c.id)

const signalsCheck = TypeCompiler.Compile(BotDetectorSignals)

describe('bot-detector judge', () => {
  test('the fixtures are valid signals', () => {
    expect(signalsCheck.Check(humanChrome())).toBe(true)
    expect(signalsCheck.Check(playwrightHeadless().signals)).toBe(true)
  })

  test('a person’s headful Chrome passes every check: score 100, verdict human, no frameworks', () => {
    const r = judge(humanChrome())
    expect(failing(r.checks)).toEqual([])
    expect(r.checks.filter((c) => c.verdict === 'warn').map((c) => c.id)).toEqual([])
    expect(r.score).toBe(100)
    expect(r.sections.verdict).toBe('human')
    expect(r.sections.frameworks).toEqual([])
    expect(r.sections.leaks).toEqual({ webdriver: false, selenium: false, phantomjs: false })
    expect(r.sections.scoring).toEqual({ webdriver: 'pass', selenium: 'pass', phantomjs: 'pass' })
  })

  test('the stored results carry the spec sections and validate against the published schema', () => {
    const r = judge(humanChrome())
    expect(r.stored.navigator).toEqual({ userAgent: CHROME_UA, platform: 'Win32', language: 'en-GB' })
    expect(r.stored.screen).toEqual({ width: 1920, height: 1080, colorDepth: 24 })
    expect(r.stored.webgl).toEqual({ vendor: 'Google Inc. (NVIDIA)', renderer: 'ANGLE (NVIDIA, NVIDIA GeForce RTX 3060 (0x00002504) Direct3D11 vs_5_0 ps_5_0, D3D11)' })
    expect(r.stored.canvas).toEqual({ hash: '0123456789abcdef' })
    const errors = [...Value.Errors(resultsSchema('bot-detector'), r.stored)].map((e) => `${e.path}: ${e.message}`)
    expect(errors).toEqual([])
  })

  test('Playwright headless Chromium is a bot: score 0, headless, cdp, webdriver and playwright named', () => {
    const { signals, server } = playwrightHeadless()
    const r = judge(signals, server)
    expect(r.sections.verdict).toBe('bot')
    expect(r.score).toBeLessThanOrEqual(40)
    expect(r.score).toBe(0)
    expect(r.sections.frameworks).toEqual(expect.arrayContaining(['headless', 'cdp', 'webdriver', 'playwright']))
    expect(failing(r.checks)).toEqual(expect.arrayContaining(['webdriver-flag', 'cdp-runtime', 'stack-sourceurl', 'headless-ua', 'headless-worker-ua', 'headless-ua-header']))
    expect(r.byId('webgl-renderer').verdict).toBe('warn')
    expect(r.byId('window-chrome').verdict).toBe('warn')
    expect(r.byId('default-viewport').verdict).toBe('warn')
    expect(r.sections.leaks.webdriver).toBe(true)
    expect(r.sections.scoring.webdriver).toBe('fail')
    const errors = [...Value.Errors(resultsSchema('bot-detector'), r.stored)].map((e) => `${e.path}: ${e.message}`)
    expect(errors).toEqual([])
  })

  test('headless with only its flags hidden still fails on the worker, CDP and header', () => {
    const { signals, server } = playwrightHeadless()
    const nav = signals.navigator.ok ? signals.navigator.value : null
    signals.webdriver = ok({ value: false, present: true, ownProperties: [], proto: 'getter' as const, getterNative: true })
    signals.navigator = ok({ ...nav!, userAgent: CHROME_UA, appVersion: CHROME_UA.slice(8) })
    signals.stack = ok({ hooked: 10, calls: 1, frames: [] })
    const r = judge(signals, server)
    expect(r.byId('webdriver-flag').verdict).toBe('fail') // still true in the iframe
    expect(r.byId('headless-worker-ua').verdict).toBe('fail')
    expect(r.byId('ua-header-vs-navigator').verdict).toBe('fail')
    expect(r.byId('ua-consistency').verdict).toBe('fail') // Windows UA, Linux platform
    expect(r.sections.verdict).toBe('bot')
  })

  test('a stealth-patched browser is flagged from its lies, even with every marker hidden', () => {
    const s = humanChrome()
    s.webdriver = ok({ value: false, present: true, ownProperties: [], proto: 'getter' as const, getterNative: false })
    s.lies = ok({ tested: 50, lies: [{ api: 'Navigator.webdriver', tests: ['toString', 'illegal'] }, { api: 'Function.toString', tests: ['proxy'] }] })
    s.chrome = ok({ present: true, keys: ['app', 'runtime', 'loadTimes', 'csi'], runtime: true, functions: { loadTimes: { native: true, constructible: true }, csi: { native: true, constructible: true }, 'runtime.sendMessage': { native: true, constructible: true } } })
    s.iframeProxy = ok({ sameAsFrames: false, selfIsWindow: false, getterNative: false, chrome: 'object' })
    s.cdp = ok({ prepareStackTrace: true, stackGetter: false })
    const r = judge(s)
    expect(failing(r.checks)).toEqual(expect.arrayContaining(['webdriver-descriptor', 'stealth-lies', 'chrome-object', 'iframe-proxy', 'cdp-runtime']))
    expect(r.sections.frameworks).toEqual(expect.arrayContaining(['stealth', 'cdp']))
    expect(r.sections.scoring.webdriver).toBe('warn')
    expect(r.sections.leaks.webdriver).toBe(false)
    expect(r.score).toBeLessThanOrEqual(40)
    expect(r.sections.verdict).toBe('bot')
  })

  test('webdriver deleted from Navigator.prototype fails on V8 but not on an unknown engine', () => {
    const s = humanChrome()
    s.webdriver = ok({ value: null, present: false, ownProperties: [], proto: 'missing' as const, getterNative: null })
    expect(judge(s).byId('webdriver-descriptor').verdict).toBe('fail')
    s.engine = ok({ evalLength: 33, nullError: 'odd', rangeError: 'odd' })
    expect(judge(s).byId('webdriver-descriptor').verdict).toBe('pass')
  })

  test('an own webdriver property on navigator is a lie on an automation API', () => {
    const s = humanChrome()
    s.webdriver = ok({ value: false, present: true, ownProperties: ['webdriver'], proto: 'getter' as const, getterNative: true })
    const r = judge(s)
    expect(r.byId('webdriver-descriptor').verdict).toBe('fail')
    expect(r.byId('stealth-lies').observed).toEqual(['Navigator.webdriver: own-property'])
  })

  test('chromedriver globals are Selenium: leaks.selenium true, scoring fail, verdict bot', () => {
    const s = humanChrome()
    s.globals = ok({ window: ['cdc_adoQpoasnfa76pfcZLmcfl_Array', 'cdc_adoQpoasnfa76pfcZLmcfl_Promise'], document: ['$cdc_asdjflasutopfhvcZLmcfl_'], attributes: [] })
    s.webdriver = ok({ value: true, present: true, ownProperties: [], proto: 'getter' as const, getterNative: true })
    const r = judge(s)
    expect(r.byId('selenium-globals').verdict).toBe('fail')
    expect(r.byId('selenium-globals').observed).toEqual(['window.cdc_adoQpoasnfa76pfcZLmcfl_Array', 'window.cdc_adoQpoasnfa76pfcZLmcfl_Promise', 'document.$cdc_asdjflasutopfhvcZLmcfl_'])
    expect(r.sections.leaks).toEqual({ webdriver: true, selenium: true, phantomjs: false })
    expect(r.sections.scoring).toEqual({ webdriver: 'fail', selenium: 'fail', phantomjs: 'pass' })
    expect(r.sections.frameworks).toEqual(expect.arrayContaining(['selenium', 'webdriver']))
    expect(r.sections.verdict).toBe('bot')
  })

  test('undetected-chromedriver’s renamed cdc_ prefix and driver attributes are still Selenium', () => {
    const s = humanChrome()
    s.globals = ok({ window: ['abc_adoQpoasnfa76pfcZLmcfl_Symbol'], document: [], attributes: ['webdriver'] })
    const r = judge(s)
    expect(r.byId('selenium-globals').observed).toEqual(['window.abc_adoQpoasnfa76pfcZLmcfl_Symbol', '<html webdriver>'])
    expect(r.sections.verdict).toBe('bot')
  })

  test('PhantomJS globals fail the phantomjs check and its scoring entry', () => {
    const s = humanChrome()
    s.globals = ok({ window: ['callPhantom', '_phantom'], document: [], attributes: [] })
    const r = judge(s)
    expect(r.sections.leaks.phantomjs).toBe(true)
    expect(r.sections.scoring.phantomjs).toBe('fail')
    expect(r.sections.frameworks).toContain('phantomjs')
  })

  test('Playwright bindings and Puppeteer sourceURLs name their framework', () => {
    const s = humanChrome()
    s.globals = ok({ window: ['__playwright__binding__', '__playwright__binding__controller__'], document: [], attributes: [] })
    s.stack = ok({ hooked: 10, calls: 2, frames: ['at pptr:evaluate;file:///x.js:3:9 (pptr:evaluate;file:///x.js:3:9:1:15)'] })
    const r = judge(s)
    expect(r.byId('playwright-globals').verdict).toBe('fail')
    expect(r.byId('stack-sourceurl').verdict).toBe('fail')
    expect(r.sections.frameworks).toEqual(expect.arrayContaining(['playwright', 'puppeteer']))
  })

  test('anonymous evaluated frames only warn (code typed into DevTools looks the same)', () => {
    const s = humanChrome()
    s.stack = ok({ hooked: 10, calls: 2, frames: ['at <anonymous>:1:10'] })
    const r = judge(s)
    expect(r.byId('stack-sourceurl').verdict).toBe('warn')
    expect(r.sections.verdict).toBe('human')
  })

  test('a person with DevTools open is suspicious, not a bot', () => {
    const s = humanChrome()
    s.cdp = ok({ prepareStackTrace: true, stackGetter: false })
    const r = judge(s)
    expect(r.score).toBe(70)
    expect(r.sections.verdict).toBe('suspicious')
    expect(r.sections.frameworks).toEqual(['cdp'])
  })

  test('a person in a VM (software GL) with a full-screen window stays human', () => {
    const s = humanChrome()
    s.webgl = ok({ vendor: 'WebKit', renderer: 'WebKit WebGL', unmaskedVendor: 'Google Inc. (Google)', unmaskedRenderer: 'ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero)), SwiftShader driver)' })
    s.window = ok({ innerWidth: 1920, innerHeight: 1080, outerWidth: 1920, outerHeight: 1080 })
    const r = judge(s)
    expect(failing(r.checks)).toEqual([])
    expect(r.score).toBe(82)
    expect(r.sections.verdict).toBe('human')
    expect(r.sections.frameworks).toEqual([])
  })

  test('a person on a virtual display in a VM (SwiftShader, no taskbar, UTC, launched as root) is human with 90 or more', () => {
    const r = judge(linuxChromium(), chromeServer(LINUX_UA, CHROMIUM_HINTS))
    expect(failing(r.checks)).toEqual([])
    expect(r.checks.filter((c) => c.verdict === 'warn').map((c) => c.id)).toEqual(['webgl-renderer'])
    expect(r.score).toBeGreaterThanOrEqual(90)
    expect(r.sections.verdict).toBe('human')
    expect(r.sections.frameworks).toEqual([])
  })

  test('chromium --headless --dump-dom under a Chrome user agent: never drawn, no pointer, 800×600 screen — a bot', () => {
    const s = linuxChromium()
    // Measured: frames while the page loaded, then about one per second of virtual time.
    s.frames = ok({ frames: 4, ticks: 50, waitedMs: 2500, firstFrameMs: 20, steadyAtMs: null, maxTicksWithoutFrame: 20, visible: true })
    s.pointer = ok(NO_POINTER)
    s.screen = ok({ width: 800, height: 600, availWidth: 800, availHeight: 600, colorDepth: 24 })
    s.window = ok({ innerWidth: 780, innerHeight: 437, outerWidth: 780, outerHeight: 580 })
    const r = judge(s, chromeServer(LINUX_UA, CHROMIUM_HINTS))
    expect(failing(r.checks)).toEqual(['pointing-device', 'headless-screen', 'animation-frames'])
    expect(r.score).toBeLessThanOrEqual(40)
    expect(r.sections.verdict).toBe('bot')
    expect(r.sections.frameworks).toEqual(['headless'])
  })

  test('chromium --headless --dump-dom under a Chrome user agent, drawn while loading: still a bot from its virtual display', () => {
    const s = linuxChromium()
    s.pointer = ok(NO_POINTER)
    s.screen = ok({ width: 800, height: 600, availWidth: 800, availHeight: 600, colorDepth: 24 })
    s.window = ok({ innerWidth: 780, innerHeight: 437, outerWidth: 780, outerHeight: 580 })
    const r = judge(s, chromeServer(LINUX_UA, CHROMIUM_HINTS))
    expect(failing(r.checks)).toEqual(['pointing-device', 'headless-screen'])
    expect(r.score).toBeLessThanOrEqual(40)
    expect(r.sections.verdict).toBe('bot')
  })

  test('an 800×600 screen with a mouse (a VM without display drivers) only warns', () => {
    const s = linuxChromium()
    s.screen = ok({ width: 800, height: 600, availWidth: 800, availHeight: 600, colorDepth: 24 })
    s.window = ok({ innerWidth: 800, innerHeight: 513, outerWidth: 800, outerHeight: 600 })
    const r = judge(s, chromeServer(LINUX_UA, CHROMIUM_HINTS))
    expect(r.byId('headless-screen').verdict).toBe('pass')
    expect(r.byId('default-viewport').verdict).toBe('warn')
    expect(failing(r.checks)).toEqual([])
    expect(r.sections.verdict).toBe('human')
  })

  test('frames: a page never drawn steadily fails only when visible, with free timers and no pointing device', () => {
    const s = linuxChromium()
    const undrawn = { frames: 4, ticks: 50, waitedMs: 2500, firstFrameMs: 20, steadyAtMs: null, maxTicksWithoutFrame: 20, visible: true }
    const verdict = () => judge(s, chromeServer(LINUX_UA, CHROMIUM_HINTS)).byId('animation-frames').verdict
    s.pointer = ok(NO_POINTER)
    s.frames = ok(undrawn)
    expect(verdict()).toBe('fail')
    s.frames = ok({ ...undrawn, visible: false })
    expect(verdict()).toBe('na')
    // A main thread too busy to run its timers proves nothing.
    s.frames = ok({ ...undrawn, frames: 0, firstFrameMs: null, ticks: 3 })
    expect(verdict()).toBe('na')
    // A person's browser started with the page: a lone early frame, then the window opening.
    s.frames = ok({ frames: 14, ticks: 30, waitedMs: 1660, firstFrameMs: 120, steadyAtMs: 1660, maxTicksWithoutFrame: 28, visible: true })
    expect(verdict()).toBe('pass')
    // Not drawn but with a mouse: a window still opening on a slow machine looks the same.
    s.pointer = ok({ pointer: 'fine', anyPointer: ['fine'], hover: 'hover', anyHover: ['hover'] })
    s.frames = ok(undrawn)
    expect(verdict()).toBe('na')
    s.frames = missing()
    expect(verdict()).toBe('na')
  })

  test('pointing device: none fails on a desktop, not on phones, TVs or browsers without the media features', () => {
    const s = linuxChromium()
    s.pointer = ok(NO_POINTER)
    const alone = judge(s, chromeServer(LINUX_UA, CHROMIUM_HINTS))
    expect(alone.byId('pointing-device').verdict).toBe('fail')
    expect(alone.sections.verdict).toBe('suspicious')
    s.pointer = ok({ pointer: 'coarse', anyPointer: ['coarse'], hover: 'none', anyHover: ['none'] })
    expect(judge(s).byId('pointing-device').verdict).toBe('pass')
    s.pointer = ok({ pointer: null, anyPointer: [], hover: null, anyHover: [] })
    expect(judge(s).byId('pointing-device').verdict).toBe('pass')
    const tv = 'Mozilla/5.0 (Linux; Tizen 6.5) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/4.0 Chrome/85.0.4183.93 TV Safari/537.36'
    s.pointer = ok(NO_POINTER)
    const nav = s.navigator.ok ? s.navigator.value : null
    s.navigator = ok({ ...nav!, userAgent: tv, appVersion: tv.slice(8) })
    expect(judge(s).byId('pointing-device').verdict).toBe('na')
  })

  test('history floods: a lifted cap (Playwright and Puppeteer launch flags) fails; Firefox and Safari throwing pass', () => {
    const s = humanChrome()
    s.navRate = ok({ calls: 400, accepted: 100, lastApplied: 100, error: 'SecurityError: Attempt to use history.replaceState() more than 100 times per 30 seconds' })
    expect(judge(s).byId('navigation-rate-limit').verdict).toBe('pass')
    s.navRate = ok({ calls: 400, accepted: 400, lastApplied: 400, error: null })
    const r = judge(s)
    expect(r.byId('navigation-rate-limit').verdict).toBe('fail')
    expect(r.sections.frameworks).toEqual(['automation-flags'])
    expect(r.sections.verdict).toBe('suspicious')
    s.navRate = ok({ calls: 50, accepted: 50, lastApplied: 50, error: null })
    expect(judge(s).byId('navigation-rate-limit').verdict).toBe('na')
  })

  test('headful Puppeteer or Playwright without --enable-automation (webdriver false) is a bot from CDP and its launch flags', () => {
    const s = linuxChromium()
    s.cdp = ok({ prepareStackTrace: true, stackGetter: false })
    s.navRate = ok({ calls: 400, accepted: 400, lastApplied: 400, error: null })
    const r = judge(s, chromeServer(LINUX_UA, CHROMIUM_HINTS))
    expect(failing(r.checks)).toEqual(['cdp-runtime', 'navigation-rate-limit'])
    expect(r.score).toBeLessThanOrEqual(40)
    expect(r.sections.verdict).toBe('bot')
    expect(r.sections.frameworks).toEqual(['cdp', 'automation-flags'])
  })

  test('a canvas-noise extension stays human, and its noisy canvas is reported as farbled', () => {
    const s = humanChrome()
    s.canvas = ok({ hash: 'aaaa', stable: false, knownWrong: 3, knownFlat: false })
    s.lies = ok({ tested: 50, lies: [{ api: 'HTMLCanvasElement.toDataURL', tests: ['toString'] }] })
    const r = judge(s)
    expect(failing(r.checks)).toEqual([])
    expect(r.score).toBe(88)
    expect(r.sections.verdict).toBe('human')
    expect(r.sections.canvas.hash).toBe('farbled')
  })

  test('Firefox without client hints, window.chrome or userAgentData passes', () => {
    const s = humanChrome()
    const sc = scope(FIREFOX_UA, { uaPlatform: null, uaBrands: null, deviceMemory: null })
    s.navigator = ok({ userAgent: FIREFOX_UA, appVersion: '5.0 (Windows)', platform: 'Win32', language: 'en-GB', languages: ['en-GB', 'en'], vendor: '', secureContext: true, uaData: null })
    s.page = ok(sc)
    s.iframe = ok(sc)
    s.worker = ok({ ...sc, webdriver: null })
    s.engine = ok(SPIDERMONKEY)
    s.chrome = ok({ present: false, keys: [], runtime: false, functions: {} })
    s.webgl = ok({ vendor: 'Mozilla', renderer: 'NVIDIA GeForce GTX 980, or similar', unmaskedVendor: 'NVIDIA Corporation', unmaskedRenderer: 'NVIDIA GeForce GTX 980, or similar' })
    const r = judge(s, chromeServer(FIREFOX_UA, {}))
    expect(failing(r.checks)).toEqual([])
    expect(r.byId('sec-ch-ua-vs-navigator').verdict).toBe('na')
    expect(r.byId('ua-vs-client-hints').verdict).toBe('na')
    expect(r.byId('eval-tostring').expected).toContain('37')
    expect(r.byId('cdp-runtime').verdict).toBe('na')
    expect(r.score).toBe(100)
    expect(r.sections.verdict).toBe('human')
  })

  test('Safari on JavaScriptCore with eval length 37 passes', () => {
    const s = humanChrome()
    const sc = scope(SAFARI_UA, { platform: 'MacIntel', uaPlatform: null, uaBrands: null, deviceMemory: null })
    s.navigator = ok({ userAgent: SAFARI_UA, appVersion: SAFARI_UA.slice(8), platform: 'MacIntel', language: 'en-GB', languages: ['en-GB'], vendor: 'Apple Computer, Inc.', secureContext: true, uaData: null })
    s.page = ok(sc)
    s.iframe = ok(sc)
    s.worker = ok({ ...sc, webdriver: null })
    s.engine = ok(JSC)
    s.chrome = ok({ present: false, keys: [], runtime: false, functions: {} })
    const r = judge(s, chromeServer(SAFARI_UA, {}))
    expect(failing(r.checks)).toEqual([])
    expect(r.sections.verdict).toBe('human')
  })

  test('a Chrome user agent on SpiderMonkey is a spoofed user agent', () => {
    const s = humanChrome()
    s.engine = ok(SPIDERMONKEY)
    const r = judge(s)
    expect(r.byId('engine-vs-ua').verdict).toBe('fail')
    expect(r.byId('eval-tostring').verdict).toBe('pass') // 37 fits the engine that actually runs
  })

  test('an eval length that fits no engine means toString was patched', () => {
    const s = humanChrome()
    s.engine = ok({ ...V8, evalLength: 45 })
    expect(judge(s).byId('eval-tostring').verdict).toBe('fail')
  })

  test('Notification denied while permissions.query says prompt fails', () => {
    const s = humanChrome()
    s.notification = ok({ notification: 'denied', query: 'prompt', queryError: null })
    expect(judge(s).byId('notification-permission').verdict).toBe('fail')
    s.notification = ok({ notification: 'denied', query: 'denied', queryError: null })
    expect(judge(s).byId('notification-permission').verdict).toBe('pass')
  })

  test('plugins: fake arrays fail, none with a PDF viewer fails, none on a desktop warns, none on mobile passes', () => {
    const s = humanChrome()
    s.plugins = ok({ plugins: PDF_PLUGINS, mimeTypes: 2, pdfViewerEnabled: true, nativePrototypes: false })
    expect(judge(s).byId('plugins').verdict).toBe('fail')
    s.plugins = ok({ plugins: [], mimeTypes: 0, pdfViewerEnabled: true, nativePrototypes: true })
    expect(judge(s).byId('plugins').verdict).toBe('fail')
    s.plugins = ok({ plugins: [], mimeTypes: 0, pdfViewerEnabled: false, nativePrototypes: true })
    expect(judge(s).byId('plugins').verdict).toBe('warn')
    const android = 'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36'
    s.navigator = ok({ ...(s.navigator.ok ? s.navigator.value : ({} as never)), userAgent: android })
    expect(judge(s).byId('plugins').verdict).toBe('pass')
  })

  test('a window larger than the screen fails (headless keeps an 800×600 screen); maximised borders do not', () => {
    const s = humanChrome()
    s.screen = ok({ width: 800, height: 600, availWidth: 800, availHeight: 600, colorDepth: 24 })
    s.window = ok({ innerWidth: 1400, innerHeight: 813, outerWidth: 1400, outerHeight: 900 })
    expect(judge(s).byId('window-fits-screen').verdict).toBe('fail')
    s.screen = ok({ width: 1920, height: 1080, availWidth: 1920, availHeight: 1040, colorDepth: 24 })
    s.window = ok({ innerWidth: 1920, innerHeight: 945, outerWidth: 1936, outerHeight: 1056 })
    expect(judge(s).byId('window-fits-screen').verdict).toBe('pass')
  })

  test('old headless without window.chrome on V8 fails', () => {
    const s = humanChrome()
    s.chrome = ok({ present: false, keys: [], runtime: false, functions: {} })
    expect(judge(s).byId('chrome-object').verdict).toBe('fail')
  })

  test('a worker or iframe that disagrees with the page fails its consistency check', () => {
    const s = humanChrome()
    s.worker = ok(scope(HEADLESS_UA, { webdriver: null, hardwareConcurrency: 2 }))
    s.iframe = ok(scope(CHROME_UA, { webdriver: true, timeZone: 'UTC' }))
    const r = judge(s)
    expect(r.byId('worker-consistency').verdict).toBe('fail')
    expect(r.byId('iframe-consistency').observed).toEqual(['webdriver: false ≠ true', 'timeZone: "Europe/London" ≠ "UTC"'])
    expect(r.sections.leaks.webdriver).toBe(true)
  })

  test('server side: a User-Agent header other than navigator.userAgent, or hints that disagree, fail', () => {
    const s = humanChrome()
    const r = judge(s, chromeServer(CHROME_UA.replace('131', '120')))
    expect(r.byId('ua-header-vs-navigator').verdict).toBe('fail')
    expect(r.byId('ua-vs-client-hints').verdict).toBe('fail') // UA 120, brands 131
    const r2 = judge(s, chromeServer(CHROME_UA, { 'sec-ch-ua': '"Chromium";v="131"', 'sec-ch-ua-platform': '"Linux"', 'sec-ch-ua-mobile': '?0' }))
    expect(r2.byId('sec-ch-ua-vs-navigator').verdict).toBe('fail')
    expect(r2.byId('ua-vs-client-hints').verdict).toBe('fail')
  })

  test('server side: Chrome on a secure page without Sec-CH-UA warns; HeadlessChrome in Sec-CH-UA fails', () => {
    const s = humanChrome()
    const r = judge(s, chromeServer(CHROME_UA, {}))
    expect(r.byId('sec-ch-ua-vs-navigator').verdict).toBe('warn')
    expect(r.byId('ua-vs-client-hints').verdict).toBe('warn')
    const r2 = judge(s, chromeServer(CHROME_UA, { 'sec-ch-ua': '"HeadlessChrome";v="131", "Chromium";v="131"' }))
    expect(r2.byId('headless-ua-header').verdict).toBe('fail')
    expect(r2.sections.frameworks).toContain('headless')
  })

  test('TLS and HTTP/2 checks are na without the TLS listener, and say so', () => {
    const r = judge(humanChrome())
    for (const id of ['tls-fingerprint', 'http2-fingerprint']) {
      expect(r.byId(id).verdict).toBe('na')
      expect(r.byId(id).expected).toContain('TLS_PORT')
    }
    expect(r.byId('datacenter-ip').verdict).toBe('na')
  })

  test("TLS and HTTP/2 evidence from the listener is compared with the User-Agent header's claim", () => {
    const ua = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36'
    const fingerprint = (tls: Record<string, unknown>, akamai: string) =>
      botDetector.judge(humanChrome(), { ip: '81.2.69.23', userAgent: ua, headers: [['user-agent', ua]], receivedAt: 0, evidence: [
        { kind: 'tls', data: { ja3n_hash: 'x', ciphers: [], extensions: [], alpn: ['h2'], ...tls }, observedAt: 'x' },
        { kind: 'http2', data: { akamai, pseudo_header_order: [] }, observedAt: 'x' },
      ] }).checks
    const chrome = fingerprint({ ja4: 't13d1516h2_8daaf6152771_d8a2da3f94cd', grease: true, alps: 17613, record_size_limit: null }, '1:65536;2:0;4:6291456;6:262144|15663105|0|m,a,s,p')
    expect(chrome.find((c) => c.id === 'tls-fingerprint')!.verdict).toBe('pass')
    expect(chrome.find((c) => c.id === 'http2-fingerprint')!.verdict).toBe('pass')
    const curl = fingerprint({ ja4: 't13d3112h2_e8f1e7e78f70_b26ce05bbdd6', grease: false, alps: null, record_size_limit: null }, '3:100;4:33554432;2:0|33488897|0|m,p,s,a')
    expect(curl.find((c) => c.id === 'tls-fingerprint')!.verdict).toBe('fail')
    expect(curl.find((c) => c.id === 'http2-fingerprint')!.verdict).toBe('fail')
  })

  test("a trusted proxy's fingerprint headers are judged from what they show", () => {
    const ua = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36'
    const viaProxy = (headers: Record<string, string>) => {
      const evidence = proxyFingerprintEvidence({ ja4: 'x-ja4', ja3_hash: 'x-ja3-hash', akamai: 'x-http2-fingerprint' }, new Headers(headers)).map((i) => ({ ...i, observedAt: 'x' }))
      const checks = botDetector.judge(humanChrome(), { ip: '81.2.69.23', userAgent: ua, headers: [['user-agent', ua]], receivedAt: 0, evidence }).checks
      return (id: string) => checks.find((c) => c.id === id)!
    }
    const chrome = viaProxy({ 'x-ja4': 't13d1516h2_8daaf6152771_02713d6af862', 'x-http2-fingerprint': '1:65536;2:0;4:6291456;6:262144|15663105|0|m,a,s,p' })
    expect(chrome('tls-fingerprint').verdict).toBe('pass')
    expect(chrome('tls-fingerprint').observed).toBe("t13d1516h2_8daaf6152771_02713d6af862: Chromium (BoringSSL) (from a trusted proxy's headers)")
    expect(chrome('http2-fingerprint').verdict).toBe('pass')
    const curl = viaProxy({ 'x-ja4': 't13d3112h2_e8f1e7e78f70_b26ce05bbdd6' })
    expect(curl('tls-fingerprint').verdict).toBe('fail')
    expect(curl('http2-fingerprint').verdict).toBe('na')
    const hashOnly = viaProxy({ 'x-ja3-hash': '0149f47eabf9a20d0893e2a44e5a6323' })
    expect(hashOnly('tls-fingerprint').verdict).toBe('na')
    expect(hashOnly('tls-fingerprint').observed).toContain('a hash alone names no TLS stack')
  })

  test("header order off the wire: Chromium's own passes, Playwright's injected Accept-Language fails, none is na", () => {
    const ua = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
    const order = (names: string[] | null) =>
      botDetector.judge(humanChrome(), { ip: '81.2.69.23', userAgent: ua, headers: [['user-agent', ua]], receivedAt: 0, evidence: names ? [{ kind: 'http2', data: { header_order: names }, observedAt: 'x' }] : [] }).checks.find((c) => c.id === 'header-order-wire')!
    // Both captured from Chromium 156 fetching the TLS listener (tests/tls-fingerprint.e2e.ts).
    const own = ['pragma', 'cache-control', 'sec-ch-ua-platform', 'user-agent', 'sec-ch-ua', 'sec-ch-ua-mobile', 'accept', 'origin', 'sec-fetch-site', 'sec-fetch-mode', 'sec-fetch-dest', 'referer', 'accept-encoding', 'accept-language', 'priority']
    const driven = ['pragma', 'cache-control', 'sec-ch-ua-platform', 'user-agent', 'sec-ch-ua', 'accept-language', 'sec-ch-ua-mobile', 'accept', 'origin', 'sec-fetch-site', 'sec-fetch-mode', 'sec-fetch-dest', 'referer', 'accept-encoding', 'priority']
    expect(order(own).verdict).toBe('pass')
    expect(order(driven)).toMatchObject({ verdict: 'fail', observed: { broken: ['accept-encoding after accept-language'] } })
    expect(order(null).verdict).toBe('na')
    expect(order(null).expected).toContain('TLS_PORT')
  })

  test('missing signals make their checks na, and a page whose core probes all failed is not human', () => {
    const s = humanChrome()
    for (const k of Object.keys(s) as Array<keyof Signals>) (s as Record<string, unknown>)[k] = missing()
    const r = judge(s)
    expect(r.byId('webdriver-flag').verdict).toBe('na')
    expect(r.byId('webdriver-flag').expected).toBe('timeout: no answer within 3000 ms')
    expect(r.byId('probe-integrity').verdict).toBe('fail')
    expect(r.sections.verdict).not.toBe('human')
    expect(r.sections.navigator).toEqual({ userAgent: CHROME_UA, platform: '', language: '' })
    expect(r.sections.screen).toEqual({ width: 0, height: 0, colorDepth: 0 })
    expect(r.sections.canvas).toEqual({ hash: '' })
    const errors = [...Value.Errors(resultsSchema('bot-detector'), r.stored)].map((e) => `${e.path}: ${e.message}`)
    expect(errors).toEqual([])
  })

  test('one core probe timing out only warns', () => {
    const s = humanChrome()
    s.lies = missing()
    const r = judge(s)
    expect(r.byId('probe-integrity').verdict).toBe('warn')
    expect(r.sections.verdict).toBe('human')
  })

  test('a blocked WebGL or canvas leaves empty spec strings, not an error', () => {
    const s = humanChrome()
    s.webgl = missing('unsupported', 'no webgl context')
    s.canvas = missing('blocked', 'canvas could not be read')
    const r = judge(s)
    expect(r.sections.webgl).toEqual({ vendor: '', renderer: '' })
    expect(r.sections.canvas).toEqual({ hash: '' })
    expect(r.byId('webgl-renderer').verdict).toBe('na')
  })
})

describe('bot-detector evidence classifiers', () => {
  test('globals map to their framework', () => {
    expect(frameworkOfGlobal('__pwInitScripts')).toBe('playwright')
    expect(frameworkOfGlobal('__playwright__binding__')).toBe('playwright')
    expect(frameworkOfGlobal('$cdc_asdjflasutopfhvcZLmcfl_')).toBe('selenium')
    expect(frameworkOfGlobal('__webdriver_evaluate')).toBe('selenium')
    expect(frameworkOfGlobal('__fxdriver_unwrapped')).toBe('selenium')
    expect(frameworkOfGlobal('_phantom')).toBe('phantomjs')
    expect(frameworkOfGlobal('__nightmare')).toBe('nightmare')
    expect(frameworkOfGlobal('Cypress')).toBe('cypress')
    expect(frameworkOfGlobal('__out')).toBeNull()
    expect(frameworkOfGlobal('phantomTheme')).toBeNull()
    expect(frameworkOfGlobal('__pwaInstallPrompt')).toBeNull()
  })

  test('stack frames map to their framework', () => {
    expect(frameworkOfFrame('at pptr:evaluate;x:1:2')).toBe('puppeteer')
    expect(frameworkOfFrame('at __puppeteer_evaluation_script__:3:10')).toBe('puppeteer')
    expect(frameworkOfFrame('at UtilityScript.evaluate (<anonymous>:372:16)')).toBe('playwright')
    expect(frameworkOfFrame('at predicate (eval at evaluate (:370:30), <anonymous>:7:27)')).toBe('playwright')
    expect(frameworkOfFrame('at <anonymous>:1:1')).toBe('unknown-eval')
    expect(frameworkOfFrame('at chrome-extension://abc/content.js:4:2')).toBeNull()
  })

  test('automation APIs are told apart from fingerprinting APIs', () => {
    expect(isAutomationApi('Navigator.webdriver')).toBe(true)
    expect(isAutomationApi('Function.toString')).toBe(true)
    expect(isAutomationApi('window.outerHeight')).toBe(true)
    expect(isAutomationApi('Navigator.userAgent')).toBe(false)
    expect(isAutomationApi('HTMLCanvasElement.toDataURL')).toBe(false)
    expect(isAutomationApi('console.debug')).toBe(false)
  })

  test('the JavaScript engine is read from error messages, and disagreement gives unknown', () => {
    expect(jsEngineOf(V8)).toBe('blink')
    expect(jsEngineOf(SPIDERMONKEY)).toBe('gecko')
    expect(jsEngineOf(JSC)).toBe('webkit')
    expect(jsEngineOf({ nullError: V8.nullError, rangeError: JSC.rangeError })).toBe('unknown')
    expect(jsEngineOf({ nullError: '', rangeError: SPIDERMONKEY.rangeError })).toBe('gecko')
  })

  test('scope mismatches ignore fields one side lacks', () => {
    const a = scope(CHROME_UA)
    expect(scopeMismatches(a, { ...a, webdriver: null, deviceMemory: null })).toEqual([])
    expect(scopeMismatches(a, { ...a, platform: 'Linux x86_64' })).toEqual(['platform: "Win32" ≠ "Linux x86_64"'])
  })

  test('verdict bands: a decisive failure is a bot whatever the score', () => {
    const c = (id: string, verdict: Check['verdict']): Check => ({ id, name: id, verdict, observed: null, expected: '', source: 'client', why: '', points: 0 })
    expect(verdictOf([c('webdriver-flag', 'fail')], 90)).toBe('bot')
    expect(verdictOf([c('notification-permission', 'fail')], 75)).toBe('suspicious')
    expect(verdictOf([], 40)).toBe('bot')
    expect(verdictOf([], 80)).toBe('human')
  })
})

describe('bot-detector datacenter-ip (offline IP database)', () => {
  const ctx = { lookupIp: fakeLookup({ '3.120.0.9': NETWORKS.aws, '79.200.1.1': NETWORKS.telekom, '185.65.134.1': NETWORKS.mullvad, '104.28.0.1': NETWORKS.cloudflare, '45.0.0.1': NETWORKS.smallHost }) }
  const at = (ip: string) => botDetector.judge(humanChrome(), { ...chromeServer(), ip }, ctx).checks.find((c) => c.id === 'datacenter-ip')!

  test('a cloud address fails; a home line passes', () => {
    expect(at('3.120.0.9')).toMatchObject({ verdict: 'fail', observed: 'US, AS16509 Amazon.com, Inc. (cloud: Amazon AWS)', points: 20 })
    expect(at('79.200.1.1').verdict).toBe('pass')
  })

  test('VPN exits and name-guessed hosts warn; CDN relays (WARP, iCloud Private Relay) pass', () => {
    expect(at('185.65.134.1').verdict).toBe('warn')
    expect(at('45.0.0.1').verdict).toBe('warn')
    expect(at('104.28.0.1')).toMatchObject({ verdict: 'pass', observed: 'US, AS13335 Cloudflare, Inc. (cdn: Cloudflare)' })
  })

  test('without the database the check says it is missing', () => {
    const c = botDetector.judge(humanChrome(), { ...chromeServer(), ip: '79.200.1.1' }).checks.find((x) => x.id === 'datacenter-ip')!
    expect(c.verdict).toBe('na')
    expect(c.expected).toContain('offline IP database')
  })
})
