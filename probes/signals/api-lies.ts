// "Lies": browser APIs whose getters or methods were replaced in JavaScript. Stealth plugins
// (puppeteer-extra-plugin-stealth, playwright-stealth, undetected drivers' CDP scripts) and
// anti-detect browsers patch navigator.webdriver, plugins, languages, permissions.query,
// WebGL getParameter and window sizes, then patch Function.prototype.toString so the patches
// print `[native code]`. Native functions have other properties a JavaScript replacement does
// not reproduce, tested here after CreepJS src/lies (https://github.com/abrahamjuliot/creepjs):
// - `toString`: Function.prototype.toString of the function is the native form with its name;
// - `prototype`: built-in getters and methods have no `prototype` property;
// - `own-keys`: their own properties are exactly `length` and `name`;
// - `new`: they are not constructors (`new fn()` throws a TypeError);
// - `illegal`: called on an object that is not an instance they throw a TypeError
//   ("Illegal invocation"), which a replacement returning a constant does not;
// - `proxy`: a Proxy around the native function passes all of the above, but
//   `Object.setPrototypeOf(fn, Object.create(fn))` must throw "Cyclic __proto__ value": the
//   spec's cycle check (OrdinarySetPrototypeOf step 8) stops at a Proxy, so on a proxied
//   function it succeeds. The prototype is restored at once.
// Privacy extensions patch some of these too (canvas, WebGL, user agent), which is why the
// judge separates automation-related APIs from the rest.

import type { ApiLie, ApiLies } from '../../common/signals/bot-detector'
import { isNativeFunction, isProxied } from './native'

/** Interface prototypes (by global name, dotted for Intl) and the members tested on them. */
const ON_PROTOTYPES = [
  ['Navigator', 'webdriver userAgent appVersion platform language languages hardwareConcurrency deviceMemory plugins mimeTypes vendor userAgentData maxTouchPoints permissions pdfViewerEnabled'],
  ['Screen', 'width height availWidth availHeight colorDepth pixelDepth'],
  ['HTMLIFrameElement', 'contentWindow srcdoc'],
  ['HTMLCanvasElement', 'toDataURL getContext toBlob'],
  ['CanvasRenderingContext2D', 'getImageData measureText'],
  ['WebGLRenderingContext', 'getParameter getExtension readPixels'],
  ['WebGL2RenderingContext', 'getParameter'],
  ['Permissions', 'query'],
  ['Function', 'toString'],
  ['Date', 'getTimezoneOffset'],
  ['Intl.DateTimeFormat', 'resolvedOptions'],
  ['Element', 'getBoundingClientRect'],
  ['Document', 'hasFocus'],
  ['AudioBuffer', 'getChannelData'],
  ['MediaDevices', 'enumerateDevices'],
  // CDP's Input.dispatchMouseEvent gives screenX/Y equal to clientX/Y; puppeteer-real-browser
  // hides that by redefining these getters in every page (brotector's Input.cordinatesLeak).
  ['MouseEvent', 'screenX screenY'],
] as const

/** Objects that hold the members themselves (the global, a namespace, a static getter). */
const ON_OBJECTS = [
  ['window', 'outerWidth outerHeight innerWidth innerHeight screenX screenY devicePixelRatio'],
  ['Notification', 'permission'],
  ['console', 'debug log'],
] as const

function resolve(path: string): unknown {
  return path.split('.').reduce<unknown>((o, k) => (o == null ? undefined : (o as Record<string, unknown>)[k]), globalThis)
}

function throwsTypeError(run: () => unknown): boolean {
  try {
    const r = run()
    // A promise-returning method rejects instead of throwing: not a lie, and not unhandled.
    if (r && typeof (r as Promise<unknown>).then === 'function') {
      ;(r as Promise<unknown>).then(undefined, () => {})
      return true
    }
    return false
  } catch (e) {
    return e instanceof TypeError
  }
}

/** The failed tests of one member, or null when it does not exist here. */
export function memberLies(owner: object, name: string, instanceCheck: boolean): string[] | null {
  const d = Object.getOwnPropertyDescriptor(owner, name)
  if (!d) return null
  const fn = d.get ?? d.value
  if (typeof fn !== 'function') return ['value']
  const failed: string[] = []
  if (!isNativeFunction(fn, name)) failed.push('toString')
  if ('prototype' in fn) failed.push('prototype')
  if (Object.getOwnPropertyNames(fn).sort().join() !== 'length,name') failed.push('own-keys')
  if (!throwsTypeError(() => new (fn as new () => unknown)())) failed.push('new')
  if (instanceCheck && !throwsTypeError(() => fn.call(Object.create(owner)))) failed.push('illegal')
  if (isProxied(fn)) failed.push('proxy')
  return failed
}

export function apiLies(): ApiLies {
  let tested = 0
  const lies: ApiLie[] = []
  const run = (label: string, owner: unknown, names: string, instanceCheck: boolean) => {
    if (owner == null || (typeof owner !== 'object' && typeof owner !== 'function')) return
    for (const name of names.split(' ')) {
      const failed = memberLies(owner, name, instanceCheck)
      if (!failed) continue
      tested++
      if (failed.length) lies.push({ api: `${label}.${name}`, tests: failed })
    }
  }
  for (const [iface, names] of ON_PROTOTYPES) run(iface, (resolve(iface) as { prototype?: unknown } | undefined)?.prototype, names, true)
  for (const [path, names] of ON_OBJECTS) run(path, resolve(path), names, false)
  return { tested, lies }
}
