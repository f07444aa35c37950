import { describe, expect, test } from 'bun:test'
import type { BotDetectorSignals } from '../../common/signals/bot-detector'
import { runChecks } from '../core/judge'
import { coreProbesUnanswered, probeIntegrity } from './probe-integrity'

const ok = { ok: true as const, value: {}, ms: 1 }
const timeout = { ok: false as const, error: { kind: 'timeout' as const, message: 'no answer within 3000 ms' }, ms: 3000 }
const server = { ip: '203.0.113.7', userAgent: 'x', headers: [], receivedAt: 0 }
const CORE = ['webdriver', 'cdp', 'globals', 'navigator', 'page', 'engine', 'lies', 'screen', 'window']
const broken = { ok: false as const, error: { kind: 'error' as const, message: 'TypeError: navigator is undefined' }, ms: 2 }
const withMissing = (n: number, missing: typeof timeout | typeof broken = broken) => Object.fromEntries(CORE.map((k, i) => [k, i < n ? missing : ok])) as unknown as BotDetectorSignals
const verdict = (n: number, missing: typeof timeout | typeof broken = broken) => runChecks([[probeIntegrity, 30]], withMissing(n, missing), server, {}).checks[0]!

describe('probe-integrity', () => {
  test('every core probe answering passes; one or two missing warn; three fail', () => {
    expect(verdict(0)).toMatchObject({ verdict: 'pass', observed: 'all 9 core probes answered' })
    expect(verdict(1)).toMatchObject({ verdict: 'warn', observed: ['webdriver: error: TypeError: navigator is undefined'] })
    expect(verdict(2).verdict).toBe('warn')
    expect(verdict(3).verdict).toBe('fail')
  })

  test('core probes that timed out only warn, however many: a slow device is not a tampered page', () => {
    expect(verdict(1, timeout)).toMatchObject({ verdict: 'warn', observed: ['webdriver: timeout: no answer within 3000 ms'] })
    expect(verdict(3, timeout).verdict).toBe('warn')
    expect(verdict(9, timeout).verdict).toBe('warn')
    expect(verdict(9, timeout).observed).toHaveLength(9)
    // Two broken and one timed out: fewer than three broken, so a warning.
    const mixed = { ...withMissing(2, broken), page: timeout } as unknown as BotDetectorSignals
    expect(runChecks([[probeIntegrity, 30]], mixed, server, {}).checks[0]!.verdict).toBe('warn')
  })

  test('too many unanswered core probes, timed out or broken, keep the verdict from human', () => {
    expect(coreProbesUnanswered([verdict(2, timeout)])).toBe(false)
    expect(coreProbesUnanswered([verdict(3, timeout)])).toBe(true)
    expect(coreProbesUnanswered([verdict(3, broken)])).toBe(true)
    expect(coreProbesUnanswered([verdict(0)])).toBe(false)
    expect(coreProbesUnanswered([])).toBe(false)
  })
})
