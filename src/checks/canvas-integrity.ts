// The 2D canvas FingerprintJS hashes and whether it can be trusted: readable at all, the same
// pixels on two drawings (per-read noise: Safari 17+, Firefox, extensions) and a known image
// read back exactly (session-stable farbling such as Brave's, and blocked reads).
// https://fingerprint.com/blog/canvas-fingerprinting/

import type { CanvasFingerprintSignals } from '../../common/signals/canvas-fingerprint'
import { whyMissing, type SignalResult } from '../../common/signal'
import { checkOn, na, type SignalValues } from './define'

type V = SignalValues<CanvasFingerprintSignals>
const canvasCheck = checkOn<CanvasFingerprintSignals>()

export type CanvasFarbling = 'none' | 'noise' | 'blocked' | 'unknown'

/** What the stability and known-answer tests found together (the `canvas.farbling` section). */
export function canvasFarbling(canvas: V['canvas'] | undefined, knownAnswer: SignalResult<V['knownAnswer']> | undefined): CanvasFarbling {
  const stable = canvas ? canvas.again === undefined : null
  if (knownAnswer?.ok) {
    const ka = knownAnswer.value
    if (ka.wrong === 0 && stable !== false) return stable === null ? 'unknown' : 'none'
    if (ka.wrong > 0 && ka.flat) return 'blocked'
    // Changed pixels, or an exact known answer but two drawings that differed.
    return 'noise'
  }
  if (knownAnswer?.ok === false && knownAnswer.error.kind === 'blocked') return 'blocked'
  return stable === false ? 'noise' : 'unknown'
}

const READABLE = 'the page can read its own canvas'

export const canvasReadable = canvasCheck({
  id: 'canvas-readable',
  name: '2D canvas can be read',
  source: 'client',
  why: 'Every browser lets a page read back its own canvas. A refused or missing read is Tor Browser, Firefox resistFingerprinting (until the user allows it) or a blocking extension: privacy tools, not bots, hence a warning.',
  needs: [],
  uses: ['canvas'],
  judge: ({ canvas }, { missing }) =>
    canvas ? { verdict: 'pass', observed: `hash ${canvas.value.hash}`, expected: READABLE } : { verdict: 'warn', observed: missing('canvas'), expected: READABLE },
})

export const canvasStable = canvasCheck({
  id: 'canvas-stable',
  name: '2D canvas draws the same twice',
  source: 'client',
  why: 'The same drawing in the same page gives the same pixels in every engine. A second read that differs is noise added on read-back (Safari 17+ Advanced Fingerprinting Protection, Firefox’s canvas randomisation, extensions): farbling detected, and the hash is not an identity.',
  needs: ['canvas'],
  judge: ({ canvas: cv }) => ({
    verdict: cv.again === undefined ? 'pass' : 'warn',
    observed: cv.again === undefined ? `both drawings ${cv.value.hash}` : `farbling detected: ${cv.value.hash} then ${cv.again.hash}`,
    expected: 'the same pixels on both drawings',
  }),
})

const EXACT = 'every pixel exactly as drawn'

export const canvasKnownAnswer = canvasCheck({
  id: 'canvas-known-answer',
  name: 'A known image reads back exactly',
  source: 'client',
  why: 'Opaque solid blocks involve no anti-aliasing or alpha rounding, so every engine reads back exactly the colours drawn. Any changed pixel is injected noise, including per-session farbling (Brave) that is stable between reads and so escapes the two-draw test; a flat image means reads are blocked.',
  needs: [],
  uses: ['knownAnswer'],
  judge: ({ knownAnswer: ka }, { raw }) => {
    if (!ka) {
      const s = raw.knownAnswer
      // A read refused outright is the blocking itself, not a missing measurement.
      return s?.ok === false && s.error.kind === 'blocked' ? { verdict: 'warn', observed: whyMissing(s), expected: EXACT } : na(whyMissing(s))
    }
    const observed =
      ka.wrong === 0
        ? `all ${ka.total} pixels exact`
        : ka.flat
          ? `blocked: the read-back is one flat colour (${ka.wrong} of ${ka.total} pixels wrong)`
          : `farbling detected: ${ka.wrong} of ${ka.total} pixels changed, by up to ${ka.maxDelta}`
    return { verdict: ka.wrong ? 'warn' : 'pass', observed, expected: EXACT }
  },
})
