// bot-detector: is a person driving this browser, or a program? The page looks for what
// automation leaves behind (the WebDriver flag, CDP's console side effect, framework globals
// and stack frames, headless markers) and for what stealth patches break while hiding it
// (non-native getters, proxies, a mocked window.chrome, values that differ between the page,
// an iframe and a worker). The server adds what it saw itself: the User-Agent and client-hint
// headers. Every check says what fired (src/checks/*); `frameworks` names the tools
// recognised (the checks' labels) and `verdict` sums it up for a person (human / suspicious / bot).
//
// Weights: a finding no real browser produces (webdriver = true, HeadlessChrome, chromedriver
// globals) costs 60, enough alone to reach the `bot` band; a patched API or a
// cross-context mismatch 25–40; tells with known false positives (software GL in VMs,
// full-screen windows, privacy extensions) only warn.

import { Type, type Static } from '@sinclair/typebox'
import { signalValue } from '../../../common/signal'
import { BotDetectorSignals } from '../../../common/signals/bot-detector'
import { summarize } from '../scoring'
import { tcpSynOs } from '../../checks/tcp-syn-os'
import { defineTool } from './types'
import { BOT_VERDICTS, verdictOf } from '../../checks/automation-verdict'
import { canvasFarbled, canvasNoise } from '../../checks/canvas-readback'
import { cdpRuntime } from '../../checks/cdp-console'
import { chromeObject } from '../../checks/chrome-global'
import { secChUaVsNavigator, uaVsClientHints } from '../../checks/client-hints'
import { datacenterIp } from '../../checks/datacenter-ip'
import { defaultViewport } from '../../checks/default-viewport'
import { engineVsUa, evalToString } from '../../checks/engine-vs-ua'
import { automationGlobals, phantomjsTraces, playwrightGlobals, seleniumGlobals } from '../../checks/framework-globals'
import { headerOrderWire } from '../../checks/header-order-wire'
import { listenerAddress } from '../../checks/listener-address'
import { animationFrames, headlessScreen, pointingDevice } from '../../checks/headless-display'
import { headlessBrands, headlessUa, headlessUaHeader, headlessWorkerUa } from '../../checks/headless-markers'
import { navigationRateLimit } from '../../checks/history-flood'
import { iframeProxy } from '../../checks/iframe-window'
import { languagesList } from '../../checks/navigator-languages'
import { apiLies, stealthLies } from '../../checks/native-apis'
import { notificationPermission } from '../../checks/notification-permission'
import { pluginList } from '../../checks/plugin-list'
import { probeIntegrity } from '../../checks/probe-integrity'
import { iframeConsistency, workerConsistency } from '../../checks/scope-consistency'
import { headlessSharedWorkerUa } from '../../checks/shared-worker-ua'
import { glRenderer, webglRenderer } from '../../checks/software-gl'
import { stackSourceUrl } from '../../checks/stack-frames'
import { inputPacing } from '../../checks/input-pacing'
import { inputClock } from '../../checks/input-clock'
import { storagePartitioning } from '../../checks/storage-partition'
import { tlsFingerprintFamily, http2FingerprintFamily } from '../../checks/tls-match'
import { tlsVersion } from '../../checks/tls-version'
import { tlsInterception } from '../../checks/tls-interception'
import { pageRan } from '../../checks/page-ran'
import { replayedRun } from '../../checks/replayed-run'
import { signedAgent } from '../../checks/signed-agent'
import { uaConsistency } from '../../checks/ua-consistency'
import { uaHeaderVsNavigator } from '../../checks/ua-header'
import { webdriverDescriptor, webdriverFlag } from '../../checks/webdriver-flag'
import { windowChrome, windowFitsScreen } from '../../checks/window-geometry'

const Scoring = Type.Union([Type.Literal('pass'), Type.Literal('warn'), Type.Literal('fail')])

/** What judge adds: the interface spec's sections (same shapes as results.ts declares), the verdict and the frameworks. */
export const BotDetectorSections = Type.Object({
  leaks: Type.Object({ webdriver: Type.Boolean(), selenium: Type.Boolean(), phantomjs: Type.Boolean() }),
  navigator: Type.Object({ userAgent: Type.String(), platform: Type.String(), language: Type.String() }),
  screen: Type.Object({ width: Type.Integer(), height: Type.Integer(), colorDepth: Type.Integer() }),
  webgl: Type.Object({ vendor: Type.String(), renderer: Type.String() }, { description: 'Unmasked (WEBGL_debug_renderer_info) where the browser gives it; empty without WebGL.' }),
  canvas: Type.Object({ hash: Type.String({ description: 'Hash of a 2D canvas drawing; "farbled" when read-back noise was detected, empty when the canvas could not be read.' }) }),
  scoring: Type.Object({ webdriver: Scoring, selenium: Scoring, phantomjs: Scoring }),
  // The service's own words: absent on a body of the spec's shape, whose checks are its own
  // `scoring` entries (a client's `verdict` or `frameworks` is dropped, src/core/tools/verified.ts).
  verdict: Type.Optional(
    Type.Union(BOT_VERDICTS.map((v) => Type.Literal(v)), {
      description: "The service's verdict: `bot` when a decisive automation marker fired or the score is 40 or less; `suspicious` below 80; `human` otherwise. Absent on a body of the spec's shape (scored from its own `scoring` entries: the service gives no verdict of its own).",
    }),
  ),
  frameworks: Type.Optional(
    Type.Array(Type.String(), {
      description: "Automation the service recognised: playwright, puppeteer, selenium, phantomjs, nightmare, cypress, webdriver, cdp, headless, stealth, automation-flags (launched with the default arguments of Playwright or Puppeteer), signed-agent (a verified Web Bot Auth signature: `server.agent` names the agent), spoofed-agent (a signature claiming an agent that does not verify). Absent on a body of the spec's shape.",
    }),
  ),
})

