// sourceURL leaks: code that automation evaluates in the page carries the tool's name in its
// stack frames. Puppeteer tags evaluated code `//# sourceURL=pptr:evaluate;…` (older versions
// `__puppeteer_evaluation_script__`); Playwright runs page.evaluate through its injected
// `UtilityScript` class (frames `at UtilityScript.evaluate (<anonymous>:…)`, older versions
// `__playwright_evaluation_script__`); a raw DevTools client's Runtime.evaluate and Selenium's
// execute_script leave frames without a script URL (`at <anonymous>:1:15`). A page sees those
// frames when the evaluated code calls one of its functions, so the DOM lookups automation uses
// (and the document.body and dataset getters, which a script waiting for `data-task` reads)
// are wrapped from the start until the page submits, and every caller's stack is kept. What
// code without a URL asks for is kept too (`dataset.task`, `querySelector(body[data-task])`):
// a script polling for the task id is a driver waiting for the result. After
// rebrowser-bot-detector's sourceUrlLeak test: https://github.com/rebrowser/rebrowser-bot-detector
// Playwright locators and code in an isolated world (Page.createIsolatedWorld) run against
// wrappers of their own and never call these.

import type { StackLeaks } from '../../common/signals/bot-detector'

const METHODS = [
  ['Document', 'getElementById querySelector querySelectorAll getElementsByTagName getElementsByClassName evaluate'],
  ['Element', 'querySelector querySelectorAll getAttribute hasAttribute matches closest getElementsByTagName'],
] as const
const GETTERS = [
  ['Document', 'body'],
  ['HTMLElement', 'dataset'],
] as const

/** A frame of code evaluated without a script URL (V8's `<anonymous>:1:2`, `eval at`; SpiderMonkey's eval frames). */
const EVALUATED = /<anonymous>:\d+:\d+|eval at |@debugger eval code|^@:\d+:\d+|> eval:\d+:\d+/

export interface StackWatch {
  /** Unwraps and reports what was seen since the start. */
  stop(): StackLeaks
}

/** Wraps the DOM lookups now, until stop(). */
export function watchStackLeaks(): StackWatch {
  // This script's own URL (V8 "at f (URL:1:2)", Firefox/Safari "f@URL:1:2"): its frames are ours.
  const own = /((?:https?|blob):[^\s()@]+?):\d+:\d+/.exec(new Error().stack ?? '')?.[1] ?? '\u0000'
  const frames = new Set<string>()
  const reads = new Set<string>()
  const restore: Array<() => void> = []
  let calls = 0
  /** Keeps the foreign frames of a caller's stack; true when code without a URL made the call. */
  const record = (stack: string | undefined): boolean => {
    calls++
    let evaluated = false
    for (const line of (stack ?? '').split('\n')) {
      const f = line.trim()
      if (f.includes(own) || !/:\d+:\d+\)?$|pptr:|UtilityScript|__p(?:uppeteer|laywright)/.test(f)) continue
      if (frames.size < 12) frames.add(f.slice(0, 200))
      if (EVALUATED.test(f)) evaluated = true
    }
    return evaluated
  }
  const note = (what: string) => {
    if (reads.size < 12) reads.add(what.slice(0, 120))
  }
  const prototypeOf = (iface: string) => (globalThis as unknown as Record<string, { prototype: object } | undefined>)[iface]?.prototype
  for (const [iface, names] of METHODS) {
    const proto = prototypeOf(iface)
    if (!proto) continue
    for (const name of names.split(' ')) {
      const d = Object.getOwnPropertyDescriptor(proto, name)
      const orig = d?.value
      if (!d || typeof orig !== 'function') continue
      Object.defineProperty(proto, name, {
        ...d,
        value: function (this: unknown, ...args: unknown[]) {
          if (record(new Error().stack)) note(`${name}(${args.map((a) => String(a)).join(', ')})`)
          return orig.apply(this, args)
        },
      })
      restore.push(() => Object.defineProperty(proto, name, d))
    }
  }
  for (const [iface, name] of GETTERS) {
    const proto = prototypeOf(iface)
    const d = proto && Object.getOwnPropertyDescriptor(proto, name)
    const get = d?.get
    if (!proto || !d || !get) continue
    Object.defineProperty(proto, name, {
      ...d,
      get: function (this: unknown) {
        const value = get.call(this)
        if (!record(new Error().stack)) return value
        note(name)
        // What evaluated code reads of a dataset (`dataset.task`) is told by a Proxy given to it alone.
        return name === 'dataset' && value && typeof value === 'object'
          ? new Proxy(value as object, {
              get: (t, p) => {
                note(`dataset.${String(p)}`)
                return Reflect.get(t, p)
              },
            })
          : value
      },
    })
    restore.push(() => Object.defineProperty(proto, name, d))
  }
  const hooked = restore.length
  return {
    stop() {
      for (const r of restore.splice(0)) r()
      return { hooked, calls, frames: [...frames], reads: [...reads] }
    },
  }
}
