import { describe, expect, test } from 'bun:test'
import type { BotDetectorSignals } from '../../common/signals/bot-detector'
import { runChecks } from '../core/judge'
import { CHROME_UA, HEADLESS_UA, missing, ok } from '../core/tools/bot-detector.fixture'
import { verdictOf } from './automation-verdict'
import { headlessSharedWorkerUa } from './shared-worker-ua'

const server = { ip: '203.0.113.7', userAgent: CHROME_UA, headers: [], receivedAt: 0 }
const run = (s: Partial<BotDetectorSignals>) => runChecks([[headlessSharedWorkerUa, 60]], s as BotDetectorSignals, server, {})

describe('headless-shared-worker-ua', () => {
  test("passes a person's browser, whose shared worker says what the page says", () => {
    expect(run({ sharedWorker: ok({ userAgent: CHROME_UA }) }).checks[0]).toMatchObject({ verdict: 'pass', points: 0 })
  })

  test('fails headless Chromium whose user agent was overridden for the page only, and that alone makes it a bot', () => {
    const j = run({ sharedWorker: ok({ userAgent: HEADLESS_UA }) })
    expect(j.checks[0]).toMatchObject({ verdict: 'fail', points: 60, observed: HEADLESS_UA })
    expect([...j.labels]).toEqual(['headless'])
    expect(verdictOf(j.checks, 90)).toBe('bot')
  })

  test('is not applicable without SharedWorker (Chrome on Android), saying why', () => {
    expect(run({ sharedWorker: missing('unsupported', 'no SharedWorker') }).checks[0]).toMatchObject({ verdict: 'na', expected: 'unsupported: no SharedWorker' })
    expect(run({}).checks[0]).toMatchObject({ verdict: 'na', expected: 'not collected' })
  })
})
