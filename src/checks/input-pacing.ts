// Pointer input that waits for the page: probes/signals/input-pacing.ts holds the main thread a
// few times while the pointer moves steadily and records the input created meanwhile. The
// system's pointer keeps moving and leaves events inside every block (queued, then delivered as
// coalesced events: https://w3c.github.io/pointerevents/#coalesced-events); a client that sends
// each move over the DevTools protocol and awaits its answer (Input.dispatchMouseEvent answers
// once the page has handled the event: nodriver, zendriver, selenium-driverless, Puppeteer's
// mouse.move) creates the next event only after the block. Absence of input proves nothing and
// is never judged; a block is evidence only when the pointer was moving steadily on both sides.

import type { BotDetectorSignals, InputBlock } from '../../common/signals/bot-detector'
import { checkOn, na } from './define'

/**
 * A block that tells: events came at least three times within its length before (so the system
 * would have queued several), and kept coming at about that rate after (the pointer did not stop).
 */
export function informative(b: InputBlock): boolean {
  return b.before !== null && b.before <= Math.min(80, b.ms / 3) && b.after !== null && b.after <= Math.max(40, 2 * b.before)
}

/** A block with no more than one input event inside while the stream around it ran steadily. */
export const paced = (b: InputBlock) => informative(b) && b.inBlock <= 1

export const inputPacing = checkOn<BotDetectorSignals>()({
  id: 'input-pacing',
  name: 'Pointer input does not wait for the page',
  found: 'pointer input waits for the page',
  source: 'client',
  why: "While the pointer moves, the page holds its main thread for 100–300 ms (four of the stream's intervals) three times. A mouse, touchpad or any input the system delivers keeps coming meanwhile and is queued (the page then sees it as coalesced events with their own time stamps); a script that injects each move over the DevTools protocol and awaits the answer (Input.dispatchMouseEvent, as nodriver, zendriver, selenium-driverless and Puppeteer's mouse.move do) sends nothing until the page is free again. It fails only when at least two blocks fell in steady movement, none of them saw queued input and no pointermove ever carried more than one input event; a person who does not move the pointer is never judged.",
  ref: 'https://w3c.github.io/pointerevents/#coalesced-events',
  expected: 'input queued while the page was busy, as the system delivers it (or no steady movement to judge)',
  needs: ['input'],
  judge: ({ input }) => {
    if (!input.coalescing) return na('this browser has no PointerEvent.getCoalescedEvents, so queued input cannot be seen')
    const told = input.blocks.filter(informative)
    if (!told.length) return na(`no block fell in steady pointer movement (${input.moves} pointermove events, ${input.blocks.length} blocks)`)
    const waiting = told.filter(paced)
    const queued = told.length - waiting.length
    // The system's input on a busy page also arrives coalesced elsewhere (several events in one
    // pointermove); a stream where no pointermove ever carried more than its own event agrees.
    const oneByOne = input.raw === input.moves
    const blocks = told.map((b) => `${b.ms} ms: ${b.inBlock} event(s) inside, ${b.before} ms apart before, ${b.after} ms after`)
    const injected = waiting.length >= 2 && queued === 0 && oneByOne
    return {
      verdict: injected ? 'fail' : 'pass',
      observed: injected
        ? [`every block in steady movement (${waiting.length}) saw no queued input, and none of ${input.moves} pointermove events carried more than its own: each move was created after the page handled the one before`, ...blocks]
        : [...blocks, `${input.moves} pointermove events carried ${input.raw} input events`],
      labels: injected ? ['cdp'] : [],
    }
  },
})
