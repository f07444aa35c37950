// Canvas read-back noise: a drawing read twice, and a known-answer image read back, differ
// where the browser or an extension farbles reads (Brave, Safari 17+, Firefox fingerprinting
// protection, anti-detect browsers).
// https://brave.com/privacy-updates/4-fingerprinting-defenses-2.0/

import type { BotDetectorSignals } from '../../common/signals/bot-detector'
import { checkOn, type SignalValues } from './define'

/** The canvas read back something else than was drawn (or read twice differently). */
export function canvasFarbled(canvas: SignalValues<BotDetectorSignals>['canvas']): boolean {
  return !canvas.stable || (canvas.knownWrong ?? 0) > 0
}

export const canvasNoise = checkOn<BotDetectorSignals>()({
  id: 'canvas-noise',
  name: 'Canvas reads back what was drawn',
  found: 'canvas reads back other pixels than were drawn',
  source: 'client',
  why: 'Anti-detect browsers add noise to canvas reads so hashes change; so do Brave, Safari 17+ and Firefox fingerprinting protection. Noise is reported so the canvas hash is not taken as stable; it costs little because privacy browsers are used by people.',
  expected: 'two equal reads and a known-answer image read back exactly',
  needs: ['canvas'],
  judge: ({ canvas }) => ({
    verdict: canvasFarbled(canvas) || canvas.knownFlat === true ? 'warn' : 'pass',
    observed: `hash ${canvas.hash}, ${canvas.stable ? 'equal' : 'different'} on a second read, ${canvas.knownWrong === null ? 'known-answer read refused' : `${canvas.knownWrong} wrong known-answer pixels`}${canvas.knownFlat ? ' (flat image: reading blocked)' : ''}`,
  }),
})
