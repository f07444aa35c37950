// Pictures of what the canvas-fingerprint page drew, for the report and the stored task: the
// hashes say whether two drawings are the same, a picture shows a person what this browser
// drew (missing emoji, another font, a blank read-back). Small on purpose — a task keeps them —
// so lossy at full size on white (WebP, or JPEG where the browser cannot write WebP, as
// Safari), half size if that is still too large, none beyond; lossless PNG for the tiny WebGL
// render, whose pixels are the point. When two reads differ, a mask of the pixels that changed
// shows where the noise went.

import type { Canvas2dHash, CanvasPicture, WebglSummary } from '../../common/signals/canvas-fingerprint'
import { MASK_MAX, PICTURE_MAX } from '../../common/picture-limits'
import { drawScene2d, hashed } from './canvas-2d'
import { readWebgl, summarise } from './webgl'

type Drawable = HTMLCanvasElement

function encode(canvas: HTMLCanvasElement, cap: number, lossless: boolean): string | null {
  const tries: Array<[string, number]> = lossless ? [['image/png', 1], ['image/webp', 0.8]] : [['image/webp', 0.5], ['image/jpeg', 0.5]]
  for (const [type, quality] of tries) {
    const url = canvas.toDataURL(type, quality)
    // A browser that cannot write the type gives PNG instead: try the next.
    if (url.startsWith(`data:${type};`) && url.length <= cap) return url
  }
  return null
}

/** The drawing as a data: URL of at most `cap` characters, on white; half size when full size is over; null beyond. */
export function pictureOf(source: Drawable, cap: number, lossless = false): string | null {
  for (const scale of [1, 0.5]) {
    const c = document.createElement('canvas')
    c.width = Math.max(1, Math.round(source.width * scale))
    c.height = Math.max(1, Math.round(source.height * scale))
    const ctx = c.getContext('2d')
    if (!ctx) return null
    ctx.fillStyle = '#fff'
    ctx.fillRect(0, 0, c.width, c.height)
    ctx.drawImage(source, 0, 0, c.width, c.height)
    const url = encode(c, cap, lossless)
    if (url) return url
  }
  return null
}

/** RGBA pixels on a canvas; `flipY` for WebGL's readPixels, whose first row is the bottom one. */
export function canvasOf(pixels: ArrayLike<number>, width: number, height: number, flipY = false): HTMLCanvasElement {
  const c = document.createElement('canvas')
  c.width = width
  c.height = height
  const img = new ImageData(width, height)
  for (let y = 0; y < height; y++) {
    const from = (flipY ? height - 1 - y : y) * width * 4
    for (let i = 0; i < width * 4; i++) img.data[y * width * 4 + i] = pixels[from + i]!
  }
  c.getContext('2d')?.putImageData(img, 0, 0)
  return c
}

/** Where two reads of one drawing differ: the count, the largest change in one channel, and a mask (PNG, null over `cap`). */
export function noiseOf(a: ArrayLike<number>, b: ArrayLike<number>, width: number, height: number, cap: number, flipY = false): NonNullable<CanvasPicture['noise']> {
  const mask = new Uint8ClampedArray(width * height * 4)
  let pixels = 0
  let maxDelta = 0
  for (let p = 0; p < width * height; p++) {
    let changed = false
    for (let ch = 0; ch < 4; ch++) {
      const d = Math.abs(a[p * 4 + ch]! - b[p * 4 + ch]!)
      if (d) changed = true
      if (d > maxDelta) maxDelta = d
    }
    if (changed) {
      pixels++
      mask.set([220, 0, 140, 255], p * 4)
    }
  }
  const url = canvasOf(mask, width, height, flipY).toDataURL('image/png')
  return { pixels, maxDelta, mask: url.length <= cap ? url : null }
}

/**
 * The 2D scene drawn twice, as readTwice(canvas2dHash) reports it (`again` only when the second
 * read differs), with a picture of the first drawing and, when they differ, of the noise.
 */
export function canvas2dPictured(): { value: Canvas2dHash; again?: Canvas2dHash; picture: CanvasPicture } {
  const first = document.createElement('canvas')
  const a = drawScene2d(first)
  const b = drawScene2d(document.createElement('canvas'))
  const value = hashed(a)
  const again = hashed(b)
  const picture: CanvasPicture = { image: pictureOf(first, PICTURE_MAX), width: first.width, height: first.height }
  if (value.hash === again.hash && value.winding === again.winding) return { value, picture }
  return { value, again, picture: { ...picture, noise: noiseOf(a.pixels!, b.pixels!, first.width, first.height, MASK_MAX) } }
}

/** The page's WebGL reading (webglInfo) with a picture of its render and, when the two renders differ, of the noise. */
export function webglPictured(): WebglSummary {
  const raw = readWebgl(document.createElement('canvas'))
  const summary = summarise(raw)
  if (!('pixels' in raw) || !raw.pixels) return summary
  const S = Math.round(Math.sqrt(raw.pixels.length / 4))
  const picture: CanvasPicture = { image: pictureOf(canvasOf(raw.pixels, S, S, true), PICTURE_MAX, true), width: S, height: S }
  if (raw.pixels2 && summary.pixelsStable === false) picture.noise = noiseOf(raw.pixels, raw.pixels2, S, S, MASK_MAX, true)
  return { ...summary, picture }
}
