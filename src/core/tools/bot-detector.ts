// bot-detector: is a person driving this browser, or a program? The page looks for what
// automation leaves behind (the WebDriver flag, CDP's console side effect, framework globals
// and stack frames, headless markers) and for what stealth patches break while hiding it
// (non-native getters, proxies, a mocked window.chrome, values that differ between the page,
// an iframe and a worker). The server adds what it saw itself: the User-Agent and client-hint
// headers. Every check says what fired; `frameworks` names the tools recognised and
// `verdict` sums it up for a person (human / suspicious / bot).
//
// Weights: a finding no real browser produces (webdriver = true, HeadlessChrome, chromedriver
// globals) costs 60, enough alone to reach the `bot` band; a patched API or a
// cross-context mismatch 25–40; tells with known false positives (software GL in VMs,
// full-screen windows, privacy extensions) only warn.

import { Type, type Static } from '@sinclair/typebox'
import { check, summarize, type Check, type CheckDef, type Verdict } from '../scoring'
import { Signal, valueOf, whyMissing, type SignalResult } from '../../../common/signal'
import { parseBrandList, parseSfBoolean, parseSfString, parseUserAgent, uaHintMismatches, type Brand, type Engine, type Os } from '../../../common/user-agent'
import { header, type ServerObservation } from './observation'
import { FAMILY_NAME, familyVerdict, http2Family, tlsFamily } from '../tls-families'
import { tlsEvidenceOf } from './tls-fingerprint'
import { wireHeaderOrder } from './http-headers'
import { checkOrder } from '../header-order'
import { TlsEvidenceProbeSchema } from '../../../common/signals/shared'
import { legacyTool, type JudgeContext } from './types'
import { ENGINE_NAME, EVAL_LENGTH, jsEngineOf } from '../../../common/engine-errors'
import { hostingVerdict, intelOf, networkText, whyNoIntel, type HostingPolicy } from './ip-intel'

const Bool = Type.Boolean()
const Num = Type.Number()
const NNum = Type.Union([Num, Type.Null()])
const NBool = Type.Union([Bool, Type.Null()])
const Str = (max: number) => Type.String({ maxLength: max })
const NStr = (max: number) => Type.Union([Str(max), Type.Null()])
const List = (max: number, items: number) => Type.Array(Str(max), { maxItems: items })
const BrandList = Type.Array(Type.Object({ brand: Str(128), version: Str(64) }), { maxItems: 16 })

/** probes/signals/scope-snapshot.ts, read in the page, an iframe and a worker (fields used here). */
const Scope = Type.Object({
  userAgent: Str(1000),
  platform: Str(200),
  languages: List(64, 32),
  hardwareConcurrency: NNum,
  deviceMemory: NNum,
  webdriver: NBool,
  timeZone: NStr(200),
  uaPlatform: NStr(64),
  uaBrands: NStr(1000),
})

export const BotDetectorSignals = Type.Object({
  lies: Signal(Type.Object({ tested: Num, lies: Type.Array(Type.Object({ api: Str(100), tests: List(20, 8) }), { maxItems: 80 }) })),
  webdriver: Signal(
    Type.Object({
      value: NBool,
      present: Bool,
      ownProperties: List(100, 20),
      proto: Type.Union([Type.Literal('getter'), Type.Literal('value'), Type.Literal('missing')]),
      getterNative: NBool,
    }),
  ),
  cdp: Signal(Type.Object({ prepareStackTrace: Bool, stackGetter: Bool })),
  stack: Signal(Type.Object({ hooked: Num, calls: Num, frames: List(200, 12) })),
  globals: Signal(Type.Object({ window: List(200, 20), document: List(200, 20), attributes: List(20, 3) })),
  navigator: Signal(
    Type.Object({
      userAgent: Str(1000),
      appVersion: Str(1000),
      platform: Str(200),
      language: Str(64),
      languages: List(64, 32),
      vendor: Str(200),
      secureContext: Bool,
      uaData: Type.Union([Type.Object({ brands: BrandList, mobile: Bool, platform: Str(64) }), Type.Null()]),
    }),
  ),
  page: Signal(Scope),
  iframe: Signal(Scope),
  worker: Signal(Scope),
  iframeProxy: Signal(Type.Object({ sameAsFrames: Bool, selfIsWindow: Bool, getterNative: Bool, chrome: Str(32) })),
  chrome: Signal(
    Type.Object({
      present: Bool,
      keys: List(100, 20),
      runtime: Bool,
      functions: Type.Record(Str(64), Type.Object({ native: Bool, constructible: Bool })),
    }),
  ),
  notification: Signal(Type.Object({ notification: NStr(32), query: NStr(32), queryError: NStr(200) })),
  plugins: Signal(
    Type.Object({
      plugins: Type.Array(Type.Object({ name: Str(200) }), { maxItems: 32 }),
      mimeTypes: Num,
      pdfViewerEnabled: NBool,
      nativePrototypes: Bool,
    }),
  ),
  engine: Signal(Type.Object({ evalLength: Num, nullError: Str(200), rangeError: Str(200) })),
  webgl: Signal(Type.Object({ vendor: Str(500), renderer: Str(500), unmaskedVendor: NStr(500), unmaskedRenderer: NStr(500) })),
  canvas: Signal(Type.Object({ hash: Str(64), stable: Bool, knownWrong: NNum, knownFlat: NBool })),
  screen: Signal(Type.Object({ width: Num, height: Num, availWidth: Num, availHeight: Num, colorDepth: Num })),
  window: Signal(Type.Object({ innerWidth: Num, innerHeight: Num, outerWidth: Num, outerHeight: Num })),
  frames: Signal(Type.Object({ frames: Num, ticks: Num, waitedMs: Num, firstFrameMs: NNum, steadyAtMs: NNum, maxTicksWithoutFrame: Num, visible: Bool })),
  pointer: Signal(Type.Object({ pointer: NStr(8), anyPointer: List(8, 3), hover: NStr(8), anyHover: List(8, 2) })),
  navRate: Signal(Type.Object({ calls: Num, accepted: Num, lastApplied: NNum, error: NStr(200) })),
  /** Optional: pages from before the TLS evidence listener, and other clients, do not send it. */
  tlsEvidence: Type.Optional(Signal(TlsEvidenceProbeSchema)),
})
export type BotDetectorSignals = Static<typeof BotDetectorSignals>

export const BOT_VERDICTS = ['human', 'suspicious', 'bot'] as const
export type BotVerdict = (typeof BOT_VERDICTS)[number]

const Scoring = Type.Union([Type.Literal('pass'), Type.Literal('warn'), Type.Literal('fail')])

/** What judge adds: the interface spec's sections (same shapes as results.ts declares), the verdict and the frameworks. */
export const BotDetectorSections = Type.Object({
  leaks: Type.Object({ webdriver: Bool, selenium: Bool, phantomjs: Bool }),
  navigator: Type.Object({ userAgent: Type.String(), platform: Type.String(), language: Type.String() }),
  screen: Type.Object({ width: Type.Integer(), height: Type.Integer(), colorDepth: Type.Integer() }),
  webgl: Type.Object({ vendor: Type.String(), renderer: Type.String() }, { description: 'Unmasked (WEBGL_debug_renderer_info) where the browser gives it; empty without WebGL.' }),
  canvas: Type.Object({ hash: Type.String({ description: 'Hash of a 2D canvas drawing; "farbled" when read-back noise was detected, empty when the canvas could not be read.' }) }),
  scoring: Type.Object({ webdriver: Scoring, selenium: Scoring, phantomjs: Scoring }),
  verdict: Type.Union(BOT_VERDICTS.map((v) => Type.Literal(v)), {
    description: '`bot` when a decisive automation marker fired or the score is 40 or less; `suspicious` below 80; `human` otherwise.',
  }),
  frameworks: Type.Array(Type.String(), {
    description: 'Automation recognised: playwright, puppeteer, selenium, phantomjs, nightmare, cypress, webdriver, cdp, headless, stealth, automation-flags (launched with the default arguments of Playwright or Puppeteer).',
  }),
})

