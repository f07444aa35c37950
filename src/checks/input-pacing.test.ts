import { describe, expect, test } from 'bun:test'
import type { InputPacing } from '../../common/signals/bot-detector'
import { humanChrome, judge, ok } from '../core/tools/bot-detector.fixture'
import { informative, inputPacing, paced } from './input-pacing'
import { contended } from '../../common/input-pacing'

const run = (input: InputPacing) => {
  const s = humanChrome()
  s.input = ok(input)
  const r = judge(s)
  return { check: r.byId('input-pacing'), verdict: r.sections.verdict }
}

// As measured on Chromium 156 under Xvfb (probes/signals/input-pacing.ts): a raw DevTools client
// awaiting each Input.dispatchMouseEvent, and xdotool moving the system pointer.
const DEVTOOLS: InputPacing = {
  coalescing: true,
  moves: 31,
  raw: 31,
  wheels: 0,
  blocks: [
    { ms: 223, before: 53.8, inBlock: 0, after: 54.4, lostMs: 0 },
    { ms: 105, before: 19.3, inBlock: 0, after: 15.7, lostMs: 0 },
    { ms: 106, before: 13, inBlock: 0, after: 21.2, lostMs: 4 },
  ],
}
const XDOTOOL: InputPacing = { coalescing: true, moves: 11, raw: 70, wheels: 0, blocks: [{ ms: 100, before: 19, inBlock: 6, after: 21 }, { ms: 117, before: 16, inBlock: 3, after: 14 }, { ms: 100, before: 10, inBlock: 0, after: null }] }

describe('input-pacing', () => {
  test('a block tells only in steady movement on both sides', () => {
    expect(informative({ ms: 105, before: 19.3, inBlock: 0, after: 15.7 })).toBe(true)
    expect(informative({ ms: 106, before: 13, inBlock: 0, after: null })).toBe(false)
    // Events 50 ms apart cannot be expected three times inside 100 ms.
    expect(informative({ ms: 100, before: 50, inBlock: 0, after: 20 })).toBe(false)
    // The pointer stopped after the block (a long gap after it): a pause, not a paced stream.
    expect(informative({ ms: 160, before: 31, inBlock: 0, after: 65 })).toBe(false)
    expect(paced({ ms: 105, before: 19.3, inBlock: 1, after: 15.7 })).toBe(true)
    expect(paced({ ms: 105, before: 19.3, inBlock: 2, after: 15.7 })).toBe(false)
  })

  test('input injected one event at a time fails, names cdp and makes the verdict bot', () => {
    const { check, verdict } = run(DEVTOOLS)
    expect(check.verdict).toBe('fail')
    expect(String((check.observed as string[])[0])).toContain('each move was created after the page handled the one before')
    expect(verdict).toBe('bot')
  })

  test("the system pointer's queued input passes", () => {
    expect(run(XDOTOOL).check.verdict).toBe('pass')
  })

  test('one block with queued input clears the others; two paced blocks alone are not enough to judge', () => {
    expect(run({ ...DEVTOOLS, blocks: [...DEVTOOLS.blocks, { ms: 100, before: 15, inBlock: 4, after: 15 }] }).check.verdict).toBe('pass')
    const two = run({ ...DEVTOOLS, blocks: DEVTOOLS.blocks.slice(0, 2) }).check
    expect(two.verdict).toBe('na')
    expect(String(two.expected)).toContain('only 2 block(s) fell in steady pointer movement (at least 3 are needed)')
  })

  test('a block in which the page lost the CPU tells nothing: a person on a loaded machine is not judged', () => {
    // Measured: Firefox ESR moved by xdotool beside stress-ng --cpu 2 left no event in two
    // blocks, and no pointermove carried more than its own; the page's thread had lost the CPU.
    expect(contended({ ms: 250, before: 62.5, inBlock: 0, after: 11.3, lostMs: 40 })).toBe(true)
    expect(contended({ ms: 250, before: 62.5, inBlock: 0, after: 11.3, lostMs: 20 })).toBe(false)
    expect(contended({ ms: 250, before: 62.5, inBlock: 0, after: 11.3 })).toBe(false)
    const loaded = run({ ...DEVTOOLS, blocks: DEVTOOLS.blocks.map((b) => ({ ...b, lostMs: Math.ceil(b.ms / 5) })) }).check
    expect(loaded.verdict).toBe('na')
    expect(String(loaded.expected)).toContain('3 of 3 blocks lost more than a tenth of their time to other processes')
    // Two clean blocks and one contended: not enough either.
    const mixed = run({ ...DEVTOOLS, blocks: DEVTOOLS.blocks.map((b, i) => (i === 0 ? { ...b, lostMs: 100 } : b)) }).check
    expect(mixed.verdict).toBe('na')
  })

  test('input that arrived coalesced anywhere is the system\'s: no fail however the blocks fell', () => {
    expect(run({ ...DEVTOOLS, raw: 27 }).check.verdict).toBe('pass')
  })

  test('nothing to judge without movement or without coalesced events: na, never a fail', () => {
    expect(run({ coalescing: true, moves: 0, raw: 0, wheels: 0, blocks: [] }).check.verdict).toBe('na')
    expect(run({ ...DEVTOOLS, coalescing: false }).check).toMatchObject({ verdict: 'na', expected: expect.stringContaining('getCoalescedEvents') })
  })

  test('pages from before the signal: na', () => {
    const s = humanChrome()
    expect(judge(s).byId(inputPacing.id).verdict).toBe('na')
  })
})
