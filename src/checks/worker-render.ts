// The same 2D drawing and WebGL reading on an OffscreenCanvas in a dedicated worker: the same
// GPU, driver, rasteriser and fonts as the page, so the same strings and pixels. Spoofing that
// patches getParameter, readPixels or toDataURL in the page only shows another GPU or image
// in the worker. CreepJS compares the worker the same way (src/worker).
// https://developer.mozilla.org/docs/Web/API/OffscreenCanvas

import type { CanvasFingerprintSignals, WebglSummary } from '../../common/signals/canvas-fingerprint'
import { checkOn, na } from './define'

const workerCheck = checkOn<CanvasFingerprintSignals>()

/** GPU strings that differ between the page's context and the worker's. */
export function gpuStringDiffs(page: WebglSummary, worker: WebglSummary): string[] {
  const out: string[] = []
  for (const k of ['vendor', 'renderer', 'unmaskedVendor', 'unmaskedRenderer', 'version'] as const) {
    if (page[k] !== worker[k]) out.push(`${k}: page ${JSON.stringify(page[k])}, worker ${JSON.stringify(worker[k])}`)
  }
  return out
}

export const workerWebgl = workerCheck({
  id: 'worker-webgl',
  name: 'A worker sees the same GPU',
  source: 'client',
  why: 'An OffscreenCanvas in a worker uses the same GPU and driver as the page, so the strings and the pixels are the same. Spoofing that patches getParameter or readPixels in the page only shows a different GPU in the worker.',
  ref: 'https://developer.mozilla.org/docs/Web/API/OffscreenCanvas/getContext',
  needs: [],
  uses: ['webgl', 'workerWebgl'],
  judge: ({ webgl: gl, workerWebgl: wgl }, { missing }) => {
    if (!gl) return na('no WebGL in the page')
    if (!wgl) return na(`no WebGL in a worker: ${missing('workerWebgl')}`)
    const diff = gpuStringDiffs(gl, wgl)
    const pixels = gl.pixelsHash !== wgl.pixelsHash
    return {
      verdict: diff.length ? 'fail' : pixels ? 'warn' : 'pass',
      observed: diff.length ? diff.join('; ') : pixels ? `same strings, different pixels: page ${gl.pixelsHash}, worker ${wgl.pixelsHash}` : `same GPU strings and pixels (${wgl.pixelsHash})`,
      expected: 'the page’s GPU strings and pixels',
    }
  },
})

export const workerCanvas = workerCheck({
  id: 'worker-canvas',
  name: 'A worker draws the same 2D image',
  source: 'client',
  why: 'The same 2D drawing on an OffscreenCanvas in a worker uses the same rasteriser and fonts as the page and must give the same pixels; canvas spoofing applied to the page only differs.',
  needs: [],
  uses: ['canvas', 'workerCanvas'],
  judge: ({ canvas: cv, workerCanvas: wcv }, { missing }) => {
    if (!cv) return na('no 2D canvas in the page')
    if (!wcv) return na(`no 2D canvas in a worker: ${missing('workerCanvas')}`)
    const same = wcv.hash === cv.value.hash
    return { verdict: same ? 'pass' : 'fail', observed: same ? `same pixels (${wcv.hash})` : `page ${cv.value.hash}, worker ${wcv.hash}`, expected: 'the page’s pixels' }
  },
})
