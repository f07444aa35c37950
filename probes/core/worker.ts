// Runs a self-contained function in a dedicated worker and returns its result. Workers are
// where automation patches are most often forgotten (navigator.webdriver, userAgent, time zone
// overridden in the page but not in workers), so several tools compare the two.
// The function is serialised with toString(): it must not refer to anything outside itself.

import { ProbeError } from './errors'

export function runInWorker<T>(fn: () => T | Promise<T>, timeoutMs = 2000): Promise<T> {
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
