// A replayer that runs the page's own scripts without a browser (issue 56): what a scraper
// author who read this open-source service would build to answer whatever a page load asks for
// itself (its nonce, its side fetch, its proof) while everything else comes from a recording.
// - A real person's Chromium runs bot-detector on a second instance of the service (./replay-client.ts,
//   recordVisit); its headers and signals are made to claim Chromium 149 (./claim.ts), the version
//   wreq-js's chrome_149 profile copies, through which every request goes.
// - The target page is fetched as Chromium fetches it (twice, for Critical-CH) and parsed by
//   jsdom (npm); its bundle (/assets/probes/bot-detector.<hash>.js, a module script, which jsdom
//   does not run itself) is fetched and run in the page's window under its own URL (vm.Script's
//   filename, so the stacks the page reads name it as a browser's would).
// - The window carries the recorded person's values: Navigator (user agent, platform, vendor,
//   languages, hardware, userAgentData with getHighEntropyValues, plugins and MIME types, the
//   webdriver getter), Screen, the window's sizes and devicePixelRatio, matchMedia for the
//   pointer queries, Notification and navigator.permissions, window.chrome, history's
//   replaceState cap (Chromium applies 200 calls in 10 s), workers and a shared worker in vm
//   realms of their own with the worker's navigator, URL.createObjectURL for their blobs; every
//   stub is a getter or function whose Function.prototype.toString reads as native code.
// - fetch is a shim over wreq: the page's side fetch to the HTTPS port on a connection of its
//   own, its POST with Chromium's fetch headers. The POST's signals are the page's own where the
//   stubs made them as Chromium would; where jsdom cannot (no layout, canvas pixels or WebGL, JSC's
//   error texts under Bun, frames and storage partitioning of nested frames), the recorded
//   person's signal is put in, as a scraper patches what its emulator gets wrong (FROM_RECORDING).
//   The proof is the page's: jsdom lays nothing out, so its boxes are all at 0.
// `jsdom-layout` (opt-in, run.ts) is the same replayer answering the proof with the server's own
// model of the layout (src/core/page-proof.ts layOut of common/page-proof.ts proofChallenge), as
// the author of a copy of this open-source service can: what the proof cannot stop as designed.

import { Script, createContext, type Context } from 'node:vm'
import { JSDOM, VirtualConsole } from 'jsdom'
import { proofChallenge } from '../../common/page-proof'
import { layOut } from '../../src/core/page-proof'
import type { Client } from './clients'
import type { PersonContext } from './person'
import { claimed, ORDERS, ordered, pageParams, PROFILE_CHROMIUM, recordVisit, REPLAY_PROFILES, wreqHttp } from './replay-client'

/** Signals jsdom cannot make as Chromium does, taken from the recording (what each lacks). */
export const FROM_RECORDING: Record<string, string> = {
  engine: "the engine's error texts and eval's source length (jsdom runs in Bun's JavaScriptCore, not V8)",
  canvas: 'canvas pixels (no canvas package: getContext gives null)',
  webgl: 'WebGL (none)',
  frames: "animation frames at the display's rate (pretendToBeVisual's requestAnimationFrame ticks at 60 Hz, but not as a compositor does)",
  partition: 'storage partitioning of a nested frame under a data: URL frame (jsdom loads neither the way Chromium does)',
  iframe: 'a srcdoc frame (jsdom gives no load event for srcdoc)',
  iframeProxy: 'the srcdoc frame the probe waits for',
  lies: 'every getter and function of the 52 tested being native (jsdom implements many in JavaScript: their descriptors and prototypes are not what Blink has)',
}

type Signals = Record<string, { ok: boolean; value?: Record<string, unknown> }>
/** A realm's global being stubbed (jsdom's window, a worker's vm context), reached into by name. */
// biome-ignore lint/suspicious/noExplicitAny: the emulator's window is untyped to the code that stubs it
type Realm = Record<string, any>
type Fn = (...args: never[]) => unknown

const NATIVE = (name: string) => `function ${name}() { [native code] }`

/** Values of the recorded person, with defaults for what the recording does not show. */
interface Person {
  navigator: Record<string, unknown> & { uaData?: { brands: Array<{ brand: string; version: string }>; mobile: boolean; platform: string } | null }
  page: Record<string, unknown>
  worker: Record<string, unknown>
  screen: Record<string, unknown>
  window: Record<string, unknown>
  plugins: { plugins: Array<{ name: string; filename: string; mimeTypes: string[] }>; pdfViewerEnabled: boolean | null }
  pointer: { pointer: string | null; anyPointer: string[]; hover: string | null; anyHover: string[] }
  notification: { notification: string | null; query: string | null }
  chrome: { keys: string[] }
  fullVersionList: Array<{ brand: string; version: string }>
}