const DEFS = {
  webdriver: { id: 'webdriver-flag', name: 'navigator.webdriver is not true', source: 'client', weight: 60, why: 'Browsers set navigator.webdriver to true when a WebDriver or CDP client controls them (--enable-automation, chromedriver, geckodriver, Playwright, Puppeteer), as the WebDriver spec requires. A person\'s browser never shows true.' },
  webdriverDescriptor: { id: 'webdriver-descriptor', name: 'navigator.webdriver is defined natively', source: 'client', weight: 40, why: 'The flag is a native getter on Navigator.prototype in Chromium, Firefox and Safari. Stealth tools hide it by redefining that getter, by adding an own property to navigator, or by deleting it; each leaves this shape behind. Extensions do not touch this flag, so false positives are unlikely.' },
  cdp: { id: 'cdp-runtime', name: 'No DevTools protocol client listening', source: 'client', weight: 30, why: 'With the DevTools protocol\'s Runtime domain enabled (Puppeteer, Playwright, Selenium 4 CDP, undetected drivers), every console call is serialised for the client, which formats an Error\'s stack and calls Error.prepareStackTrace. Known false positive: a person with DevTools open on this page.' },
  stack: { id: 'stack-sourceurl', name: 'No automation frames in stack traces', source: 'client', weight: 40, why: 'Code a driver evaluates in the page carries its origin in stack frames: Puppeteer\'s "pptr:" sourceURL, Playwright\'s UtilityScript. The page wraps its DOM lookups while the tests run and reads the callers\' stacks. Only calls made in that window are seen. Anonymous evaluated frames only warn: code typed into DevTools and main-world scripts of some extensions look the same.' },
  playwright: { id: 'playwright-globals', name: 'No Playwright globals', source: 'client', weight: 60, why: 'Playwright adds __playwright__binding__ for exposeFunction/exposeBinding and __pwInitScripts (and older __playwright_* names) to the page\'s main world. Nothing else defines them.' },
  selenium: { id: 'selenium-globals', name: 'No Selenium or chromedriver traces', source: 'client', weight: 60, why: 'chromedriver leaves cdc_…_Array/Promise/Symbol on window and $cdc_… on document (undetected-chromedriver renames the prefix, same length); Selenium IDE and the old drivers leave __webdriver_*, __selenium_*, __fxdriver_* and webdriver/selenium/driver attributes on <html>.' },
  phantomjs: { id: 'phantomjs', name: 'No PhantomJS traces', source: 'client', weight: 60, why: 'PhantomJS defines callPhantom, _phantom and phantom in every page and names itself in the User-Agent. Elements with id="phantom" are not counted: only own properties of window are.' },
  automation: { id: 'automation-globals', name: 'No other automation globals', source: 'client', weight: 60, why: 'Nightmare (__nightmare), Cypress (Cypress), Puppeteer bindings (__puppeteer_*, puppeteer_*), Chrome\'s domAutomation controller and embedded-browser kits (Awesomium, CefSharp, Geb) leave globals that browsers never define.' },
  headlessUa: { id: 'headless-ua', name: 'User agent does not say HeadlessChrome', source: 'client', weight: 60, why: 'Headless Chromium reports "HeadlessChrome/<version>" in navigator.userAgent unless the script overrides it. No headful browser does.' },
  headlessWorker: { id: 'headless-worker-ua', name: 'Worker user agent does not say HeadlessChrome', source: 'client', weight: 40, why: 'Overrides applied to the page (init scripts, older CDP overrides) often do not reach workers, whose navigator still says HeadlessChrome.' },
  headlessBrands: { id: 'headless-brands', name: 'userAgentData brands do not name HeadlessChrome', source: 'client', weight: 40, why: 'Headless Chromium 112–131 listed "HeadlessChrome" among navigator.userAgentData.brands; a patched userAgent string often leaves it there.' },
  frames: { id: 'animation-frames', name: 'The visible page is drawn', source: 'client', weight: 40, why: 'A visible page is drawn at the display\'s rate and runs its requestAnimationFrame callbacks before every frame. Headless Chromium run without a driver (--dump-dom, --screenshot or --print-to-pdf with --virtual-time-budget, which fast-forwards the clock) draws while loading and then about once per virtual second, and renderers whose frames a tool issues itself draw only on request, while their timers keep firing: the page waits up to 2.5 s for steady drawing (10 frames in a row, each within 100 ms of the last). It needs no User-Agent, so it holds when the client rewrites that. Hidden tabs, minimised windows and prerendered pages get no frames by design, so only a page that stayed visible is judged; a main thread too busy to run its timers proves nothing; and since a browser started with the page draws nothing while its window opens (up to 1.5 s measured), a page that is not drawn fails only when it also has no pointing device.' },
  pointerDevice: { id: 'pointing-device', name: 'A desktop browser has a pointing device', source: 'client', weight: 30, why: 'CSS any-pointer and any-hover report the input devices the OS lists: a mouse or touchpad (fine, hover) or a touchscreen (coarse). Headless Chromium has none, so on a desktop user agent both say none. Known false positives: a desktop with no mouse, touchpad or touchscreen attached at all (keyboard-only kiosks), so it is not decisive; TV and streaming-stick user agents are not judged. Playwright hides it by faking a mouse with --blink-settings.' },
  headlessScreen: { id: 'headless-screen', name: 'Not headless Chromium\'s virtual display', source: 'client', weight: 30, why: 'Headless Chromium (--headless, also without a driver: --dump-dom, --screenshot) renders on a virtual 800×600 screen with no taskbar and no input devices, whatever --window-size says, unless the client also passes --screen-info. An 800×600 screen alone happens to people (virtual machines without display drivers) and only warns (default-viewport); with no pointing device as well it is that virtual display.' },
  navRate: { id: 'navigation-rate-limit', name: 'The browser caps history floods', source: 'client', weight: 40, why: 'Browsers stop applying history.replaceState after 200 calls in 10 s (Chromium, Firefox) or 100 in 30 s (Safari). Chromium lifts the cap only when started with --disable-ipc-flooding-protection, one of the default launch arguments of Playwright and Puppeteer, so a 400th call that sticks means a browser they launched, headful or headless, whatever else was patched. A person who starts Chromium with that flag by hand is the known false positive.' },
  headlessHeader: { id: 'headless-ua-header', name: 'User-Agent and Sec-CH-UA headers do not say HeadlessChrome', source: 'server', weight: 60, why: 'Observed by the server on the request that carried the results: headless Chromium sends HeadlessChrome in its User-Agent header (and formerly in Sec-CH-UA) unless overridden at the network level.' },
  chrome: { id: 'chrome-object', name: 'window.chrome is real', source: 'client', weight: 30, why: 'Every Chromium browser defines window.chrome with native loadTimes/csi; old headless had none, and stealth plugins add one whose chrome.runtime.sendMessage/connect are JavaScript (not native, constructible). A page on a V8 engine without window.chrome is not a Chromium browser tab (old headless, Electron, jsdom).' },
  notification: { id: 'notification-permission', name: 'Notification permission agrees with the Permissions API', source: 'client', weight: 25, why: 'Notification.permission and permissions.query({name: "notifications"}) read the same setting (default ↔ prompt). Headless Chromium long answered "denied" to one and "prompt" to the other; a consistent browser never does.' },
  plugins: { id: 'plugins', name: 'Plugins and MIME types look native', source: 'client', weight: 25, why: 'Desktop browsers list five PDF viewer plugins when their PDF viewer is on, none when off (pdfViewerEnabled false); old headless listed none while claiming a viewer, and stealth fakes are plain arrays instead of PluginArray/MimeTypeArray. An empty list on a desktop only warns: a person can turn the PDF viewer off.' },
  webgl: { id: 'webgl-renderer', name: 'WebGL renders on a GPU', source: 'client', weight: 16, why: 'SwiftShader, llvmpipe and other CPU renderers are what headless browsers and CI machines use. People in virtual machines, remote desktops or with a blocklisted GPU driver get them too, so this only warns.' },
  windowChrome: { id: 'window-chrome', name: 'Window has browser chrome around the page', source: 'client', weight: 20, why: 'A visible browser window is taller than its page (tabs, address bar); headless windows are not (outer == inner), and some report 0. Full-screen (F11) and kiosk windows are the known false positives, so equal sizes only warn; 0 fails.' },
  fitsScreen: { id: 'window-fits-screen', name: 'Window fits on the screen', source: 'client', weight: 20, why: 'Headless Chromium keeps an 800×600 screen whatever --window-size gives the window, and emulated viewports ignore the screen; a real window is at most a few pixels larger than the screen (Windows draws maximised borders just off-screen). A window stretched across two monitors is the known false positive.' },
  viewport: { id: 'default-viewport', name: 'Viewport and screen are not automation defaults', source: 'client', weight: 16, why: 'Playwright and Puppeteer open 1280×720 and 800×600 pages on screens of the same size with no taskbar. A person rarely has exactly these sizes; it can happen, so it only warns.' },
  languages: { id: 'languages', name: 'navigator.languages is set and starts with navigator.language', source: 'client', weight: 12, why: 'Every browser has at least one preferred language and navigator.language is the first. An empty list was the classic old-headless tell; a different first entry is a patched property.' },
  engine: { id: 'engine-vs-ua', name: 'JavaScript engine matches the user agent', source: 'client', weight: 40, why: 'Error messages tell V8 (Chromium), SpiderMonkey (Firefox) and JavaScriptCore (Safari, all iOS browsers) apart whatever the user agent says. A Chrome user agent on another engine, or a Safari one on V8, is a spoofed user agent (device emulation in automation, UA switchers).' },
  evalLength: { id: 'eval-tostring', name: 'eval.toString() has the engine\'s length', source: 'client', weight: 30, why: 'Native functions print with engine-specific whitespace: eval.toString().length is 33 in V8 and 37 in SpiderMonkey and JavaScriptCore (BotD). Another length means eval or Function.prototype.toString was replaced.' },
  uaConsistency: { id: 'ua-consistency', name: 'navigator.userAgent agrees with platform and userAgentData', source: 'client', weight: 30, why: 'userAgent, platform and userAgentData come from the same build. Overriding the user agent (Puppeteer setUserAgent, UA switchers) without the rest leaves another OS in navigator.platform or another version/platform in the brands.' },
  stealthLies: { id: 'stealth-lies', name: 'Automation-related APIs are native', source: 'client', weight: 40, why: 'Stealth plugins replace navigator.webdriver, plugins, languages, hardwareConcurrency, permissions.query, Notification.permission, window.outerWidth/outerHeight, iframe.contentWindow and Function.prototype.toString. Each native function passes six tests (toString, no prototype, own keys, not constructible, TypeError on a foreign receiver, not a Proxy); replacements fail some. Privacy extensions rarely touch these; the ones that hide their patches by replacing Function.prototype.toString are the known false positive.' },
  otherLies: { id: 'api-lies', name: 'Fingerprinting APIs are native', source: 'client', weight: 16, why: 'The same six tests on user agent, screen, canvas, WebGL, audio, time zone, layout and console APIs. Anti-detect browsers patch these, but so do privacy extensions (canvas/WebGL blockers, UA switchers) and developer extensions that wrap console methods, so it only warns.' },
  iframeProxy: { id: 'iframe-proxy', name: 'iframe.contentWindow is the real window', source: 'client', weight: 30, why: 'puppeteer-extra-plugin-stealth returns a Proxy for srcdoc iframes\' contentWindow: it differs from window[i], its self is another object and the getter is JavaScript. Old headless also had no window.chrome inside iframes.' },
  iframeScope: { id: 'iframe-consistency', name: 'An iframe sees the same navigator as the page', source: 'client', weight: 30, why: 'A fresh iframe is a new realm with its own navigator. Overrides made by init scripts or extensions in the page often miss it, so webdriver, user agent, platform, cores, languages or time zone differ. A real browser answers the same everywhere.' },
  workerScope: { id: 'worker-consistency', name: 'A worker sees the same navigator as the page', source: 'client', weight: 30, why: 'Workers have their own WorkerNavigator and time zone; spoofing applied to the page (CDP overrides per target, init scripts, UA switchers) usually misses them. Brave and Firefox resistFingerprinting alter values the same way in both, so they pass.' },
  canvas: { id: 'canvas-noise', name: 'Canvas reads back what was drawn', source: 'client', weight: 8, why: 'Anti-detect browsers add noise to canvas reads so hashes change; so do Brave, Safari 17+ and Firefox fingerprinting protection. Noise is reported so the canvas hash is not taken as stable; it costs little because privacy browsers are used by people.' },
  uaHeader: { id: 'ua-header-vs-navigator', name: 'User-Agent header equals navigator.userAgent', source: 'server', weight: 40, why: 'A browser sends the same string it shows to scripts. A difference means one was overridden (a header set by a script or proxy, a navigator patch) or the results were not sent by this page.' },
  hintsNavigator: { id: 'sec-ch-ua-vs-navigator', name: 'Sec-CH-UA headers agree with navigator.userAgentData', source: 'server', weight: 30, why: 'Chromium sends Sec-CH-UA, -Mobile and -Platform on every request from a secure context, from the same data as navigator.userAgentData. Missing headers where the page has userAgentData, headers without it, or different values mean the request or the page was altered.' },
  hintsUa: { id: 'ua-vs-client-hints', name: 'User-Agent header agrees with the Sec-CH-UA headers', source: 'server', weight: 30, why: 'Both headers come from the browser\'s build: a User-Agent claiming another browser, version or OS than the client hints, or Chrome without hints on a secure origin, is a rewritten header (HTTP clients impersonating Chrome, UA switchers).' },
  integrity: { id: 'probe-integrity', name: 'The page could read the basic browser APIs', source: 'client', weight: 30, why: 'The core probes (webdriver flag, navigator, engine, lie tests, screen and window sizes, globals, CDP) only read properties that every browser has; they fail only when the page\'s script was tampered with or the results were made up outside a browser. One missing warns (a timeout under heavy load is possible), three or more fail.' },
  tls: { id: 'tls-fingerprint', name: 'TLS fingerprint matches the claimed browser', source: 'server', weight: 40, why: 'The TLS ClientHello (JA3/JA4) of an HTTP library differs from a browser\'s whatever its User-Agent says.' },
  http2: { id: 'http2-fingerprint', name: 'HTTP/2 fingerprint matches the claimed browser', source: 'server', weight: 30, why: 'SETTINGS, WINDOW_UPDATE and pseudo-header order (the Akamai fingerprint) differ between browsers and libraries.' },
  headerOrder: { id: 'header-order-wire', name: 'Headers arrive in the browser\'s own order', source: 'server', weight: 25, why: 'Each engine\'s network stack writes request headers in a fixed order, read here off the wire by the TLS evidence listener. Headers added through the DevTools protocol land out of place: with Playwright\'s locale emulation, Chromium sends Accept-Language next to User-Agent instead of after Accept-Encoding. HTTP libraries dressed as a browser use their own order. Extensions that rewrite Accept-Language can do the same, so this alone does not make a bot.' },
  datacenter: { id: 'datacenter-ip', name: 'Address is not a datacenter\'s', source: 'server', weight: 20, why: 'Most automation runs on cloud and hosting servers; people browse from residential and mobile networks (offline IP database: AS and organisation, curated lists). VPN and Tor exits and networks recognised only by a word in their name warn: people use them too. CDN egress (Cloudflare WARP, iCloud Private Relay) carries ordinary users and passes.' },
} as const satisfies Record<string, CheckDef>

