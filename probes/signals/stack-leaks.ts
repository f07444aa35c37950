// sourceURL leaks: code that automation evaluates in the page carries the tool's name in its
// stack frames. Puppeteer tags evaluated code `//# sourceURL=pptr:evaluate;…` (older versions
// `__puppeteer_evaluation_script__`); Playwright runs page.evaluate through its injected
// `UtilityScript` class (frames `at UtilityScript.evaluate (<anonymous>:…)`, older versions
// `__playwright_evaluation_script__`). A page sees those frames when the evaluated code calls
// one of its functions, so the DOM lookups automation uses are wrapped while the tests run and
// every caller's stack is kept. After rebrowser-bot-detector's sourceUrlLeak test:
// https://github.com/rebrowser/rebrowser-bot-detector
// Only calls made while the page runs are seen (the window below); Playwright locators run in
// an isolated world and never call these wrappers.

import type { StackLeaks } from '../../common/signals/bot-detector'

const HOOKS = [
  ['Document', 'getElementById querySelector querySelectorAll getElementsByTagName getElementsByClassName evaluate'],
  ['Element', 'querySelector querySelectorAll getAttribute getElementsByTagName'],
] as const

/** Wraps the DOM lookups now; the returned source waits `windowMs`, unwraps and reports. */
export function watchStackLeaks(windowMs = 500): () => Promise<StackLeaks> {
  const started = Date.now()
  // This script's own URL (V8 "at f (URL:1:2)", Firefox/Safari "f@URL:1:2"): its frames are ours.
  const own = /((?:https?|blob):[^\s()@]+?):\d+:\d+/.exec(new Error().stack ?? '')?.[1] ?? '\u0000'
  const frames = new Set<string>()
  const restore: Array<() => void> = []
  let calls = 0
  const record = (stack: string | undefined) => {
    calls++
    for (const line of (stack ?? '').split('\n')) {
      const f = line.trim()
      if (frames.size < 12 && /:\d+:\d+\)?$|pptr:|UtilityScript|__p(?:uppeteer|laywright)/.test(f) && !f.includes(own)) frames.add(f.slice(0, 200))
    }
  }
  for (const [iface, names] of HOOKS) {
    const proto = (globalThis as unknown as Record<string, { prototype: Record<string, unknown> } | undefined>)[iface]?.prototype
    if (!proto) continue
    for (const name of names.split(' ')) {
      const d = Object.getOwnPropertyDescriptor(proto, name)
      const orig = d?.value
      if (!d || typeof orig !== 'function') continue
      Object.defineProperty(proto, name, {
        ...d,
        value: function (this: unknown, ...args: unknown[]) {
          record(new Error().stack)
          return orig.apply(this, args)
        },
      })
      restore.push(() => Object.defineProperty(proto, name, d))
    }
  }
  return async () => {
    await new Promise((r) => setTimeout(r, Math.max(0, started + windowMs - Date.now())))
    for (const r of restore) r()
    return { hooked: restore.length, calls, frames: [...frames] }
  }
}
