// Is third-party storage partitioned? Since Chromium 115 (and in Firefox with Total Cookie
// Protection) a frame's storage is keyed by the top-level site and by whether a cross-site frame
// sits between it and the top, so a frame of the page's own origin nested under a cross-site
// frame (A → B → A) gets its own, empty localStorage. Playwright, and patchright with it, start
// Chromium with --disable-features=ThirdPartyStoragePartitioning (its chromiumSwitches.ts,
// microsoft/playwright#32230): there the nested frame shares the page's storage, or, with
// third-party cookies blocked as Chromium 156 ships, is refused it (SecurityError).
// https://developers.google.com/privacy-sandbox/cookies/storage-partitioning
//
// The cross-site frame is a data: URL (an opaque origin, cross-site to everything), so no
// second host name is needed; the nested frame is /probe/frame, an empty page of this origin.
// The page reaches it through the data: frame's frames collection (indexed access is allowed
// across origins) and reads its localStorage directly, as same-origin script may. Nothing is
// left behind: the frame is removed and the key deleted.

import type { StoragePartition } from '../../common/signals/bot-detector'
import { ProbeError } from '../core/probe-error'
import { WORKER_TIMEOUT_MS } from '../core/worker'

const POLL_MS = 15
/**
 * How long the nested frame may take to load. Like a worker, a frame under a data: frame loads
 * in a few milliseconds on an idle machine and in seconds on a busy one (2.5 s was too short
 * under a load average of 11 on two cores, issue 36): slowness, not a lie, so the same budget
 * as a worker's. A frame that never loads is still reported, as a timeout (the check is `na`).
 */
export const FRAME_TIMEOUT_MS = WORKER_TIMEOUT_MS

/** The nested frame once its own document has loaded, or null while it is not there yet. */
function nestedFrame(outer: HTMLIFrameElement): Window | null {
  try {
    const inner = outer.contentWindow?.[0]
    // Before it loads, the nested frame is an about:blank of the data: frame's opaque origin,
    // and reading its location throws.
    if (!inner || inner.location.href === 'about:blank' || inner.document.readyState !== 'complete') return null
    return inner
  } catch {
    return null
  }
}

export function storagePartition(doc: Document = document, win: Window = window, frameUrl = `${location.origin}/probe/frame`, timeoutMs = FRAME_TIMEOUT_MS): Promise<StoragePartition> {
  const key = `antibot-partition-${Math.random().toString(36).slice(2)}`
  const value = String(Date.now())
  try {
    win.localStorage.setItem(key, value)
  } catch (e) {
    return Promise.reject(new ProbeError('blocked', `the page cannot use localStorage: ${String(e)}`))
  }
  const outer = doc.createElement('iframe')
  outer.hidden = true
  outer.src = `data:text/html,${encodeURIComponent(`<iframe src="${frameUrl}"></iframe>`)}`
  const withResolvers = typeof (Promise as unknown as { withResolvers?: unknown }).withResolvers === 'function'
  return new Promise<StoragePartition>((resolve, reject) => {
    const started = Date.now()
    const finish = (r: StoragePartition | ProbeError) => {
      clearInterval(timer)
      outer.remove()
      win.localStorage.removeItem(key)
      if (r instanceof ProbeError) reject(r)
      else resolve(r)
    }
    const timer = setInterval(() => {
      const inner = nestedFrame(outer)
      if (!inner) {
        if (Date.now() - started > timeoutMs) finish(new ProbeError('timeout', `the nested frame did not load within ${timeoutMs} ms`))
        return
      }
      try {
        const seen = inner.localStorage.getItem(key)
        finish({ state: seen === value ? 'shared' : 'partitioned', error: null, withResolvers })
      } catch (e) {
        finish({ state: 'denied', error: (e instanceof Error ? `${e.name}: ${e.message}` : String(e)).slice(0, 200), withResolvers })
      }
    }, POLL_MS)
    doc.body.append(outer)
  })
}
