// A 2D drawing with no text: filled and stroked paths, a gradient under a blurred shadow,
// arcs blended with 'multiply', an even-odd ring, a radial gradient and a Bézier curve. It is
// drawn on a page canvas and on an OffscreenCanvas in a worker; page-only canvas spoofing
// (a patched getImageData or toDataURL) shows as a difference between the two.
// Text is left out on purpose: Gecko rasterises glyphs on an OffscreenCanvas, in a worker and
// on the main thread alike, with other anti-aliasing than on a page canvas (Firefox ESR 153:
// the same faces and boxes, some 400 edge pixels of the text scene different; the same shapes
// without text identical), so text is comparable between page and worker on Blink only
// (src/checks/worker-render.ts).

import { hashHex } from '../../common/hash'
import type { CanvasShapes } from '../../common/signals/canvas-fingerprint'
import { ProbeError } from '../core/probe-error'
import { inWorker, runInWorker } from '../core/worker'

/**
 * Draws the shapes and reads them back: RGBA bytes, or the error text when reading was
 * refused. Self-contained (no imports, no outer names): it is also serialised into a worker,
 * where it draws on its own OffscreenCanvas. Keep it that way.
 */
export function drawShapes2d(canvas?: HTMLCanvasElement | OffscreenCanvas): Uint8ClampedArray | string {
  const W = 160
  const H = 80
  const c = canvas || new OffscreenCanvas(W, H)
  c.width = W
  c.height = H
  // willReadFrequently keeps both canvases on the CPU rasteriser.
  const ctx = c.getContext('2d', { willReadFrequently: true }) as CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D | null
  if (!ctx) return 'no 2d context'
  ctx.fillStyle = '#f60'
  ctx.fillRect(4, 4, 50, 16)
  const g = ctx.createLinearGradient(0, 30, W, 70)
  g.addColorStop(0, '#e33')
  g.addColorStop(0.5, '#3e3')
  g.addColorStop(1, '#33e')
  ctx.fillStyle = g
  ctx.shadowBlur = 6
  ctx.shadowColor = 'rgba(0,0,0,0.5)'
  ctx.fillRect(8, 40, 90, 24)
  ctx.shadowBlur = 0
  const r = ctx.createRadialGradient(130, 20, 2, 130, 20, 18)
  r.addColorStop(0, 'rgba(255,255,0,1)')
  r.addColorStop(1, 'rgba(0,64,255,0.3)')
  ctx.fillStyle = r
  ctx.fillRect(110, 2, 40, 36)
  ctx.strokeStyle = 'rgba(0,102,153,0.8)'
  ctx.lineWidth = 2.5
  ctx.beginPath()
  ctx.moveTo(4, 76)
  ctx.bezierCurveTo(40, 20, 90, 90, 156, 30)
  ctx.stroke()
  ctx.globalCompositeOperation = 'multiply'
  const arcs: Array<[string, number, number]> = [['#f2f', 70, 30], ['#2ff', 92, 30], ['#ff2', 81, 50]]
  for (const [color, x, y] of arcs) {
    ctx.fillStyle = color
    ctx.beginPath()
    ctx.arc(x, y, 16, 0, Math.PI * 2, true)
    ctx.closePath()
    ctx.fill()
  }
  ctx.globalCompositeOperation = 'source-over'
  ctx.fillStyle = '#f9c'
  ctx.beginPath()
  ctx.arc(135, 60, 14, 0, Math.PI * 2, true)
  ctx.arc(135, 60, 6, 0, Math.PI * 2, true)
  ctx.fill('evenodd')
  try {
    return ctx.getImageData(0, 0, W, H).data
  } catch (e) {
    return String((e as Error)?.message || e)
  }
}

function hashed(pixels: Uint8ClampedArray | string): CanvasShapes {
  if (typeof pixels === 'string') throw new ProbeError(pixels === 'no 2d context' ? 'unsupported' : 'blocked', `canvas could not be read: ${pixels}`)
  return { hash: hashHex(pixels) }
}

/** The shapes on a page canvas, hashed. */
export function canvasShapesHash(): CanvasShapes {
  return hashed(drawShapes2d(document.createElement('canvas')))
}

/** The same shapes on an OffscreenCanvas in a worker: must equal the page's in every engine. */
export const workerCanvasShapesHash = inWorker(async (): Promise<CanvasShapes> => {
  if (typeof OffscreenCanvas === 'undefined') throw new ProbeError('unsupported', 'no OffscreenCanvas')
  return hashed(await runInWorker(drawShapes2d))
})