/** Clouds and hosts are where automation runs; VPN/Tor exits and name guesses are people too; CDN relays are ordinary users. */
const BOT_HOSTING: HostingPolicy = { cloud: 'fail', hosting: 'fail', vpn: 'warn', tor: 'warn', cdn: 'pass', heuristic: 'warn' }

/** Checks whose failure alone makes the verdict `bot`: markers no person's browser produces. */
const DECISIVE = new Set<string>([DEFS.webdriver.id, DEFS.stack.id, DEFS.playwright.id, DEFS.selenium.id, DEFS.phantomjs.id, DEFS.automation.id, DEFS.headlessUa.id, DEFS.headlessWorker.id, DEFS.headlessBrands.id, DEFS.headlessHeader.id])

// ---------------------------------------------------------------- evidence classifiers

/** Which framework a global or document property name belongs to, or null. */
export function frameworkOfGlobal(name: string): string | null {
  if (/^__playwright|^__pwInitScripts$|^__pw_/.test(name)) return 'playwright'
  if (/^\$?cdc_|^\$?[a-zA-Z]{3}_[a-zA-Z0-9]{22}_|^__(?:webdriver|selenium|fxdriver|driver)|^_(?:selenium|Selenium_IDE_Recorder|WEBDRIVER_ELEM_CACHE)|^(?:callSelenium|calledSelenium|webdriver)$|^__lastWatir/.test(name)) return 'selenium'
  if (/^(?:callPhantom|_phantom|phantom|__phantomas)$/.test(name)) return 'phantomjs'
  if (/^__puppeteer|^puppeteer_/.test(name)) return 'puppeteer'
  if (name === '__nightmare') return 'nightmare'
  if (name === 'Cypress') return 'cypress'
  if (/^domAutomation/.test(name)) return 'chrome-automation'
  if (/^(?:awesomium|cefsharp|geb)$/.test(name)) return name
  return null
}

