import { describe, expect, test } from 'bun:test'
import type { BotDetectorSignals } from '../../common/signals/bot-detector'
import { runChecks } from '../core/judge'
import { CHROME_UA, humanChrome, missing, ok } from '../core/tools/bot-detector.fixture'
import { canvasFarbled, canvasNoise } from './canvas-readback'

type Canvas = Extract<BotDetectorSignals['canvas'], { ok: true }>['value']
const canvas = (o: Partial<Canvas> = {}): Canvas => ({ hash: '0123456789abcdef', stable: true, knownWrong: 0, knownFlat: false, ...o })
const run = (c: BotDetectorSignals['canvas']) => runChecks([[canvasNoise, 10]], { canvas: c } as BotDetectorSignals, { ip: '203.0.113.7', userAgent: CHROME_UA, headers: [], receivedAt: 0 }, {}).checks[0]!

describe('canvasFarbled', () => {
  test('an exact read-back is not farbled; a changed second read or wrong known pixels are', () => {
    expect(canvasFarbled(canvas())).toBe(false)
    expect(canvasFarbled(canvas({ knownWrong: null }))).toBe(false)
    expect(canvasFarbled(canvas({ stable: false }))).toBe(true)
    expect(canvasFarbled(canvas({ knownWrong: 1 }))).toBe(true)
  })
  test('a flat (blocked) read is not noise', () => {
    expect(canvasFarbled(canvas({ knownFlat: true }))).toBe(false)
  })
})

describe('canvas-noise', () => {
  test("passes a person's Chrome, whose two reads and known-answer image match", () => {
    const s = humanChrome()
    expect(run(s.canvas)).toMatchObject({ verdict: 'pass', source: 'client', observed: 'hash 0123456789abcdef, equal on a second read, 0 wrong known-answer pixels' })
  })

  test("passes Firefox without fingerprinting protection, and a refused known-answer read", () => {
    expect(run(ok(canvas({ hash: 'f00dfacecafe0001' }))).verdict).toBe('pass')
    expect(run(ok(canvas({ knownWrong: null })))).toMatchObject({ verdict: 'pass', observed: 'hash 0123456789abcdef, equal on a second read, known-answer read refused' })
  })

  test("warns on an anti-detect browser's per-read noise, for half the weight", () => {
    expect(run(ok(canvas({ hash: 'aaaa', stable: false, knownWrong: 37 })))).toMatchObject({ verdict: 'warn', points: 5, observed: 'hash aaaa, different on a second read, 37 wrong known-answer pixels' })
  })

  test("warns on Brave's session-stable farbling (equal reads, wrong known pixels), never fails", () => {
    const r = run(ok(canvas({ knownWrong: 4 })))
    expect(r.verdict).toBe('warn')
    expect(r.observed).toContain('equal on a second read, 4 wrong known-answer pixels')
  })

  test("warns on Firefox's resistFingerprinting flat read-back", () => {
    expect(run(ok(canvas({ knownFlat: true })))).toMatchObject({ verdict: 'warn', observed: 'hash 0123456789abcdef, equal on a second read, 0 wrong known-answer pixels (flat image: reading blocked)' })
  })

  test('is not applicable when the canvas could not be read, saying why', () => {
    expect(run(missing('blocked', 'canvas could not be read'))).toMatchObject({ verdict: 'na', expected: 'blocked: canvas could not be read' })
  })
})
