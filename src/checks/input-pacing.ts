// Pointer input that waits for the page: probes/signals/input-pacing.ts holds the main thread a
// few times while the pointer moves steadily and records the input created meanwhile. The
// system's pointer keeps moving and leaves events inside every block (queued, then delivered as
// coalesced events: https://w3c.github.io/pointerevents/#coalesced-events); a client that sends
// each move over the DevTools protocol and awaits its answer (Input.dispatchMouseEvent answers
// once the page has handled the event: nodriver, zendriver, selenium-driverless, Puppeteer's
// mouse.move) creates the next event only after the block. Absence of input proves nothing and
// is never judged; a block is evidence only when the pointer was moving steadily on both sides.

import { contended, informative } from '../../common/input-pacing'
import type { BotDetectorSignals, InputBlock } from '../../common/signals/bot-detector'
import { checkOn, na } from './define'

export { informative }

/** Telling blocks, all without queued input, for a fail: a person's pointer can miss one or two on a loaded machine. */
export const PACED_TO_FAIL = 3

/** A block with no more than one input event inside while the stream around it ran steadily. */
export const paced = (b: InputBlock) => informative(b) && b.inBlock <= 1

export const inputPacing = checkOn<BotDetectorSignals>()({
  id: 'input-pacing',
  name: 'Pointer input does not wait for the page',
  found: 'pointer input waits for the page',
  source: 'client',
  why: "While the pointer moves, the page holds its main thread for 100–300 ms (four of the stream's intervals) until three such blocks fell in steady movement (at most five blocks). A mouse, touchpad or any input the system delivers keeps coming meanwhile and is queued (the page then sees it as coalesced events with their own time stamps); a script that injects each move over the DevTools protocol and awaits the answer (Input.dispatchMouseEvent, as nodriver, zendriver, selenium-driverless and Puppeteer's mouse.move do) sends nothing until the page is free again. It fails only when at least three blocks fell in steady movement with the page's thread on the CPU throughout (a block that lost more than a tenth of its time to other processes tells nothing: on a loaded machine a person's pointer can fall silent too), none of them saw queued input and no pointermove ever carried more than one input event, and passes only on queued or coalesced input; with fewer than three such blocks and nothing queued it cannot judge, and a person who does not move the pointer is never judged.",
  ref: 'https://w3c.github.io/pointerevents/#coalesced-events',
  expected: 'input queued while the page was busy, as the system delivers it (or no steady movement to judge)',
  needs: ['input'],
  judge: ({ input }) => {
    if (!input.coalescing) return na('this browser has no PointerEvent.getCoalescedEvents, so queued input cannot be seen')
    const told = input.blocks.filter(informative)
    const busy = input.blocks.filter(contended).length
    const lost = busy ? `; ${busy} of ${input.blocks.length} blocks lost more than a tenth of their time to other processes (a loaded machine)` : ''
    if (!told.length) return na(`no block fell in steady pointer movement (${input.moves} pointermove events, ${input.blocks.length} blocks${lost})`)
    const waiting = told.filter(paced)
    const queued = told.length - waiting.length
    // The system's input on a busy page also arrives coalesced elsewhere (several events in one
    // pointermove); a stream where no pointermove ever carried more than its own event agrees.
    const oneByOne = input.raw === input.moves
    const blocks = told.map((b) => `${b.ms} ms: ${b.inBlock} event(s) inside, ${b.before} ms apart before, ${b.after} ms after${b.lostMs ? `, ${b.lostMs} ms lost to other processes` : ''}`)
    const injected = waiting.length >= PACED_TO_FAIL && queued === 0 && oneByOne
    // Fewer telling blocks with nothing queued, and nothing coalesced anywhere: too little to
    // judge either way (a loaded machine slows a script's moves and a person's alike).
    if (!injected && queued === 0 && oneByOne) return na(`only ${told.length} block(s) fell in steady pointer movement (at least ${PACED_TO_FAIL} are needed)${lost}: ${blocks.join('; ')}`)
    return {
      verdict: injected ? 'fail' : 'pass',
      observed: injected
        ? [`every block in steady movement (${waiting.length}) saw no queued input, and none of ${input.moves} pointermove events carried more than its own: each move was created after the page handled the one before`, ...blocks]
        : [...blocks, `${input.moves} pointermove events carried ${input.raw} input events`],
      labels: injected ? ['cdp'] : [],
    }
  },
})