function personOf(signals: Signals, sent: Record<string, string>): Person {
  const v = (k: string) => (signals[k]?.ok ? (signals[k]!.value as Record<string, unknown>) : {})
  const fullVersionList = (sent['sec-ch-ua-full-version-list'] ?? '').split(/,\s*/).flatMap((p) => {
    const m = /^"([^"]+)";v="([^"]+)"$/.exec(p.trim())
    return m ? [{ brand: m[1]!, version: m[2]! }] : []
  })
  return {
    navigator: v('navigator') as Person['navigator'],
    page: v('page'),
    worker: v('worker'),
    screen: v('screen'),
    window: v('window'),
    plugins: v('plugins') as unknown as Person['plugins'],
    pointer: v('pointer') as unknown as Person['pointer'],
    notification: v('notification') as unknown as Person['notification'],
    chrome: v('chrome') as unknown as Person['chrome'],
    fullVersionList,
  }
}

/** Makes stubs read as native code through Function.prototype.toString, the way a stealth patch does. */
function nativeLooking(w: Realm): (fn: Fn, name: string) => Fn {
  const names = new WeakMap<Fn, string>()
  const proto = w.Function.prototype
  const original = proto.toString
  const patched = {
    toString(this: Fn) {
      const name = names.get(this)
      return name !== undefined ? NATIVE(name) : original.call(this)
    },
  }.toString
  names.set(patched, 'toString')
  Object.defineProperty(proto, 'toString', { value: patched, writable: true, configurable: true, enumerable: false })
  return (fn, name) => {
    names.set(fn, name)
    return fn
  }
}

/** A getter named `get <name>` that returns `value`, as Blink's accessors are named. */
const namedGetter = (name: string, value: unknown): (() => unknown) =>
  Object.getOwnPropertyDescriptor({ get [name]() { return value } }, name)!.get!

/** Defines getters on `target` that return `values` (own accessors of the prototype, as Blink's are). */
function getters(native: ReturnType<typeof nativeLooking>, target: object, values: Record<string, unknown>): void {
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) continue
    Object.defineProperty(target, name, { get: native(namedGetter(name, value), `get ${name}`) as () => unknown, configurable: true, enumerable: true })
  }
}

/** A navigator for a realm: the page's (with webdriver) or a worker's. */
function navigatorValues(w: Realm, p: Person, native: ReturnType<typeof nativeLooking>, inWorker: boolean): Record<string, unknown> {
  const nav = p.navigator
  const scope = inWorker ? p.worker : p.page
  const brands = nav.uaData?.brands ?? []
  const uaData = nav.uaData
    ? Object.assign(Object.create(w.Object.prototype), {
        brands,
        mobile: nav.uaData.mobile,
        platform: nav.uaData.platform,
        getHighEntropyValues: native(async function getHighEntropyValues(hints: string[]) {
          const all: Record<string, unknown> = { brands, mobile: nav.uaData!.mobile, platform: nav.uaData!.platform, architecture: 'x86', bitness: '64', model: '', platformVersion: '6.1.0', fullVersionList: p.fullVersionList, uaFullVersion: p.fullVersionList.find((b) => b.brand === 'Chromium')?.version, wow64: false, formFactors: ['Desktop'] }
          return Object.fromEntries(['brands', 'mobile', 'platform', ...hints].filter((h) => h in all).map((h) => [h, all[h]]))
        }, 'getHighEntropyValues'),
        toJSON: native(function toJSON() { return { brands, mobile: nav.uaData!.mobile, platform: nav.uaData!.platform } }, 'toJSON'),
      })
    : undefined
  return {
    userAgent: nav.userAgent,
    appVersion: nav.appVersion,
    platform: nav.platform,
    vendor: nav.vendor,
    language: nav.language,
    languages: Object.freeze([...((nav.languages as string[]) ?? [])]),
    hardwareConcurrency: scope.hardwareConcurrency ?? 4,
    deviceMemory: scope.deviceMemory ?? 8,
    ...(inWorker ? {} : { webdriver: false, maxTouchPoints: 0, pdfViewerEnabled: p.plugins.pdfViewerEnabled ?? true, cookieEnabled: true, doNotTrack: null }),
    userAgentData: uaData,
  }
}

