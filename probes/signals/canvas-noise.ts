// The 2D canvas hash the bot-detector results carry (`canvas.hash`), read twice and next to a
// known-answer image: read-back noise (anti-detect browsers, Safari 17+, Firefox FPP, canvas
// blocker extensions) makes the two hashes differ or the known pixels wrong, and then the
// hash identifies nothing; Brave's per-site farbling is stable within the page, so only the
// known-answer test catches it.

import type { CanvasNoise } from '../../common/signals/bot-detector'
import { canvas2dHash } from './canvas-2d'
import { canvasKnownAnswer } from './canvas-known-answer'

export function canvasNoise(): CanvasNoise {
  const first = canvas2dHash()
  const second = canvas2dHash()
  let known: ReturnType<typeof canvasKnownAnswer> | null = null
  try {
    known = canvasKnownAnswer()
  } catch {
    // Reported through knownWrong = null; the hash above was readable.
  }
  return { hash: first.hash, stable: first.hash === second.hash, knownWrong: known?.wrong ?? null, knownFlat: known?.flat ?? null }
}
