// navigator.userAgent as a SharedWorker sees it. A user agent set over the DevTools protocol
// (Playwright's and patchright's `userAgent` context option, Puppeteer's page.setUserAgent)
// applies to the page and the dedicated workers the client attaches to, not to shared workers,
// which belong to no page: in headless Chromium they still say "HeadlessChrome".
// https://chromedevtools.github.io/devtools-protocol/tot/Emulation/#method-setUserAgentOverride
// (per target). Found on this project's matrix with patchright-core 1.63 (issue 11).

import type { SharedWorkerUa } from '../../common/signals/bot-detector'
import { ProbeError } from '../core/probe-error'
import { inWorker, WORKER_TIMEOUT_MS } from '../core/worker'

export const sharedWorkerUa = inWorker(
  (): Promise<SharedWorkerUa> =>
    new Promise((resolve, reject) => {
      if (typeof SharedWorker === 'undefined') return reject(new ProbeError('unsupported', 'no SharedWorker'))
      const url = URL.createObjectURL(new Blob(['onconnect=(e)=>e.ports[0].postMessage(navigator.userAgent)'], { type: 'text/javascript' }))
      let worker: SharedWorker
      try {
        worker = new SharedWorker(url)
      } catch (e) {
        URL.revokeObjectURL(url)
        return reject(new ProbeError('blocked', `cannot start a shared worker: ${String(e)}`))
      }
      const done = () => {
        clearTimeout(timer)
        worker.port.close()
        URL.revokeObjectURL(url)
      }
      const timer = setTimeout(() => {
        done()
        reject(new ProbeError('timeout', `shared worker gave no answer within ${WORKER_TIMEOUT_MS} ms`))
      }, WORKER_TIMEOUT_MS)
      worker.port.onmessage = (ev: MessageEvent<unknown>) => {
        done()
        resolve({ userAgent: String(ev.data).slice(0, 400) })
      }
    }),
)
