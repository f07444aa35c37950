// Browser-fingerprint signals of an ordinary desktop Chrome, for the judge's unit tests and the
// HTTP tests that submit a fingerprint.

import type { BrowserFingerprintSignals } from '../../../common/signals/browser-fingerprint'
import type { ScopeSnapshot } from '../../../common/signals/scope'
import { runChecks, type WeightedCheck } from '../judge'
import type { Check } from '../scoring'
import { SPIDERMONKEY, V8 } from './bot-detector.fixture'
import type { ServerObservation } from './observation'
import type { JudgeContext } from '../../checks/define'

export const CHROME_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36'

export const twice = <T,>(value: T, again?: T) => ({ ok: true as const, value: again === undefined ? { value } : { value, again }, ms: 3 })
export const plain = <T,>(value: T) => ({ ok: true as const, value, ms: 3 })
export const fail = (kind: 'unsupported' | 'blocked' | 'timeout' | 'farbled' | 'error', message: string) => ({ ok: false as const, error: { kind, message }, ms: 3 })

export const PDF = ['PDF Viewer', 'Chrome PDF Viewer', 'Chromium PDF Viewer', 'Microsoft Edge PDF Viewer', 'WebKit built-in PDF'].map((name) => ({ name, filename: 'internal-pdf-viewer', mimeTypes: ['application/pdf', 'text/pdf'] }))

export function scope(ua = CHROME_UA, over: Partial<ScopeSnapshot> = {}): ScopeSnapshot {
  return {
    userAgent: ua, platform: 'Win32', languages: ['de-DE', 'de', 'en'], hardwareConcurrency: 8, deviceMemory: 8, webdriver: false,
    timeZone: 'Europe/Berlin', timezoneOffset: -120, uaPlatform: 'Windows', uaBrands: 'Chromium/124, Google Chrome/124, Not-A.Brand/99', ...over,
  }
}

export function webgl(renderer: string, vendor = 'Google Inc. (NVIDIA)') {
  return {
    vendor: 'WebKit', renderer: 'WebKit WebGL', unmaskedVendor: vendor, unmaskedRenderer: renderer,
    version: 'WebGL 1.0 (OpenGL ES 2.0 Chromium)', glsl: 'WebGL GLSL ES 1.0 (OpenGL ES GLSL ES 1.0 Chromium)',
    params: { MAX_TEXTURE_SIZE: 16384, MAX_VIEWPORT_DIMS: [32767, 32767], MAX_VERTEX_ATTRIBS: 16, MAX_TEXTURE_IMAGE_UNITS: 16, MAX_COMBINED_TEXTURE_IMAGE_UNITS: 32 },
    extensions: ['ANGLE_instanced_arrays', 'WEBGL_debug_renderer_info'], pixelsHash: '0123456789abcdef', pixelsStable: true, webgl2: true,
  }
}

/** An ordinary Chrome 124 on Windows, German, 8 cores, an NVIDIA GPU. */
export function desktopChrome(): BrowserFingerprintSignals {
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
    engine: plain(V8),
  }
}

export const FIREFOX_153_UA = 'Mozilla/5.0 (X11; Linux x86_64; rv:153.0) Gecko/20100101 Firefox/153.0'

/**
 * Firefox ESR 153 with a fresh default profile on a 2-core Linux machine in UTC (the tools
 * matrix's Firefox person, with a GPU): the values that differ from desktopChrome().
 */
export function defaultFirefox(): BrowserFingerprintSignals {
  const s = desktopChrome()
  const ff = scope(FIREFOX_153_UA, { platform: 'Linux x86_64', languages: ['en-US', 'en'], hardwareConcurrency: 2, deviceMemory: null, timeZone: 'UTC', timezoneOffset: 0, uaPlatform: null, uaBrands: null })
  return {
    ...s,
    fonts: twice(['DejaVu Sans', 'DejaVu Serif', 'DejaVu Sans Mono', 'Liberation Sans', 'Cantarell', 'Noto Sans', 'Ubuntu']),
    webgl: twice(webgl('Mesa Intel(R) UHD Graphics 620 (KBL GT2)', 'Intel')),
    screen: twice({ width: 1920, height: 1080, availWidth: 1920, availHeight: 1080, colorDepth: 24, pixelDepth: 24, orientation: 'landscape-primary', devicePixelRatio: 1 }),
    timezone: twice({ zone: 'UTC', offset: 0, intlOffset: 0, locale: 'en-US', calendar: 'gregory' }),
    languages: twice({ language: 'en-US', languages: ['en-US', 'en'] }),
    navigator: twice({ userAgent: FIREFOX_153_UA, appVersion: '5.0 (X11)', platform: 'Linux x86_64', vendor: '', productSub: '20100101', oscpu: 'Linux x86_64', cpuClass: null }),
    hardware: twice({ hardwareConcurrency: 2, deviceMemory: null }),
    vendorFlavours: twice({ flavours: [], chromeKeys: null }),
    audio: twice({ sum: 35.749972093850374, copySum: 35.749972093850374, reduction: -20.538288116455078 }),
    touch: twice({ maxTouchPoints: 0, touchEvent: false }),
    uaData: fail('unsupported', 'no navigator.userAgentData (Chromium only, on secure contexts)'),
    pageScope: plain(ff),
    iframeScope: plain(ff),
    workerScope: plain(ff),
    engine: plain(SPIDERMONKEY),
  }
}

/**
 * The same Firefox with privacy.resistFingerprinting, as it reported itself in the tools matrix:
 * the zone Atlantic/Reykjavik, 4 cores, a device pixel ratio of 2, 5 touch points without touch
 * events, and canvas and WebGL reads randomised.
 */
export function resistingFirefox(): BrowserFingerprintSignals {
  const s = defaultFirefox()
  return {
    ...s,
    screen: twice({ width: 1400, height: 900, availWidth: 1400, availHeight: 900, colorDepth: 24, pixelDepth: 24, orientation: 'landscape-primary', devicePixelRatio: 2 }),
    timezone: twice({ zone: 'Atlantic/Reykjavik', offset: 0, intlOffset: 0, locale: 'en-US', calendar: 'gregory' }),
    hardware: twice({ hardwareConcurrency: 4, deviceMemory: null }),
    touch: twice({ maxTouchPoints: 5, touchEvent: false }),
    canvas: twice({ winding: true, hash: 'aaaaaaaaaaaaaaaa' }, { winding: true, hash: 'bbbbbbbbbbbbbbbb' }),
  }
}

/** What the service saw of a request from `ua`, with extra headers. */
export function requestFrom(ua = CHROME_UA, headers: Array<[string, string]> = []): ServerObservation {
  return { ip: '203.0.113.9', userAgent: ua, headers: [['user-agent', ua], ...headers], receivedAt: 0 }
}

/** One browser-fingerprint check run alone by the runner, as a tool would run it. */
export function runOne(def: WeightedCheck<BrowserFingerprintSignals>[0], s = desktopChrome(), obs = requestFrom(), ctx: JudgeContext = {}): Check {
  return runChecks([[def, 10]], s, obs, ctx).checks[0]!
}