/** Chromium's PDF plugins and MIME types, built on jsdom's own PluginArray/MimeTypeArray prototypes. */
function pluginValues(w: Realm, p: Person): { plugins: unknown; mimeTypes: unknown } {
  const types = new Map<string, Record<string, unknown>>()
  const plugins = Object.create(w.PluginArray.prototype)
  const list = p.plugins.plugins ?? []
  list.forEach((pl, i) => {
    const plugin = Object.create(w.Plugin.prototype)
    const own = { name: pl.name, filename: pl.filename, description: 'Portable Document Format', length: pl.mimeTypes.length }
    for (const [k, v] of Object.entries(own)) Object.defineProperty(plugin, k, { value: v, enumerable: true })
    pl.mimeTypes.forEach((type, j) => {
      const mt = types.get(type) ?? Object.create(w.MimeType.prototype)
      for (const [k, v] of Object.entries({ type, suffixes: 'pdf', description: 'Portable Document Format', enabledPlugin: plugin })) Object.defineProperty(mt, k, { value: v, configurable: true, enumerable: true })
      types.set(type, mt)
      Object.defineProperty(plugin, j, { value: mt, enumerable: true })
    })
    plugin[Symbol.iterator] = Array.prototype[Symbol.iterator]
    Object.defineProperty(plugins, i, { value: plugin, enumerable: true })
    Object.defineProperty(plugins, pl.name, { value: plugin })
  })
  Object.defineProperty(plugins, 'length', { value: list.length })
  plugins[Symbol.iterator] = Array.prototype[Symbol.iterator]
  const mimeTypes = Object.create(w.MimeTypeArray.prototype)
  for (const [i, mt] of [...types.values()].entries()) Object.defineProperty(mimeTypes, i, { value: mt, enumerable: true })
  Object.defineProperty(mimeTypes, 'length', { value: types.size })
  mimeTypes[Symbol.iterator] = Array.prototype[Symbol.iterator]
  return { plugins, mimeTypes }
}

/** A worker's realm: vm context with the worker's navigator, postMessage and onmessage. */
function workerRealm(p: Person, code: string, post: (data: unknown) => void): Context {
  const realm: Realm = createContext({})
  const g = new Script('this').runInContext(realm) as Realm
  const native = nativeLooking(g)
  const nav = Object.create(g.Object.prototype)
  getters(native, nav, navigatorValues(g, p, native, true))
  Object.assign(g, { self: g, navigator: nav, postMessage: native((data: unknown) => post(structuredClone(data)), 'postMessage'), setTimeout, clearTimeout, console })
  new Script(code, { filename: 'blob:worker' }).runInContext(realm)
  return realm
}