/** Which framework a foreign stack frame points at: 'playwright', 'puppeteer', 'unknown-eval', or null. */
export function frameworkOfFrame(frame: string): string | null {
  if (/pptr:|__puppeteer_evaluation_script__/.test(frame)) return 'puppeteer'
  // Playwright evaluates through its UtilityScript class, itself a script without a URL: code it
  // runs later (waitForFunction's polling) keeps "eval at evaluate (:line:column)" frames.
  if (/UtilityScript|__playwright_evaluation_script__|eval at evaluate \(:\d+:\d+\)/.test(frame)) return 'playwright'
  if (/<anonymous>:\d+:\d+|eval at /.test(frame)) return 'unknown-eval'
  return null
}

/** APIs stealth tools patch to hide automation; lies elsewhere are likelier privacy extensions. */
export function isAutomationApi(api: string): boolean {
  return /^Navigator\.(webdriver|plugins|mimeTypes|languages|language|hardwareConcurrency|deviceMemory|permissions|pdfViewerEnabled)$|^Permissions\.query$|^Notification\.permission$|^Function\.toString$|^HTMLIFrameElement\.|^window\.(outer|inner)/.test(api)
}


/** navigator.platform values each claimed OS produces. iPadOS says MacIntel; Android says Linux armv8l/aarch64. */
const PLATFORMS: Partial<Record<Os, RegExp>> = {
  windows: /^Win/,
  mac: /^Mac/,
  linux: /^Linux|^X11|BSD/,
  android: /^Linux|^Android|^$/,
  ios: /^iP(?:hone|ad|od)|^MacIntel$/,
  chromeos: /^Linux|CrOS/,
}


/** User agents of TVs and streaming sticks, which may have no pointing device. */
const TV_UA = /SmartTV|SMART-TV|Tizen|Web0S|webOS|HbbTV|CrKey|BRAVIA|NetCast|AFT[A-Z]|Roku|PlayStation|Xbox|Nintendo|\bTV\b/i

const SOFTWARE_GL = /SwiftShader|llvmpipe|softpipe|Software Rasterizer|Microsoft Basic Render|Mesa OffScreen/i

/** Inner or screen sizes automation defaults to. */
const DEFAULT_SIZES = ['800x600', '1280x720']

const brandText = (b: readonly Brand[]) => b.map((x) => `${x.brand}/${x.version}`).join(', ')
const brandKey = (b: readonly Brand[]) => b.map((x) => `${x.brand}\u0000${x.version}`).sort().join('\u0001')

type Scope = Static<typeof Scope>

/** Fields that differ between two navigator snapshots, as "field: a ≠ b". */
export function scopeMismatches(page: Scope, other: Scope): string[] {
  const out: string[] = []
  const cmp = (field: string, a: unknown, b: unknown, onlyWhenBoth = false) => {
    if (onlyWhenBoth && (a == null || b == null)) return
    if (JSON.stringify(a) !== JSON.stringify(b)) out.push(`${field}: ${JSON.stringify(a)} ≠ ${JSON.stringify(b)}`)
  }
  cmp('userAgent', page.userAgent, other.userAgent)
  cmp('platform', page.platform, other.platform)
  cmp('languages', page.languages, other.languages)
  cmp('hardwareConcurrency', page.hardwareConcurrency, other.hardwareConcurrency)
  cmp('deviceMemory', page.deviceMemory, other.deviceMemory, true)
  cmp('webdriver', page.webdriver, other.webdriver, true)
  cmp('timeZone', page.timeZone, other.timeZone)
  cmp('userAgentData.platform', page.uaPlatform, other.uaPlatform, true)
  cmp('userAgentData.brands', page.uaBrands, other.uaBrands, true)
  return out
}

// ---------------------------------------------------------------- the judge

export function verdictOf(checks: readonly Check[], score: number): BotVerdict {
  if (score <= 40 || checks.some((c) => c.verdict === 'fail' && DECISIVE.has(c.id))) return 'bot'
  return score < 80 ? 'suspicious' : 'human'
}

