// Runs a self-contained function in a dedicated worker and returns its result. Workers are
// where automation patches are most often forgotten (navigator.webdriver, userAgent, time zone
// overridden in the page but not in workers), so several tools compare the two.
// The function is serialised with toString(): it must not refer to anything outside itself.

import { patient, type Source } from './collect'
import { ProbeError } from './probe-error'

/**
 * How long a worker may take to answer. Starting one costs a thread and a script load; in a cold
 * browser on a loaded two-core machine that took over two seconds, and a timeout there made a
 * check `na` for no reason of the browser's. A worker that never answers is still reported.
 */
export const WORKER_TIMEOUT_MS = 10_000

/** A signal computed in a worker, with a budget a little above the worker's own timeout. */
export function inWorker<T>(source: () => Promise<T>): Source<T> {
  return patient(source, WORKER_TIMEOUT_MS + 500)
}

export function runInWorker<T>(fn: () => T | Promise<T>, timeoutMs = WORKER_TIMEOUT_MS): Promise<T> {
  if (typeof Worker === 'undefined') return Promise.reject(new ProbeError('unsupported', 'no Worker'))
  const code = `(async () => { try { postMessage({ ok: true, value: await (${fn.toString()})() }) } catch (e) { postMessage({ ok: false, message: String(e && e.message || e) }) } })()`
  const url = URL.createObjectURL(new Blob([code], { type: 'text/javascript' }))
  return new Promise<T>((resolve, reject) => {
    let worker: Worker
    try {
      worker = new Worker(url)
    } catch (e) {
      URL.revokeObjectURL(url)
      reject(new ProbeError('blocked', `cannot start a worker: ${String(e)}`))
      return
    }
    const done = () => {
      clearTimeout(timer)
      worker.terminate()
      URL.revokeObjectURL(url)
    }
    const timer = setTimeout(() => {
      done()
      reject(new ProbeError('timeout', `worker gave no answer within ${timeoutMs} ms`))
    }, timeoutMs)
    worker.onmessage = (ev: MessageEvent<{ ok: boolean; value?: T; message?: string }>) => {
      done()
      if (ev.data.ok) resolve(ev.data.value as T)
      else reject(new Error(ev.data.message))
    }
    worker.onerror = (ev) => {
      done()
      reject(new ProbeError('blocked', `worker failed: ${ev.message || 'error'}`))
    }
  })
}