export const botDetector = defineTool({
  id: 'bot-detector',
  signals: BotDetectorSignals,
  sections: BotDetectorSections,
  checks: [
    // Automation markers
    [webdriverFlag, 60],
    [webdriverDescriptor, 40],
    [cdpRuntime, 30],
    [navigationRateLimit, 40],
    [storagePartitioning, 60],
    [stackSourceUrl, 40],
    [inputPacing, 60],
    // Input stamped by the browser's clock under X11: alone it makes the verdict bot.
    [inputClock, 60],
    [playwrightGlobals, 60],
    [seleniumGlobals, 60],
    [phantomjsTraces, 60],
    [automationGlobals, 60],
    // Headless markers, named and unnamed
    [headlessUa, 60],
    [headlessWorkerUa, 40],
    [headlessSharedWorkerUa, 60],
    [headlessBrands, 40],
    [headlessUaHeader, 60],
    [pointingDevice, 30],
    [headlessScreen, 30],
    [animationFrames, 40],
    // The browser environment
    [chromeObject, 30],
    [notificationPermission, 25],
    [pluginList, 25],
    [webglRenderer, 16],
    [windowChrome, 20],
    [defaultViewport, 16],
    [windowFitsScreen, 20],
    [languagesList, 12],
    // What the browser does against what it says
    [engineVsUa, 40],
    [evalToString, 30],
    [uaConsistency, 30],
    [stealthLies, 40],
    [apiLies, 16],
    [iframeProxy, 30],
    [iframeConsistency, 30],
    [workerConsistency, 30],
    [canvasNoise, 8],
    // Server side: the request that carried these results
    [uaHeaderVsNavigator, 40],
    [secChUaVsNavigator, 30],
    [uaVsClientHints, 30],
    [probeIntegrity, 30],
    [tlsFingerprintFamily, 40],
    [http2FingerprintFamily, 30],
    [tlsVersion, 60],
    // A proven browser behind a TLS-inspecting middlebox: worth telling, not held against the
    // person (warns: 1 point, so that a person's other harmless warnings, a VM's software GL,
    // keep them where every other person is). The tls-fingerprint tool weighs it as its finding.
    [tlsInterception, 2],
    [replayedRun, 60],
    [pageRan, 60],
    [headerOrderWire, 25],
    [listenerAddress, 10],
    [datacenterIp, 20],
    [tcpSynOs, 30],
    // A Web Bot Auth signature (issue 60): verified, automation by its own word; invalid, an
    // agent's name used without its key. Decisive either way; `na` for every unsigned request.
    [signedAgent, 60],
  ],
  addSections(s, { checks, labels }, server) {
    const nav = signalValue(s.navigator)
    const scr = signalValue(s.screen)
    const gl = signalValue(s.webgl)
    const canvas = signalValue(s.canvas)
    const failed = (id: string) => checks.some((c) => c.id === id && c.verdict === 'fail')
    const leaks = { webdriver: failed(webdriverFlag.id), selenium: failed(seleniumGlobals.id), phantomjs: failed(phantomjsTraces.id) }
    // Hidden rather than leaked: the flag's definition was tampered with.
    const hidden = failed(webdriverDescriptor.id) || (signalValue(s.lies)?.lies ?? []).some((l) => l.api === 'Navigator.webdriver')
    const int = (n: number | undefined) => (typeof n === 'number' && Number.isFinite(n) ? Math.round(n) : 0)
    return {
      leaks,
      navigator: { userAgent: nav?.userAgent ?? server.userAgent, platform: nav?.platform ?? '', language: nav?.language ?? '' },
      screen: { width: int(scr?.width), height: int(scr?.height), colorDepth: int(scr?.colorDepth) },
      webgl: { vendor: gl ? gl.unmaskedVendor || gl.vendor : '', renderer: gl ? glRenderer(gl) : '' },
      canvas: { hash: !canvas ? '' : canvasFarbled(canvas) ? 'farbled' : canvas.hash },
      scoring: {
        webdriver: leaks.webdriver ? 'fail' : hidden ? 'warn' : 'pass',
        selenium: leaks.selenium ? 'fail' : 'pass',
        phantomjs: leaks.phantomjs ? 'fail' : 'pass',
      },
      verdict: verdictOf(checks, summarize(checks).score),
      frameworks: [...labels],
    } satisfies Static<typeof BotDetectorSections>
  },
})
