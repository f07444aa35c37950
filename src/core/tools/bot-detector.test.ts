import { describe, expect, test } from 'bun:test'
import { TypeCompiler } from '@sinclair/typebox/compiler'
import { Value } from '@sinclair/typebox/value'
import { resultsSchema } from '../results'
import { botDetector } from './bot-detector'
import { BotDetectorSignals, type BotDetectorSignals as Signals } from '../../../common/signals/bot-detector'
import { jsEngineOf } from '../../../common/engine-errors'
import { proxyFingerprintEvidence } from '../../evidence/proxy-fingerprints'
import navigationsFile from '../../evidence/fixtures/navigations.json'
import { fixture } from '../../evidence/fixtures/load'
import { readClientHello } from '../../evidence/tls-client-hello'
import { tlsRecord } from '../../evidence/tls-records'
import type { ServerObservation } from './observation'
import { ok, missing, CHROME_UA, FIREFOX_UA, SAFARI_UA, V8, SPIDERMONKEY, JSC, scope, humanChrome, LINUX_UA, CHROMIUM_HINTS, linuxChromium, chromeServer, playwrightHeadless, judge, failing } from './bot-detector.fixture'

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

  test('Notification denied while permissions.query says prompt fails', () => {
    const s = humanChrome()
    s.notification = ok({ notification: 'denied', query: 'prompt', queryError: null })
    expect(judge(s).byId('notification-permission').verdict).toBe('fail')
    s.notification = ok({ notification: 'denied', query: 'denied', queryError: null })
    expect(judge(s).byId('notification-permission').verdict).toBe('pass')
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

  test('missing signals make their checks na, and a page whose core probes all failed is not human', () => {
    const s = humanChrome()
    for (const k of Object.keys(s) as Array<keyof Signals>) (s as Record<string, unknown>)[k] = missing('error', 'TypeError: undefined is not a function')
    const r = judge(s)
    expect(r.byId('webdriver-flag').verdict).toBe('na')
    expect(r.byId('webdriver-flag').expected).toBe('error: TypeError: undefined is not a function')
    expect(r.byId('probe-integrity').verdict).toBe('fail')
    expect(r.sections.verdict).not.toBe('human')
    expect(r.sections.navigator).toEqual({ userAgent: CHROME_UA, platform: '', language: '' })
    expect(r.sections.screen).toEqual({ width: 0, height: 0, colorDepth: 0 })
    expect(r.sections.canvas).toEqual({ hash: '' })
    const errors = [...Value.Errors(resultsSchema('bot-detector'), r.stored)].map((e) => `${e.path}: ${e.message}`)
    expect(errors).toEqual([])
  })

  test('every probe timing out (a slow device) fails no check, and the verdict is suspicious, not human', () => {
    const s = humanChrome()
    for (const k of Object.keys(s) as Array<keyof Signals>) (s as Record<string, unknown>)[k] = missing()
    const r = judge(s)
    expect(r.byId('webdriver-flag').expected).toBe('timeout: no answer within 3000 ms')
    expect(r.checks.filter((c) => c.verdict === 'fail').map((c) => c.id)).toEqual([])
    expect(r.byId('probe-integrity').verdict).toBe('warn')
    expect(r.sections.verdict).toBe('suspicious')
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

describe('bot-detector engine classifier', () => {
  test('the JavaScript engine is read from error messages, and disagreement gives unknown', () => {
    expect(jsEngineOf(V8)).toBe('blink')
    expect(jsEngineOf(SPIDERMONKEY)).toBe('gecko')
    expect(jsEngineOf(JSC)).toBe('webkit')
    expect(jsEngineOf({ nullError: V8.nullError, rangeError: JSC.rangeError })).toBe('unknown')
    expect(jsEngineOf({ nullError: '', rangeError: SPIDERMONKEY.rangeError })).toBe('gecko')
  })
})

describe('a person behind a TLS-inspecting proxy (issue 56)', () => {
  const chromium = (navigationsFile as { navigations: Array<{ engine: string; step: string; records: Array<{ kind: string; data: unknown }> }> }).navigations.find((n) => n.engine === 'chromium' && n.step === 'typed')!
  const nodeHello = (() => {
    const p = readClientHello(fixture('tls-node-openssl.hex'))
    if (p.status !== 'complete') throw new Error('the fixture is not a hello')
    return tlsRecord(p.hello, { protocol: 'TLSv1.3', alpn: 'http/1.1', cipher: null, offered: ['h2', 'http/1.1'] })
  })()
  const head = { version: 'HTTP/1.1', method: 'GET', path: '/tools/bot-detector', headers: [['host', 'localhost'], ['user-agent', LINUX_UA], ['accept', '*/*'], ['connection', 'keep-alive']], bare_line_feeds: false }
  const server = (records: Array<{ kind: string; data: unknown }>, proof?: ServerObservation['proof']): ServerObservation => ({
    ...chromeServer(LINUX_UA, CHROMIUM_HINTS),
    nonce: 'valid',
    evidence: records.map((r) => ({ ...r, observedAt: 'x' })),
    ...(proof ? { proof } : {}),
  })
  const proxied = [{ kind: 'tls', data: nodeHello }, { kind: 'http1', data: head }]

  test('a proven Chromium 156 whose connection a Node proxy re-encrypts stays human, at most 10 points below its own wire', () => {
    const own = judge(linuxChromium(), server(chromium.records, 'valid'))
    const behind = judge(linuxChromium(), server(proxied, 'valid'))
    expect(failing(behind.checks)).toEqual([])
    expect(behind.byId('tls-interception').verdict).toBe('warn')
    expect(own.byId('tls-interception').verdict).toBe('pass')
    expect(own.score - behind.score).toBeLessThanOrEqual(10)
    expect(behind.sections.verdict).toBe('human')
    for (const id of ['tls-fingerprint', 'http2-fingerprint', 'tls-version', 'header-order-wire']) expect({ id, verdict: behind.byId(id).verdict }).toEqual({ id, verdict: 'na' })
  })

  test('the same wire without a valid proof is a bot (a client that never ran the page)', () => {
    for (const proof of [undefined, 'missing', 'wrong'] as const) {
      const r = judge(linuxChromium(), server(proxied, proof))
      expect(r.byId('tls-version').verdict).toBe('fail')
      expect(r.byId('tls-fingerprint').verdict).toBe('fail')
      expect(r.sections.verdict).toBe('bot')
    }
  })
})
