// The same few navigator and time-zone values read in three places: the page, a fresh
// same-origin iframe and a dedicated worker. A real browser gives the same answers
// everywhere; spoofing done by overriding properties in the page (extensions, stealth
// scripts, CDP overrides applied to one target) tends to miss the iframe's fresh realm or
// the worker, where navigator is a WorkerNavigator with its own getters.
// CreepJS compares the same way (src/worker); so does BotD for the iframe.

import type { ScopeSnapshot } from '../../common/signals/scope'
import { ProbeError } from '../core/probe-error'
import { inWorker, runInWorker } from '../core/worker'

/**
 * Self-contained (it is serialised into the worker): reads the given global, or the current
 * one. Keep it free of imports and outer names.
 */
export function scopeSnapshot(global?: Window): ScopeSnapshot {
  const g = (global || self) as unknown as typeof globalThis
  const n = g.navigator as Navigator & { deviceMemory?: number; userAgentData?: { platform: string; brands: Array<{ brand: string; version: string }> } }
  let timeZone: string | null = null
  try {
    timeZone = new g.Intl.DateTimeFormat().resolvedOptions().timeZone || null
  } catch (e) {
    timeZone = `error: ${String(e)}`
  }
  const uad = n.userAgentData
  return {
    userAgent: n.userAgent,
    platform: n.platform,
    languages: Array.from(n.languages || []),
    hardwareConcurrency: typeof n.hardwareConcurrency === 'number' ? n.hardwareConcurrency : null,
    deviceMemory: typeof n.deviceMemory === 'number' ? n.deviceMemory : null,
    webdriver: typeof n.webdriver === 'boolean' ? n.webdriver : null,
    timeZone,
    timezoneOffset: new g.Date().getTimezoneOffset(),
    uaPlatform: uad ? uad.platform : null,
    uaBrands: uad ? uad.brands.map((b) => `${b.brand}/${b.version}`).join(', ') : null,
  }
}

export function pageScope(): ScopeSnapshot {
  return scopeSnapshot(window)
}

/** Read in a fresh about:blank iframe: a new realm with its own navigator object. */
export function iframeScope(): ScopeSnapshot {
  const f = document.createElement('iframe')
  f.style.cssText = 'position:absolute;width:1px;height:1px;left:-9999px;border:0'
  f.setAttribute('aria-hidden', 'true')
  f.tabIndex = -1
  document.body.appendChild(f)
  try {
    const w = f.contentWindow
    if (!w) throw new ProbeError('blocked', 'the iframe has no contentWindow')
    return scopeSnapshot(w)
  } finally {
    f.remove()
  }
}

export const workerScope = inWorker((): Promise<ScopeSnapshot> => runInWorker(scopeSnapshot))
