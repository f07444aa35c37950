// The same 2D drawing and WebGL reading on an OffscreenCanvas in a dedicated worker: the same
// GPU, driver and rasteriser as the page, so the same strings and pixels. Spoofing that patches
// getParameter, readPixels or toDataURL in the page only shows another GPU or image in the
// worker. CreepJS compares the worker the same way (src/worker).
// Text is the exception, and it depends on the engine: Gecko rasterises glyphs on an
// OffscreenCanvas (in a worker and on the main thread alike) with other anti-aliasing than on
// a page canvas, with or without its fingerprinting protection (Firefox ESR 153 on Linux: the
// same faces and boxes, 421 of 17 600 pixels of the text scene different, every text-free
// shape identical), and a worker there falls back to another face for a missing font. So the
// worker's text-free drawing is compared in every engine, and the text drawing only where
// Blink runs the page, told by its error messages (common/engine-errors.ts), not by the user
// agent. When the page's canvas is noised or blocked, the pixels compare nothing: the
// protection was reported once by the canvas checks (./canvas-integrity.ts).
// https://developer.mozilla.org/docs/Web/API/OffscreenCanvas

import { ENGINE_NAME, judgedBy } from '../../common/engine-errors'
import type { CanvasFingerprintSignals, WebglSummary } from '../../common/signals/canvas-fingerprint'
import { canvasProtection, protectionText, readbackProtection, seeProtection } from './canvas-integrity'
import { runningEngine } from './claimed-browser'
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

const SAME_GPU = 'the page’s GPU strings and pixels'

export const workerWebgl = workerCheck({
  id: 'worker-webgl',
  name: 'A worker sees the same GPU',
  found: 'a worker sees another GPU',
  source: 'client',
  why: 'An OffscreenCanvas in a worker uses the same GPU and driver as the page, so the strings and the pixels are the same (Chromium and Firefox alike). Spoofing that patches getParameter or readPixels in the page only shows a different GPU in the worker. Pixels that differ only warn, and are not compared when anti-fingerprinting noises the read-back (reported by the canvas checks).',
  ref: 'https://developer.mozilla.org/docs/Web/API/OffscreenCanvas/getContext',
  expected: SAME_GPU,
  needs: [],
  uses: ['webgl', 'workerWebgl', 'canvas', 'knownAnswer'],
  judge: ({ webgl: gl, workerWebgl: wgl, canvas, knownAnswer }, { missing, raw }) => {
    if (!gl) return na('no WebGL in the page')
    if (!wgl) return na(`no WebGL in a worker: ${missing('workerWebgl')}`)
    const diff = gpuStringDiffs(gl, wgl)
    if (diff.length) return { verdict: 'fail', observed: `another GPU in the worker than in the page (spoofed in the page only): ${diff.join('; ')}` }
    if (gl.pixelsHash === wgl.pixelsHash) return { verdict: 'pass', observed: `same GPU strings and pixels (${wgl.pixelsHash})` }
    const protection = readbackProtection({ webgl: gl, canvas, knownAnswer }, raw)
    if (protection) return { verdict: 'pass', observed: `same GPU strings; pixels not compared: ${protectionText(protection)}` }
    return { verdict: 'warn', observed: `same strings, different pixels: page ${gl.pixelsHash}, worker ${wgl.pixelsHash}` }
  },
})

export const workerCanvas = workerCheck({
  id: 'worker-canvas',
  name: 'A worker draws the same 2D image',
  found: 'a worker draws another 2D image',
  source: 'client',
  why: 'The same 2D drawing on an OffscreenCanvas in a worker uses the same rasteriser as the page and gives the same pixels; canvas spoofing applied to the page only differs. Shapes without text are compared in every engine; the drawing with text only on Blink, because Gecko anti-aliases text on an OffscreenCanvas differently from a page canvas (Firefox ESR 153). The engine is told by its error messages, not by the user agent. Not applicable when anti-fingerprinting noises or blocks the page’s canvas (reported once by the canvas checks).',
  ref: 'https://html.spec.whatwg.org/multipage/canvas.html#the-offscreencanvas-interface',
  needs: [],
  uses: ['canvas', 'workerCanvas', 'shapes', 'workerShapes', 'knownAnswer', 'engine'],
  judge: ({ canvas: cv, workerCanvas: wcv, shapes, workerShapes: wShapes, knownAnswer, engine: e }, { missing, raw }) => {
    const protection = canvasProtection({ canvas: cv, knownAnswer }, raw)
    if (protection) return seeProtection(protection)
    const engine = runningEngine(e)
    const how = judgedBy(engine)
    const withText = engine === 'blink'
    const diffs: string[] = []
    const same: string[] = []
    if (shapes && wShapes) (shapes.hash === wShapes.hash ? same : diffs).push(`shapes without text: page ${shapes.hash}, worker ${wShapes.hash}`)
    if (withText && cv && wcv) (cv.value.hash === wcv.hash ? same : diffs).push(`drawing with text: page ${cv.value.hash}, worker ${wcv.hash}`)
    if (!diffs.length && !same.length) {
      if (!cv && !shapes) return na('no 2D canvas in the page')
      if (!wcv && !wShapes) return na(`no 2D canvas in a worker: ${missing(raw.workerShapes ? 'workerShapes' : 'workerCanvas')}`)
      return na(`the drawing with text is compared on Blink only (${how}), and the shapes without text were not read on both sides: ${missing(shapes ? 'workerShapes' : 'shapes')}`)
    }
    const expected = withText
      ? `the page’s pixels, text included (${how})`
      : `the page’s pixels for the shapes without text; text is compared on Blink only, ${ENGINE_NAME[engine]} may anti-alias it differently on an OffscreenCanvas (${how})`
    if (diffs.length) return { verdict: 'fail', observed: `another image in the worker than in the page: ${diffs.join('; ')}`, expected }
    const textNote = !withText && cv && wcv ? `; text not compared (page ${cv.value.hash}, worker ${wcv.hash})` : ''
    return { verdict: 'pass', observed: `same pixels: ${same.join('; ')}${textNote}`, expected }
  },
})