function installStubs(dom: JSDOM, p: Person, blobs: Map<string, string>): void {
  const w = dom.window as unknown as Realm
  const native = nativeLooking(w)
  // jsdom's window has no isSecureContext; the page is on HTTPS or on 127.0.0.1, both secure.
  getters(native, w, { isSecureContext: true })
  getters(native, w.Navigator.prototype, { ...navigatorValues(w, p, native, false), ...pluginValues(w, p) })
  const permissions = Object.create(w.Object.prototype)
  permissions.query = native(async function query() { return { state: p.notification.query ?? 'prompt', onchange: null } }, 'query')
  getters(native, w.Navigator.prototype, { permissions })
  getters(native, w.Screen.prototype, { ...p.screen, orientation: { type: p.screen.orientation ?? 'landscape-primary', angle: 0 } })
  for (const [k, v] of Object.entries(p.window)) Object.defineProperty(w, k, { get: native(namedGetter(k, v), `get ${k}`) as () => unknown, configurable: true })
  // matchMedia for the pointer and hover queries, as the person's screen answers them.
  w.matchMedia = native(function matchMedia(query: string) {
    const m = /^\((any-)?(pointer|hover):\s*(\w+)\)$/.exec(query)
    let matches = false
    if (m) {
      const [, any, feature, value] = m
      const pt = p.pointer
      matches = feature === 'pointer' ? (any ? pt.anyPointer.includes(value!) : pt.pointer === value) : any ? pt.anyHover.includes(value!) : pt.hover === value
    }
    return { matches, media: query, onchange: null, addEventListener() {}, removeEventListener() {}, addListener() {}, removeListener() {} }
  }, 'matchMedia')
  const Notification = native(function Notification() { throw new w.TypeError("Failed to construct 'Notification': Illegal constructor") }, 'Notification')
  Object.defineProperty(Notification, 'permission', { get: native(() => p.notification.notification ?? 'default', 'get permission') as () => string })
  w.Notification = Notification
  const chrome: Record<string, unknown> = {}
  for (const key of p.chrome.keys ?? ['loadTimes', 'csi', 'app']) {
    // biome-ignore lint/complexity/useArrowFunction: Chromium's chrome.loadTimes and csi are constructible, arrows are not
    chrome[key] = key === 'app' ? { isInstalled: false, InstallState: {}, RunningState: {} } : native(function () { return {} }, key)
  }
  w.chrome = chrome
  // Chromium applies at most 200 history changes in 10 s and ignores the rest.
  const replace = w.History.prototype.replaceState
  let applied = 0
  w.History.prototype.replaceState = native(function replaceState(this: unknown, ...args: unknown[]) {
    if (++applied <= 200) return replace.apply(this, args)
  }, 'replaceState')
  // Workers: blob URLs of the page's own worker code, run in vm realms of their own.
  w.URL.createObjectURL = native(function createObjectURL(blob: { _text?: string }) {
    const url = `blob:${new URL(dom.window.location.href).origin}/${crypto.randomUUID()}`
    blobs.set(url, blob._text ?? '')
    return url
  }, 'createObjectURL')
  w.URL.revokeObjectURL = native(function revokeObjectURL(url: string) { blobs.delete(url) }, 'revokeObjectURL')
  const RealBlob = w.Blob
  w.Blob = native(function Blob(parts: unknown[], opts?: unknown) {
    const b = new RealBlob(parts, opts)
    Object.defineProperty(b, '_text', { value: parts.map(String).join('') })
    return b
  }, 'Blob')
  w.Worker = native(function Worker(this: Realm, url: string) {
    const code = blobs.get(url) ?? ''
    setTimeout(() => {
      try {
        workerRealm(p, code, (data) => setTimeout(() => this.onmessage?.({ data }), 0))
      } catch (e) {
        this.onerror?.({ message: String(e) })
      }
    }, 5)
    this.terminate = () => {}
    this.postMessage = () => {}
  }, 'Worker')
  w.SharedWorker = native(function SharedWorker(this: Realm) {
    const port: Realm = { close() {}, start() {}, postMessage() {} }
    this.port = port
    setTimeout(() => port.onmessage?.({ data: p.navigator.userAgent }), 5)
  }, 'SharedWorker')
}

