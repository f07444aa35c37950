// What makes a block of the input-pacing probe (probes/signals/input-pacing.ts) tell, shared by
// the probe (it holds the page until it has enough) and the check (src/checks/input-pacing.ts).
// Types only from common/signals: the probe bundles stay free of the schema library.

import type { InputBlock } from './signals/bot-detector'

/**
 * A block that tells (the input-pacing check judges only these; the probe holds the page until
 * it has enough of them): events came at least three times within its length before (so the
 * system would have queued several), kept coming at about that rate after (the pointer did
 * not stop), and the page's thread had the CPU throughout.
 */
export function informative(b: InputBlock): boolean {
  return b.before !== null && b.before <= Math.min(80, b.ms / 3) && b.after !== null && b.after <= Math.max(40, 2 * b.before) && !contended(b)
}

/** The page lost more than a tenth of the block to other processes: a loaded machine, where a
 * person's pointer can fall silent as a script's does (seen under stress-ng with xdotool). */
export const contended = (b: InputBlock) => b.lostMs !== undefined && b.lostMs > b.ms / 10

/** A gap between two reads of the clock longer than this is time the thread did not run. */
export const LOST_GAP_MS = 3
