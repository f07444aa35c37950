// window.chrome: every Chromium browser defines it (loadTimes, csi, app; `runtime` only where
// an extension lets the page talk to it). Old headless Chromium had none, so stealth plugins
// add a mock, usually with `chrome.runtime.sendMessage`/`connect` written in JavaScript:
// those mocks are constructible (`new chrome.runtime.sendMessage()` works) and not native
// code, unlike the real bindings. After CreepJS (headless: "chrome runtime is mocked") and
// puppeteer-extra-plugin-stealth's chrome.runtime evasion.

import type { ChromeFn, ChromeObject } from '../../common/signals/bot-detector'
import { isNativeFunction } from './native'

function inspect(fn: unknown): ChromeFn | null {
  if (typeof fn !== 'function') return null
  let constructible = true
  try {
    new (fn as new () => unknown)()
  } catch (e) {
    constructible = !(e instanceof TypeError)
  }
  return { native: isNativeFunction(fn), constructible }
}

export function chromeObject(): ChromeObject {
  const c = (window as unknown as { chrome?: Record<string, unknown> }).chrome
  if (!c || typeof c !== 'object') return { present: false, keys: [], runtime: false, functions: {} }
  const rt = c.runtime as Record<string, unknown> | undefined
  const fns: Record<string, unknown> = { loadTimes: c.loadTimes, csi: c.csi, 'runtime.sendMessage': rt?.sendMessage, 'runtime.connect': rt?.connect }
  const functions: Record<string, ChromeFn> = {}
  for (const [k, f] of Object.entries(fns)) {
    const info = inspect(f)
    if (info) functions[k] = info
  }
  return { present: true, keys: Object.keys(c).slice(0, 20), runtime: !!rt, functions }
}