/** A fetch for the page: its requests through wreq with Chromium's fetch headers; the task's POST with what jsdom got wrong patched from the recording. */
function fetchShim(pageUrl: string, http: Awaited<ReturnType<typeof wreqHttp>>, sent: Record<string, string>, recorded: Signals, patched: string[], proof: Proof) {
  const order = ORDERS.chromium
  const origin = new URL(pageUrl).origin
  const common = { ...sent, 'accept-encoding': order.encoding, referer: pageUrl }
  return async (input: unknown, init: { method?: string; body?: string; headers?: Record<string, string> } = {}) => {
    const url = new URL(String(input), pageUrl)
    let res: { status: number; text(): Promise<string> }
    if (url.origin !== origin) {
      res = await http.side(url.href, ordered(order.side, { ...common, pragma: 'no-cache', 'cache-control': 'no-cache', accept: '*/*', 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty', priority: 'u=4' }))
    } else {
      let body = init.body
      if (url.pathname === '/api/antibot/tasks' && body) {
        const submission = JSON.parse(body) as { results: { signals: Signals } }
        const signals = submission.results.signals
        for (const [name, signal] of Object.entries(recorded)) {
          if (name === 'proof' || name === 'tlsEvidence') continue
          if (name in FROM_RECORDING || !signals[name]?.ok) {
            signals[name] = signal
            patched.push(`${name} (recorded)`)
          }
        }
        if (proof === 'server-model') {
          const { nonce } = submission as unknown as { nonce: string }
          signals.proof = { ok: true, value: { v: 1, boxes: layOut(proofChallenge(nonce)).flat().map(Math.round) }, ms: 14 } as never
          patched.push("proof (the server's layout model's answer)")
        }
        body = JSON.stringify(submission)
      }
      const headers = init.method === 'POST' ? ordered(order.post, { ...common, 'content-type': 'application/json', accept: '*/*', origin, 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty', priority: 'u=1, i' }) : ordered(order.side, { ...common, accept: '*/*', 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty', priority: 'u=1, i' })
      res = await http.request(url.href, { method: init.method === 'POST' ? 'POST' : 'GET', headers, body })
    }
    const text = await res.text()
    return { ok: res.status >= 200 && res.status < 300, status: res.status, text: async () => text, json: async () => JSON.parse(text) }
  }
}

/** Whose answer to the layout challenge the POST carries: the page's in jsdom, or the server's model's. */
type Proof = 'page' | 'server-model'

function jsdomReplayer(proof: Proof): Client {
  return {
    name: `Browserless, the page's scripts run: jsdom (npm) runs the target page's own bundle with a Chromium person's values recorded on another instance stubbed in, its requests through wreq-js (${REPLAY_PROFILES.chromium}), claiming Chromium 149${proof === 'server-model' ? ", the layout challenge answered by the server's own model" : ''}`,
    expected: 'bot',
    ...(proof === 'page' ? { mustFind: ['page-ran'] } : { optIn: true }),
    async run(ctx) {
      const recording = await recordVisit(ctx as PersonContext, 'person', 'other-instance')
      const { sent, signals } = claimed(recording, PROFILE_CHROMIUM.chrome_149)
      const recorded = signals as Signals
      const person = personOf(recorded, sent)
      const order = ORDERS.chromium
      const navigation = { ...sent, 'accept-encoding': order.encoding, 'upgrade-insecure-requests': '1', accept: order.accept, 'sec-fetch-site': 'none', 'sec-fetch-mode': 'navigate', 'sec-fetch-user': '?1', 'sec-fetch-dest': 'document', priority: 'u=0, i' }
      const http = await wreqHttp(REPLAY_PROFILES.chromium)
      try {
        await (await http.request(ctx.pageUrl, { headers: ordered(order.navigation, navigation) })).text()
        const pageRecord = recording.results.server?.evidence?.find((e) => e.kind === 'http2' && e.data.path?.startsWith('/tools/'))
        const res = await http.request(ctx.pageUrl, { headers: ordered(pageRecord?.data.header_order ?? order.navigation, navigation) })
        const html = await res.text()
        pageParams(res.status, html)
        const src = /<script type="module" src="([^"]+)"/.exec(html)?.[1]
        if (!src) throw new Error('the page names no module script')
        const scriptUrl = new URL(src, ctx.pageUrl).href
        const script = await http.request(scriptUrl, { headers: ordered(order.post, { ...sent, 'accept-encoding': order.encoding, accept: '*/*', origin: new URL(ctx.pageUrl).origin, 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'script', referer: ctx.pageUrl, priority: 'u=1' }) })
        const code = await script.text()
        const virtualConsole = new VirtualConsole()
        const dom = new JSDOM(html, { url: ctx.pageUrl, runScripts: 'outside-only', pretendToBeVisual: true, virtualConsole })
        const blobs = new Map<string, string>()
        installStubs(dom, person, blobs)
        const patched: string[] = []
        ;(dom.window as unknown as Record<string, unknown>).fetch = fetchShim(ctx.pageUrl, http, sent, recorded, patched, proof)
        new Script(code, { filename: scriptUrl }).runInContext(dom.getInternalVMContext())
        const body = dom.window.document.body
        const started = Date.now()
        while (!body.dataset.task && !body.dataset.error) {
          if (Date.now() - started > ctx.timeoutMs) throw new Error('the page in jsdom stored no task in time')
          await new Promise((r) => setTimeout(r, 100))
        }
        dom.window.close()
        if (!body.dataset.task) throw new Error(`the page in jsdom reported an error: ${dom.window.document.getElementById('status')?.textContent ?? ''}`)
        console.error(`matrix: jsdom: the page's own signals but ${patched.join(', ')}, put into its POST`)
        return body.dataset.task
      } finally {
        await http.close()
      }
    },
  }
}

/** The page's own answer: jsdom lays nothing out. */
export const jsdomClient = jsdomReplayer('page')
/** The answer computed by the server's public layout model (opt-in: a class the proof does not stop). */
export const jsdomLayoutClient = jsdomReplayer('server-model')