function judgeBotDetector(s: BotDetectorSignals, server: ServerObservation, ctx?: JudgeContext) {
  const checks: Check[] = []
  const frameworks = new Set<string>()
  const add = (def: CheckDef, verdict: Verdict, observed: unknown, expected: string) => checks.push(check(def, { verdict, observed, expected }))
  const na = (def: CheckDef, expected: string) => add(def, 'na', null, expected)
  const missing = (...sigs: Array<SignalResult<unknown> | undefined>) => sigs.map((x) => whyMissing(x)).filter(Boolean).join('; ') || 'not collected'

  const nav = valueOf(s.navigator)
  const wd = valueOf(s.webdriver)
  const page = valueOf(s.page)
  const iframe = valueOf(s.iframe)
  const worker = valueOf(s.worker)
  const engineSig = valueOf(s.engine)
  const scr = valueOf(s.screen)
  const win = valueOf(s.window)
  const gl = valueOf(s.webgl)
  const lies = valueOf(s.lies)
  const claimed = parseUserAgent(nav?.userAgent ?? server.userAgent)
  const engine: Engine = engineSig ? jsEngineOf(engineSig) : 'unknown'

  // --- Automation markers
  if (wd) {
    const contexts = [['page', wd.value], ['iframe', iframe?.webdriver], ['worker', worker?.webdriver]].filter(([, v]) => v === true).map(([k]) => k)
    if (contexts.length) frameworks.add('webdriver')
    add(DEFS.webdriver, contexts.length ? 'fail' : 'pass', `navigator.webdriver = ${wd.value ?? 'absent'}${contexts.length ? ` (true in: ${contexts.join(', ')})` : ''}`, 'false (or absent) in the page, an iframe and a worker')
    const problems: string[] = []
    if (wd.ownProperties.includes('webdriver')) problems.push('own property on the navigator instance')
    if (wd.proto === 'value') problems.push('a data property on Navigator.prototype instead of a getter')
    if (wd.proto === 'getter' && wd.getterNative === false) problems.push('the getter on Navigator.prototype is not native code')
    if (wd.proto === 'missing' && (engine === 'blink' || engine === 'gecko')) problems.push(`deleted from Navigator.prototype on a ${engine === 'blink' ? 'V8' : 'SpiderMonkey'} engine, which defines it`)
    if (problems.length) frameworks.add('stealth')
    add(DEFS.webdriverDescriptor, problems.length ? 'fail' : 'pass', problems.length ? problems : wd.proto === 'getter' ? 'native getter on Navigator.prototype' : `not defined (${wd.proto})`, 'a native getter on Navigator.prototype, no own property on navigator')
  } else {
    na(DEFS.webdriver, missing(s.webdriver))
    na(DEFS.webdriverDescriptor, missing(s.webdriver))
  }

  const cdp = valueOf(s.cdp)
  // The DevTools protocol is Chromium's, and only V8 calls Error.prepareStackTrace; other
  // engines' consoles may read an error's own stack getter for their own logs.
  if (cdp && engine !== 'blink') na(DEFS.cdp, `not applicable: the page runs on ${ENGINE_NAME[engine]}, not V8`)
  else if (cdp) {
    const fired = cdp.prepareStackTrace || cdp.stackGetter
    if (fired) frameworks.add('cdp')
    add(DEFS.cdp, fired ? 'fail' : 'pass', fired ? `console.debug(error) ${cdp.prepareStackTrace ? 'called Error.prepareStackTrace' : 'read the error\'s stack getter'}` : 'nothing read the logged error\'s stack', 'neither Error.prepareStackTrace nor the stack getter called by console.debug')
  } else na(DEFS.cdp, missing(s.cdp))

  const nr = valueOf(s.navRate)
  if (nr && nr.calls >= 250) {
    const uncapped = nr.error === null && nr.accepted === nr.calls && nr.lastApplied === nr.calls
    if (uncapped) frameworks.add('automation-flags')
    add(DEFS.navRate, uncapped ? 'fail' : 'pass', `${nr.accepted} of ${nr.calls} replaceState calls returned; history.state is call ${nr.lastApplied ?? 'none'}'s${nr.error ? `; stopped by ${nr.error}` : ''}`, 'the browser stops applying them after its cap (100–200 calls)')
  } else na(DEFS.navRate, nr ? `only ${nr.calls} calls made; the caps start at 100–200` : missing(s.navRate))

  const stack = valueOf(s.stack)
  if (stack) {
    const known = stack.frames.map((f) => [f, frameworkOfFrame(f)] as const).filter(([, k]) => k !== null)
    const named = known.filter(([, k]) => k !== 'unknown-eval')
    for (const [, k] of named) frameworks.add(k!)
    const verdict: Verdict = named.length ? 'fail' : known.length ? 'warn' : 'pass'
    add(DEFS.stack, verdict, known.length ? (named.length ? named : known).map(([f]) => f).slice(0, 6) : `no automation frames in ${stack.calls} calls to ${stack.hooked} DOM lookups`, 'no pptr:, UtilityScript or evaluated-code frames among the callers of the page\'s DOM lookups')
  } else na(DEFS.stack, missing(s.stack))

  const globals = valueOf(s.globals)
  const byFramework = new Map<string, string[]>()
  if (globals) {
    for (const n of globals.window) {
      const f = frameworkOfGlobal(n)
      if (f) byFramework.set(f, [...(byFramework.get(f) ?? []), `window.${n}`])
    }
    for (const n of globals.document) {
      const f = frameworkOfGlobal(n)
      if (f) byFramework.set(f, [...(byFramework.get(f) ?? []), `document.${n}`])
    }
    if (globals.attributes.length) byFramework.set('selenium', [...(byFramework.get('selenium') ?? []), ...globals.attributes.map((a) => `<html ${a}>`)])
  }
  if (/PhantomJS/.test(nav?.userAgent ?? server.userAgent)) byFramework.set('phantomjs', [...(byFramework.get('phantomjs') ?? []), 'PhantomJS in the user agent'])
  const globalCheck = (def: CheckDef, names: string[], expected: string) => {
    if (!globals && !byFramework.size) return na(def, missing(s.globals))
    const found = names.flatMap((n) => byFramework.get(n) ?? [])
    for (const n of names) if (byFramework.has(n)) frameworks.add(n === 'chrome-automation' ? 'cdp' : n)
    add(def, found.length ? 'fail' : 'pass', found.length ? found : 'none', expected)
  }
  globalCheck(DEFS.playwright, ['playwright'], 'no __playwright*, __pw* globals')
  globalCheck(DEFS.selenium, ['selenium'], 'no cdc_/$cdc_, __webdriver*, __selenium*, __fxdriver* names or driver attributes')
  globalCheck(DEFS.phantomjs, ['phantomjs'], 'no callPhantom, _phantom, phantom')
  globalCheck(DEFS.automation, ['puppeteer', 'nightmare', 'cypress', 'chrome-automation', 'awesomium', 'cefsharp', 'geb'], 'no framework globals')

  // --- Headless markers
  if (nav) {
    const hit = /Headless/i.test(nav.userAgent) || /Headless/i.test(nav.appVersion)
    if (hit) frameworks.add('headless')
    add(DEFS.headlessUa, hit ? 'fail' : 'pass', nav.userAgent, 'a user agent without "HeadlessChrome"')
  } else na(DEFS.headlessUa, missing(s.navigator))
  if (worker) {
    const hit = /Headless/i.test(worker.userAgent)
    if (hit) frameworks.add('headless')
    add(DEFS.headlessWorker, hit ? 'fail' : 'pass', worker.userAgent, 'a worker user agent without "HeadlessChrome"')
  } else na(DEFS.headlessWorker, missing(s.worker))
  const brandLists = [nav?.uaData ? brandText(nav.uaData.brands) : null, worker?.uaBrands ?? null].filter((x): x is string => x !== null)
  if (brandLists.length) {
    const hit = brandLists.some((b) => /Headless/i.test(b))
    if (hit) frameworks.add('headless')
    add(DEFS.headlessBrands, hit ? 'fail' : 'pass', brandLists[0], 'brands without "HeadlessChrome"')
  } else na(DEFS.headlessBrands, nav ? 'no navigator.userAgentData (not Chromium, or not a secure context)' : missing(s.navigator))
  {
    const secChUa = header(server, 'sec-ch-ua') ?? ''
    const hit = /Headless/i.test(server.userAgent) || /Headless/i.test(secChUa)
    if (hit) frameworks.add('headless')
    add(DEFS.headlessHeader, hit ? 'fail' : 'pass', `User-Agent: ${server.userAgent}${secChUa ? `; Sec-CH-UA: ${secChUa}` : ''}`, 'no "HeadlessChrome" in either header')
  }
  // Headless without its name: what a renderer with no input devices and no display does,
  // whatever the User-Agent says (probes/signals/pointer-media.ts, animation-frames.ts).
  const pm = valueOf(s.pointer)
  const desktop = !claimed.mobile && (['windows', 'mac', 'linux', 'chromeos'] as Os[]).includes(claimed.os) && !TV_UA.test(nav?.userAgent ?? server.userAgent)
  // Both must say none: browsers without these media features match none of the values.
  const pointerless = !!pm && desktop && pm.anyPointer.join() === 'none' && pm.anyHover.join() === 'none'
  if (pm && desktop) {
    if (pointerless) frameworks.add('headless')
    add(DEFS.pointerDevice, pointerless ? 'fail' : 'pass', `any-pointer: ${pm.anyPointer.join(', ') || '(no match)'}; any-hover: ${pm.anyHover.join(', ') || '(no match)'}`, 'a fine or coarse pointer on a desktop')
  } else na(DEFS.pointerDevice, pm ? `not a desktop user agent (${claimed.os}${claimed.mobile ? ', mobile' : ''})` : missing(s.pointer))

  if (scr && pm && desktop) {
    // Chromium's headless screen default: ui/ozone/platform/headless (--screen-info overrides it).
    const virtual = scr.width === 800 && scr.height === 600 && scr.availWidth === 800 && scr.availHeight === 600
    add(DEFS.headlessScreen, virtual && pointerless ? 'fail' : 'pass', `screen ${scr.width}×${scr.height} (available ${scr.availWidth}×${scr.availHeight}), ${pointerless ? 'no pointing device' : 'a pointing device'}`, 'not an 800×600 screen without a taskbar and without a pointing device')
  } else na(DEFS.headlessScreen, scr && pm ? `not a desktop user agent (${claimed.os}${claimed.mobile ? ', mobile' : ''})` : missing(s.screen, s.pointer))

  const fr = valueOf(s.frames)
  const framesText = (f: NonNullable<typeof fr>) =>
    `${f.frames} animation frames in ${f.waitedMs} ms (first after ${f.firstFrameMs ?? '—'} ms) while ${f.ticks} timer ticks ran, at most ${f.maxTicksWithoutFrame} in a row without a frame`
  if (!fr) na(DEFS.frames, missing(s.frames))
  else if (!fr.visible) na(DEFS.frames, 'the page was hidden (background tab, minimised window, prerendering), where browsers draw nothing')
  else if (fr.steadyAtMs !== null) add(DEFS.frames, 'pass', `drawn steadily after ${fr.steadyAtMs} ms (${fr.frames} frames)`, 'a frame every few timer ticks once the page is drawn')
  // Virtual time runs fewer ticks than its clock says (36 in 2.5 s measured): 25 is plenty.
  else if (fr.ticks < 25) na(DEFS.frames, `the main thread was too busy to tell: ${framesText(fr)}`)
  // A browser whose window is still opening also draws late: only a page that is never drawn
  // AND has no input devices is judged (a desktop without a mouse or touchpad still draws).
  else if (!pointerless) na(DEFS.frames, `not drawn steadily, but a window that is still opening does that too, so it is judged only with no pointing device: ${framesText(fr)}`)
  else {
    frameworks.add('headless')
    add(DEFS.frames, 'fail', framesText(fr), 'a frame every few timer ticks once the page is drawn')
  }

  // --- The browser environment
  const chrome = valueOf(s.chrome)
  if (chrome && engine !== 'unknown') {
    const blink = engine === 'blink' && claimed.engine === 'blink'
    const mocks = Object.entries(chrome.functions)
      .filter(([k, f]) => !f.native || (k.startsWith('runtime.') && f.constructible))
      .map(([k, f]) => `chrome.${k} is ${f.native ? 'constructible' : 'not native code'}`)
    const problems = [...mocks]
    if (blink && !chrome.present) problems.push('window.chrome is missing on a Chromium engine')
    if (mocks.length) frameworks.add('stealth')
    const expected = blink ? 'window.chrome with native functions' : 'no mock of window.chrome'
    add(DEFS.chrome, problems.length ? 'fail' : 'pass', problems.length ? problems : chrome.present ? `window.chrome with ${chrome.keys.join(', ') || 'no keys'}` : 'no window.chrome', expected)
  } else na(DEFS.chrome, chrome ? 'the JavaScript engine could not be identified' : missing(s.chrome))

  const notif = valueOf(s.notification)
  if (notif && notif.notification !== null && notif.query !== null) {
    const expected = notif.notification === 'default' ? 'prompt' : notif.notification
    add(DEFS.notification, notif.query === expected ? 'pass' : 'fail', `Notification.permission "${notif.notification}", permissions.query "${notif.query}"`, `permissions.query says "${expected}"`)
  } else na(DEFS.notification, notif ? `only one of the two APIs answered${notif.queryError ? ` (${notif.queryError})` : ''}` : missing(s.notification))

  const pl = valueOf(s.plugins)
  if (pl) {
    const count = pl.plugins.length
    const observed = `${count} plugins, ${pl.mimeTypes} MIME types, pdfViewerEnabled ${pl.pdfViewerEnabled}, ${pl.nativePrototypes ? 'native' : 'FAKE'} PluginArray/MimeTypeArray`
    let verdict: Verdict = 'pass'
    if (!pl.nativePrototypes) {
      verdict = 'fail'
      frameworks.add('stealth')
    } else if (count === 0 && pl.pdfViewerEnabled === true) verdict = 'fail'
    else if (count === 0 && !claimed.mobile) verdict = 'warn'
    add(DEFS.plugins, verdict, observed, claimed.mobile ? 'native PluginArray/MimeTypeArray (mobile browsers list none)' : 'native PluginArray/MimeTypeArray with the PDF viewer plugins')
  } else na(DEFS.plugins, missing(s.plugins))

  if (gl) {
    const renderer = gl.unmaskedRenderer || gl.renderer
    add(DEFS.webgl, SOFTWARE_GL.test(renderer) ? 'warn' : 'pass', renderer, 'a hardware GPU renderer (not SwiftShader, llvmpipe, softpipe)')
  } else na(DEFS.webgl, missing(s.webgl))

  if (win) {
    const zero = win.outerWidth === 0 || win.outerHeight === 0
    const same = win.outerWidth === win.innerWidth && win.outerHeight === win.innerHeight
    add(DEFS.windowChrome, zero ? 'fail' : same ? 'warn' : 'pass', `outer ${win.outerWidth}×${win.outerHeight}, inner ${win.innerWidth}×${win.innerHeight}`, 'outer window larger than the page')
  } else na(DEFS.windowChrome, missing(s.window))

  if (win && scr) {
    const inner = `${win.innerWidth}x${win.innerHeight}`
    const screenSize = `${scr.width}x${scr.height}`
    const hit = DEFAULT_SIZES.includes(inner) || (DEFAULT_SIZES.includes(screenSize) && scr.availWidth === scr.width && scr.availHeight === scr.height)
    add(DEFS.viewport, hit ? 'warn' : 'pass', `viewport ${win.innerWidth}×${win.innerHeight}, screen ${scr.width}×${scr.height} (available ${scr.availWidth}×${scr.availHeight})`, `not ${DEFAULT_SIZES.join(' or ')} with a full screen`)
    // Headless geometry: a window without chrome that exactly fills a screen without a taskbar,
    // drawn without a GPU. Each alone happens to people (full screen, auto-hidden docks, VMs).
    // Against the whole screen, not the available area: full-screen windows cover the taskbar.
    const over = Math.max(win.outerWidth - scr.width, win.outerHeight - scr.height)
    add(DEFS.fitsScreen, over > 32 ? 'fail' : 'pass', `outer ${win.outerWidth}×${win.outerHeight}, screen ${scr.width}×${scr.height}`, 'the window within the screen (32 px of slack)')
    const headlessGeometry = win.outerWidth === win.innerWidth && win.outerHeight === win.innerHeight && scr.width === win.innerWidth && scr.height === win.innerHeight && scr.availWidth === scr.width && scr.availHeight === scr.height
    if (headlessGeometry && gl && SOFTWARE_GL.test(gl.unmaskedRenderer || gl.renderer)) frameworks.add('headless')
  } else {
    na(DEFS.viewport, missing(s.window, s.screen))
    na(DEFS.fitsScreen, missing(s.window, s.screen))
  }

  if (nav) {
    const empty = nav.languages.length === 0 || !nav.language
    const differs = !empty && nav.languages[0] !== nav.language
    add(DEFS.languages, empty ? 'fail' : differs ? 'warn' : 'pass', `language "${nav.language}", languages [${nav.languages.join(', ')}]`, 'a non-empty list whose first entry is navigator.language')
  } else na(DEFS.languages, missing(s.navigator))

  // --- What the browser does against what it says
  if (engineSig && engine !== 'unknown' && claimed.engine !== 'unknown') {
    add(DEFS.engine, engine === claimed.engine ? 'pass' : 'fail', `${ENGINE_NAME[engine]} runs the page; the user agent claims ${claimed.engine}`, `the ${claimed.engine} engine the user agent names`)
  } else na(DEFS.engine, engineSig ? (engine === 'unknown' ? `engine not recognised from "${engineSig.nullError}"` : 'the user agent names no known engine') : missing(s.engine))

  if (engineSig) {
    const basis = engine !== 'unknown' ? engine : claimed.engine
    if (basis !== 'unknown') add(DEFS.evalLength, engineSig.evalLength === EVAL_LENGTH[basis] ? 'pass' : 'fail', engineSig.evalLength, `${EVAL_LENGTH[basis]} (${ENGINE_NAME[basis]})`)
    else na(DEFS.evalLength, 'neither the engine nor the user agent could be identified')
  } else na(DEFS.evalLength, missing(s.engine))

  if (nav) {
    const problems: string[] = []
    const re = PLATFORMS[claimed.os]
    if (re && !re.test(nav.platform)) problems.push(`the user agent claims ${claimed.os}, navigator.platform is "${nav.platform}"`)
    if (nav.uaData) problems.push(...uaHintMismatches(claimed, { brands: nav.uaData.brands, platform: nav.uaData.platform, mobile: nav.uaData.mobile }))
    add(DEFS.uaConsistency, problems.length ? 'fail' : 'pass', problems.length ? problems : `platform "${nav.platform}"${nav.uaData ? `, userAgentData ${nav.uaData.platform} ${brandText(nav.uaData.brands)}` : ''}`, 'the OS, version and brand of the user agent in platform and userAgentData')
  } else na(DEFS.uaConsistency, missing(s.navigator))

  if (lies || wd) {
    const all = [...(lies?.lies ?? []), ...(wd?.ownProperties ?? []).map((p) => ({ api: `Navigator.${p}`, tests: ['own-property'] }))]
    const stealth = all.filter((l) => isAutomationApi(l.api))
    const other = all.filter((l) => !isAutomationApi(l.api))
    if (stealth.length) frameworks.add('stealth')
    const show = (l: typeof all) => l.slice(0, 12).map((x) => `${x.api}: ${x.tests.join(', ')}`)
    add(DEFS.stealthLies, stealth.length ? 'fail' : 'pass', stealth.length ? show(stealth) : `${lies?.tested ?? 0} functions tested`, 'every tested getter and method native')
    add(DEFS.otherLies, other.length ? 'warn' : 'pass', other.length ? show(other) : `${lies?.tested ?? 0} functions tested`, 'every tested getter and method native')
  } else {
    na(DEFS.stealthLies, missing(s.lies))
    na(DEFS.otherLies, missing(s.lies))
  }

  const ip = valueOf(s.iframeProxy)
  if (ip) {
    const problems: string[] = []
    if (!ip.sameAsFrames) problems.push('contentWindow is not window[i]')
    if (!ip.selfIsWindow) problems.push('contentWindow.self is another object')
    if (!ip.getterNative) problems.push('the contentWindow getter is not native code')
    if (valueOf(s.chrome)?.present && ip.chrome === 'undefined') problems.push('window.chrome exists in the page but not in the iframe')
    if (problems.length) frameworks.add('stealth')
    add(DEFS.iframeProxy, problems.length ? 'fail' : 'pass', problems.length ? problems : `the real window (chrome: ${ip.chrome})`, 'the same WindowProxy as window[i], with a native getter')
  } else na(DEFS.iframeProxy, missing(s.iframeProxy))

  for (const [def, other, sig] of [
    [DEFS.iframeScope, iframe, s.iframe],
    [DEFS.workerScope, worker, s.worker],
  ] as const) {
    if (page && other) {
      const diffs = scopeMismatches(page, other)
      add(def, diffs.length ? 'fail' : 'pass', diffs.length ? diffs : 'identical', 'the same user agent, platform, languages, cores, memory, webdriver and time zone')
    } else na(def, missing(s.page, sig))
  }

  const canvas = valueOf(s.canvas)
  if (canvas) {
    const noisy = !canvas.stable || (canvas.knownWrong ?? 0) > 0 || canvas.knownFlat === true
    add(DEFS.canvas, noisy ? 'warn' : 'pass', `hash ${canvas.hash}, ${canvas.stable ? 'equal' : 'different'} on a second read, ${canvas.knownWrong === null ? 'known-answer read refused' : `${canvas.knownWrong} wrong known-answer pixels`}${canvas.knownFlat ? ' (flat image: reading blocked)' : ''}`, 'two equal reads and a known-answer image read back exactly')
  } else na(DEFS.canvas, missing(s.canvas))

  // --- Server side: the request that carried these results
  if (nav) {
    add(DEFS.uaHeader, nav.userAgent === server.userAgent ? 'pass' : 'fail', nav.userAgent === server.userAgent ? server.userAgent : { header: server.userAgent, navigator: nav.userAgent }, 'equal')
  } else na(DEFS.uaHeader, missing(s.navigator))

  const secChUa = header(server, 'sec-ch-ua')
  const headerBrands = secChUa === undefined ? null : parseBrandList(secChUa)
  const platformHeader = header(server, 'sec-ch-ua-platform')
  const mobileHeader = header(server, 'sec-ch-ua-mobile')
  const hintPlatform = platformHeader === undefined ? null : parseSfString(platformHeader)
  const hintMobile = mobileHeader === undefined ? null : parseSfBoolean(mobileHeader)
  if (nav) {
    const observed = { 'sec-ch-ua': secChUa ?? null, 'sec-ch-ua-platform': platformHeader ?? null, 'sec-ch-ua-mobile': mobileHeader ?? null, userAgentData: nav.uaData }
    if (nav.uaData && secChUa === undefined) add(DEFS.hintsNavigator, 'warn', observed, 'Sec-CH-UA headers, since the page has navigator.userAgentData')
    else if (!nav.uaData && secChUa !== undefined) add(DEFS.hintsNavigator, 'fail', observed, 'no Sec-CH-UA header, since the page has no navigator.userAgentData')
    else if (nav.uaData) {
      const problems: string[] = []
      if (!headerBrands || brandKey(headerBrands) !== brandKey(nav.uaData.brands)) problems.push(`brands: header ${secChUa} ≠ navigator ${brandText(nav.uaData.brands)}`)
      if (hintPlatform !== null && hintPlatform !== nav.uaData.platform) problems.push(`platform: header ${hintPlatform} ≠ navigator ${nav.uaData.platform}`)
      if (hintMobile !== null && hintMobile !== nav.uaData.mobile) problems.push(`mobile: header ${hintMobile} ≠ navigator ${nav.uaData.mobile}`)
      add(DEFS.hintsNavigator, problems.length ? 'fail' : 'pass', problems.length ? problems : `${secChUa}; platform ${platformHeader ?? '(not sent)'}; mobile ${mobileHeader ?? '(not sent)'}`, 'the same brands, platform and mobile flag')
    } else na(DEFS.hintsNavigator, 'neither client hints nor navigator.userAgentData (not Chromium, or not a secure context)')
  } else na(DEFS.hintsNavigator, missing(s.navigator))

  const headerClaim = parseUserAgent(server.userAgent)
  if (secChUa !== undefined) {
    const problems = headerBrands ? uaHintMismatches(headerClaim, { brands: headerBrands, platform: hintPlatform, mobile: hintMobile }) : [`Sec-CH-UA is not a brand list: ${secChUa}`]
    add(DEFS.hintsUa, problems.length ? 'fail' : 'pass', problems.length ? problems : `Sec-CH-UA ${secChUa}; platform ${platformHeader ?? '(not sent)'}`, 'the browser, version and OS of the User-Agent in the client hints')
  } else if (headerClaim.engine === 'blink' && (headerClaim.version ?? 0) >= 90 && nav?.secureContext) {
    add(DEFS.hintsUa, 'warn', { 'user-agent': server.userAgent, 'sec-ch-ua': null }, 'Sec-CH-UA headers: Chromium 90+ sends them on every secure-context request')
  } else na(DEFS.hintsUa, 'no client hints to compare (not claimed by a Chromium browser on a secure origin)')

  const core = { webdriver: s.webdriver, cdp: s.cdp, globals: s.globals, navigator: s.navigator, page: s.page, engine: s.engine, lies: s.lies, screen: s.screen, window: s.window }
  const absent = Object.entries(core).filter(([, sig]) => !sig.ok).map(([k, sig]) => `${k}: ${whyMissing(sig)}`)
  add(DEFS.integrity, absent.length >= 3 ? 'fail' : absent.length ? 'warn' : 'pass', absent.length ? absent : `all ${Object.keys(core).length} core probes answered`, 'every core probe answered')

  // The TLS evidence listener's record for this page's nonce (when the page opened a connection
  // to it), or else the fingerprints a trusted TLS-terminating proxy passed in headers: the
  // stack seen against the User-Agent header's claim (src/core/tls-families.ts). What a proxy's
  // headers cannot show (GREASE; any stack from a JA3 hash alone) is not held against the claim.
  const tlsRecord = tlsEvidenceOf(server)
  const byProxy = tlsRecord?.source === 'proxy' ? " (from a trusted proxy's headers)" : ''
  const tlsSeen = tlsRecord?.tls ? tlsFamily(tlsRecord.tls) : null
  if (tlsRecord?.tls && tlsSeen) {
    add(DEFS.tls, familyVerdict(tlsSeen.family, headerClaim), `${tlsRecord.tls.ja4 ?? `JA3 ${tlsRecord.tls.ja3_hash}`}: ${FAMILY_NAME[tlsSeen.family]}${byProxy}`, `the TLS stack of the claimed ${headerClaim.family}`)
  } else if (tlsRecord?.tls) {
    add(DEFS.tls, 'na', `JA3 ${tlsRecord.tls.ja3_hash ?? tlsRecord.tls.ja3n_hash}${byProxy}: a hash alone names no TLS stack`, 'a JA4 or the full JA3 string, to compare the stack with the claimed browser')
  } else na(DEFS.tls, "needs the TLS evidence listener's record for this page (TLS_PORT), or a trusted proxy's JA4/JA3 header (TLS_FINGERPRINT_HEADERS): the ClientHello compared with the claimed browser")
  if (tlsRecord?.http2) {
    const h = http2Family(tlsRecord.http2.akamai)
    add(DEFS.http2, familyVerdict(h.family, headerClaim), `${tlsRecord.http2.akamai}: ${FAMILY_NAME[h.family]}${byProxy}`, `the HTTP/2 stack of the claimed ${headerClaim.family}`)
  } else if (tlsRecord?.source === 'listener') na(DEFS.http2, `an HTTP/2 connection to the TLS evidence listener (it spoke ${tlsRecord.http1?.version ?? 'no HTTP'})`)
  else na(DEFS.http2, "needs the TLS evidence listener's record for this page (TLS_PORT), or a trusted proxy's Akamai HTTP/2 header (TLS_FINGERPRINT_HEADERS): SETTINGS and pseudo-header order compared with the claimed browser")
  // Header order as sent, from the listener's record of this page's connection (the HTTP
  // listener's own view of the request is sorted by name).
  const wire = wireHeaderOrder(server)
  const orderFamily = headerClaim.engine === 'blink' ? 'chromium' : headerClaim.engine === 'gecko' ? 'firefox' : null
  if (!wire) na(DEFS.headerOrder, "needs the TLS evidence listener's record for this page (TLS_PORT): header names in the order they were sent")
  else if (!orderFamily) na(DEFS.headerOrder, `order rules exist for Chromium and Firefox only (the User-Agent claims ${headerClaim.family})`)
  else {
    const o = checkOrder(wire, orderFamily)
    if (o.applied < 2) na(DEFS.headerOrder, `enough of the ordered headers to judge (${wire.join(', ')})`)
    else add(DEFS.headerOrder, o.broken.length ? 'fail' : 'pass', o.broken.length ? { broken: o.broken, names: wire.join(', ') } : wire.join(', '), `${orderFamily} header order`)
  }
  const ipIntel = intelOf(ctx, server.ip)
  if (ipIntel.status === 'found') add(DEFS.datacenter, hostingVerdict(ipIntel.info, BOT_HOSTING), networkText(ipIntel.info), 'a residential or mobile network')
  else na(DEFS.datacenter, whyNoIntel(ipIntel, server.ip)!)

  // --- The sections
  const { score } = summarize(checks)
  const verdict = verdictOf(checks, score)
  const failed = (id: string) => checks.some((c) => c.id === id && c.verdict === 'fail')
  const leaks = {
    webdriver: failed(DEFS.webdriver.id),
    selenium: failed(DEFS.selenium.id),
    phantomjs: failed(DEFS.phantomjs.id),
  }
  // Hidden rather than leaked: the flag's definition was tampered with.
  const hidden = failed(DEFS.webdriverDescriptor.id) || (lies?.lies ?? []).some((l) => l.api === 'Navigator.webdriver')
  const int = (n: number | undefined) => (typeof n === 'number' && Number.isFinite(n) ? Math.round(n) : 0)
  const canvasHash = !canvas ? '' : !canvas.stable || (canvas.knownWrong ?? 0) > 0 ? 'farbled' : canvas.hash
  return {
    checks,
    sections: {
      leaks,
      navigator: { userAgent: nav?.userAgent ?? server.userAgent, platform: nav?.platform ?? '', language: nav?.language ?? '' },
      screen: { width: int(scr?.width), height: int(scr?.height), colorDepth: int(scr?.colorDepth) },
      webgl: { vendor: gl ? gl.unmaskedVendor || gl.vendor : '', renderer: gl ? gl.unmaskedRenderer || gl.renderer : '' },
      canvas: { hash: canvasHash },
      scoring: {
        webdriver: leaks.webdriver ? 'fail' : hidden ? 'warn' : 'pass',
        selenium: leaks.selenium ? 'fail' : 'pass',
        phantomjs: leaks.phantomjs ? 'fail' : 'pass',
      },
      verdict,
      frameworks: [...frameworks],
    } satisfies Static<typeof BotDetectorSections>,
  }
}

export const botDetector = legacyTool({
  id: 'bot-detector',
  signals: BotDetectorSignals,
  sections: BotDetectorSections,
  judge: judgeBotDetector,
})
