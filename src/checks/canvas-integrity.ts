// The 2D canvas FingerprintJS hashes and whether it can be trusted: readable at all, the same
// pixels on two drawings (per-read noise: Safari 17+, Firefox, extensions) and a known image
// read back exactly (session-stable farbling such as Brave's, and blocked reads).
// Anti-fingerprinting is reported once: the first of canvas-stable, canvas-known-answer and
// webgl-stable that sees it warns, and the others (and the worker comparisons, whose pixels are
// then not comparable) are `na` pointing there. Firefox with privacy.resistFingerprinting
// returns a random image on every read (ESR 153: two drawings differ, 64 of 64 known pixels
// wrong by up to 247, WebGL readPixels differs too): one cause, one warning.
// https://fingerprint.com/blog/canvas-fingerprinting/

import type { CanvasFingerprintSignals } from '../../common/signals/canvas-fingerprint'
import { whyMissing, type SignalResult } from '../../common/signal'
import { checkOn, na, type Outcome, type SignalValues } from './define'
import { effectiveRenderer } from './gpu'

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

/** The check that reports anti-fingerprinting, when one of them sees it. */
export type ProtectionCheck = 'canvas-readable' | 'canvas-stable' | 'canvas-known-answer' | 'webgl-stable'

type ProtectionInput = Partial<Pick<V, 'canvas' | 'knownAnswer' | 'webgl'>>

const refused = (s: SignalResult<unknown> | undefined) => s?.ok === false && s.error.kind === 'blocked'

/**
 * Which check reports read-back protection on the 2D canvas: a refused read (canvas-readable),
 * per-read noise (canvas-stable), else changed or blocked known pixels (canvas-known-answer);
 * null when the canvas reads back as drawn (or could not be judged).
 */
export function canvasProtection({ canvas, knownAnswer }: ProtectionInput, raw: Partial<CanvasFingerprintSignals>): ProtectionCheck | null {
  if (!canvas && refused(raw.canvas)) return 'canvas-readable'
  if (canvas?.again) return 'canvas-stable'
  if (knownAnswer ? knownAnswer.wrong > 0 : refused(raw.knownAnswer)) return 'canvas-known-answer'
  return null
}

/** canvasProtection, else WebGL readPixels that differ between two drawings (webgl-stable). */
export function readbackProtection(v: ProtectionInput, raw: Partial<CanvasFingerprintSignals>): ProtectionCheck | null {
  const gl = v.webgl
  return canvasProtection(v, raw) ?? (gl && effectiveRenderer(gl) && gl.pixelsStable === false ? 'webgl-stable' : null)
}

export const protectionText = (check: ProtectionCheck) => `anti-fingerprinting detected, see ${check}`

/** What a check says when another one already reported the protection that makes its pixels meaningless. */
export const seeProtection = (check: ProtectionCheck): Outcome => na(protectionText(check))

const READABLE = 'the page can read its own canvas'

export const canvasReadable = canvasCheck({
  id: 'canvas-readable',
  name: '2D canvas can be read',
  found: 'the 2D canvas cannot be read',
  source: 'client',
  why: 'Every browser lets a page read back its own canvas. A refused or missing read is Tor Browser, Firefox resistFingerprinting (until the user allows it) or a blocking extension: privacy tools, not bots, hence a warning, the one this tool gives for it (a refused known-answer read is then not applicable).',
  needs: [],
  uses: ['canvas'],
  judge: ({ canvas }, { missing, raw }) =>
    canvas
      ? { verdict: 'pass', observed: `hash ${canvas.value.hash}`, expected: READABLE }
      : { verdict: 'warn', observed: `${refused(raw.canvas) ? 'anti-fingerprinting detected: ' : ''}${missing('canvas')}`, expected: READABLE },
})

export const canvasStable = canvasCheck({
  id: 'canvas-stable',
  name: '2D canvas draws the same twice',
  found: 'the 2D canvas draws differently twice',
  source: 'client',
  why: 'The same drawing in the same page gives the same pixels in every engine. A second read that differs is noise added on read-back (Firefox resistFingerprinting, Safari 17+ Advanced Fingerprinting Protection, Firefox’s canvas randomisation, extensions): anti-fingerprinting, a privacy setting, not a lie, so a warning, and the hash is not an identity. This warning stands for the whole tool: the known-answer, WebGL and worker comparisons are not applicable then.',
  needs: ['canvas'],
  uses: ['knownAnswer', 'webgl'],
  judge: ({ canvas: cv, knownAnswer: ka, webgl: gl }) => {
    if (cv.again === undefined) return { verdict: 'pass', observed: `both drawings ${cv.value.hash}`, expected: 'the same pixels on both drawings' }
    // The same cause seen by the other reads, said here once.
    const also = [
      ka?.wrong ? `the known image read back with ${ka.wrong} of ${ka.total} pixels changed, by up to ${ka.maxDelta}` : '',
      gl && effectiveRenderer(gl) && gl.pixelsStable === false ? 'WebGL readPixels differs between two drawings too' : '',
    ].filter(Boolean)
    return {
      verdict: 'warn',
      observed: `anti-fingerprinting detected: two drawings read back differently (${cv.value.hash} then ${cv.again.hash})${also.length ? `; ${also.join('; ')}` : ''}`,
      expected: 'the same pixels on both drawings',
    }
  },
})

const EXACT = 'every pixel exactly as drawn'

export const canvasKnownAnswer = canvasCheck({
  id: 'canvas-known-answer',
  name: 'A known image reads back exactly',
  found: 'a known image reads back changed',
  source: 'client',
  why: 'Opaque solid blocks involve no anti-aliasing or alpha rounding, so every engine reads back exactly the colours drawn. Any changed pixel is injected noise, including per-session farbling (Brave) that is stable between reads and so escapes the two-draw test; a flat image means reads are blocked. Anti-fingerprinting, not a lie: a warning, and not applicable when canvas-stable already reported per-read noise.',
  needs: [],
  uses: ['knownAnswer', 'canvas'],
  judge: ({ knownAnswer: ka, canvas }, { raw }) => {
    const first = canvasProtection({ canvas }, { canvas: raw.canvas })
    if (first) return seeProtection(first)
    if (!ka) {
      const s = raw.knownAnswer
      // A read refused outright is the blocking itself, not a missing measurement.
      return refused(s) ? { verdict: 'warn', observed: `anti-fingerprinting detected: ${whyMissing(s)}`, expected: EXACT } : na(whyMissing(s))
    }
    const observed =
      ka.wrong === 0
        ? `all ${ka.total} pixels exact`
        : ka.flat
          ? `anti-fingerprinting detected: reads are blocked, the read-back is one flat colour (${ka.wrong} of ${ka.total} pixels wrong)`
          : `anti-fingerprinting detected: ${ka.wrong} of ${ka.total} pixels changed, by up to ${ka.maxDelta}`
    return { verdict: ka.wrong ? 'warn' : 'pass', observed, expected: EXACT }
  },
})
