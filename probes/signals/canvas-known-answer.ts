// A known-answer image: opaque solid blocks (and one lone pixel) whose exact RGBA values are
// known in advance. Solid opaque fills involve no anti-aliasing and no premultiplied-alpha
// rounding, so every engine reads back exactly what was drawn; any difference is injected
// noise (Brave farbling, Safari 17+ Advanced Fingerprinting Protection, Firefox's canvas
// randomisation) or a blocked read (Firefox resistFingerprinting and Tor return a blank image).

import type { CanvasKnownAnswer } from '../../common/signals/canvas-fingerprint'
import { ProbeError } from '../core/probe-error'

const COLORS = [
  [255, 102, 0],
  [0, 102, 153],
  [17, 34, 51],
  [250, 250, 250],
] as const


export function canvasKnownAnswer(): CanvasKnownAnswer {
  const c = document.createElement('canvas')
  c.width = 8
  c.height = 8
  const ctx = c.getContext('2d', { willReadFrequently: true })
  if (!ctx) throw new ProbeError('unsupported', 'no 2d context')
  // Four 4×4 quadrants, then one pixel of a fifth colour at (5, 2).
  COLORS.forEach(([r, g, b], i) => {
    ctx.fillStyle = `rgb(${r},${g},${b})`
    ctx.fillRect((i % 2) * 4, (i >> 1) * 4, 4, 4)
  })
  ctx.fillStyle = 'rgb(1,2,3)'
  ctx.fillRect(5, 2, 1, 1)
  let data: Uint8ClampedArray
  try {
    data = ctx.getImageData(0, 0, 8, 8).data
  } catch (e) {
    throw new ProbeError('blocked', `getImageData refused: ${String((e as Error)?.message || e)}`)
  }
  let wrong = 0
  let maxDelta = 0
  let flat = true
  for (let p = 0; p < 64; p++) {
    const x = p % 8
    const y = p >> 3
    const want = x === 5 && y === 2 ? [1, 2, 3] : COLORS[(y >> 2) * 2 + (x >> 2)]!
    let delta = Math.abs(data[p * 4 + 3]! - 255)
    for (let k = 0; k < 3; k++) delta = Math.max(delta, Math.abs(data[p * 4 + k]! - want[k]!))
    if (delta) wrong++
    maxDelta = Math.max(maxDelta, delta)
    for (let k = 0; k < 4; k++) if (data[p * 4 + k] !== data[k]) flat = false
  }
  return { total: 64, wrong, maxDelta, flat }
}
