// The 2D canvas image: text in several fonts with an emoji, a gradient, shadows, arcs blended
// with 'multiply', and the even-odd winding test. The pixels depend on the font rasteriser,
// anti-aliasing and the GPU/Skia backend, so they identify a device class; what canvas
// farbling (Brave) and noise (Safari 17+, Firefox FPP) change is the read-back, which is why
// callers draw twice and compare, and why a known-answer image is checked separately.
// After FingerprintJS src/sources/canvas.ts and CreepJS src/canvas.

import { hashHex } from '../../common/hash'
import type { Canvas2dHash } from '../../common/signals/canvas-fingerprint'
import { inWorker, runInWorker } from '../core/worker'
import { ProbeError } from '../core/probe-error'

export interface Canvas2dImage {
  /** `isPointInPath` with the even-odd rule: false only in very old engines. */
  winding: boolean
  /** RGBA bytes from getImageData. */
  pixels: Uint8ClampedArray | null
  /** Why pixels is null (reading was refused). */
  error?: string
}

/**
 * Draws the scene and reads it back. Self-contained (no imports, no outer names) because it is
 * also serialised into a worker, where it draws on an OffscreenCanvas: called with no canvas,
 * it makes one. Keep it that way.
 */
export function drawScene2d(canvas?: HTMLCanvasElement | OffscreenCanvas): Canvas2dImage {
  const W = 220
  const H = 80
  const c = canvas || new OffscreenCanvas(W, H)
  c.width = W
  c.height = H
  // willReadFrequently keeps the canvas on the CPU, so page and worker use the same backend.
  const ctx = c.getContext('2d', { willReadFrequently: true }) as CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D | null
  if (!ctx) return { winding: false, pixels: null, error: 'no 2d context' }
  ctx.rect(0, 0, 10, 10)
  ctx.rect(2, 2, 6, 6)
  const winding = !ctx.isPointInPath(5, 5, 'evenodd')

  ctx.textBaseline = 'alphabetic'
  ctx.fillStyle = '#f60'
  ctx.fillRect(100, 1, 62, 20)
  ctx.fillStyle = '#069'
  ctx.font = '11pt "Times New Roman"'
  ctx.fillText('Cwm fjordbank gly \u{1F603}', 2, 15)
  ctx.fillStyle = 'rgba(102, 204, 0, 0.2)'
  ctx.font = '18pt Arial'
  ctx.fillText('Cwm fjordbank gly \u{1F603}', 4, 45)
  const g = ctx.createLinearGradient(0, 50, W, 80)
  g.addColorStop(0, '#e33')
  g.addColorStop(0.5, '#3e3')
  g.addColorStop(1, '#33e')
  ctx.fillStyle = g
  ctx.shadowBlur = 6
  ctx.shadowColor = 'rgba(0,0,0,0.5)'
  ctx.fillRect(8, 54, 120, 20)
  ctx.shadowBlur = 0
  ctx.globalCompositeOperation = 'multiply'
  const arcs: Array<[string, number, number]> = [['#f2f', 150, 40], ['#2ff', 175, 40], ['#ff2', 162, 62]]
  for (const [color, x, y] of arcs) {
    ctx.fillStyle = color
    ctx.beginPath()
    ctx.arc(x, y, 18, 0, Math.PI * 2, true)
    ctx.closePath()
    ctx.fill()
  }
  ctx.fillStyle = '#f9c'
  ctx.arc(200, 40, 14, 0, Math.PI * 2, true)
  ctx.arc(200, 40, 6, 0, Math.PI * 2, true)
  ctx.fill('evenodd')
  try {
    return { winding, pixels: ctx.getImageData(0, 0, W, H).data }
  } catch (e) {
    // A SecurityError or a blocked read (extensions, Tor's prompt) lands here.
    return { winding, pixels: null, error: String((e as Error)?.message || e) }
  }
}


export function hashed(img: Canvas2dImage): Canvas2dHash {
  if (!img.pixels) throw new ProbeError('blocked', `canvas could not be read: ${img.error ?? 'unknown'}`)
  return { winding: img.winding, hash: hashHex(img.pixels) }
}

/** One drawing on a page canvas, hashed. */
export function canvas2dHash(): Canvas2dHash {
  return hashed(drawScene2d(document.createElement('canvas')))
}

/** The same drawing on an OffscreenCanvas in a worker: must equal the page's. */
export const workerCanvas2dHash = inWorker(async (): Promise<Canvas2dHash> => {
  if (typeof OffscreenCanvas === 'undefined') throw new ProbeError('unsupported', 'no OffscreenCanvas')
  return hashed(await runInWorker(drawScene2d))
})
