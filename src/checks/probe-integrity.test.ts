import { describe, expect, test } from 'bun:test'
import type { BotDetectorSignals } from '../../common/signals/bot-detector'
import { runChecks } from '../core/judge'
import { probeIntegrity } from './probe-integrity'

const ok = { ok: true as const, value: {}, ms: 1 }
const timeout = { ok: false as const, error: { kind: 'timeout' as const, message: 'no answer within 3000 ms' }, ms: 3000 }
const server = { ip: '203.0.113.7', userAgent: 'x', headers: [], receivedAt: 0 }
const CORE = ['webdriver', 'cdp', 'globals', 'navigator', 'page', 'engine', 'lies', 'screen', 'window']
const withMissing = (n: number) => Object.fromEntries(CORE.map((k, i) => [k, i < n ? timeout : ok])) as unknown as BotDetectorSignals
const verdict = (n: number) => runChecks([[probeIntegrity, 30]], withMissing(n), server, {}).checks[0]!

describe('probe-integrity', () => {
  test('every core probe answering passes; one or two missing warn; three fail', () => {
    expect(verdict(0)).toMatchObject({ verdict: 'pass', observed: 'all 9 core probes answered' })
    expect(verdict(1)).toMatchObject({ verdict: 'warn', observed: ['webdriver: timeout: no answer within 3000 ms'] })
    expect(verdict(2).verdict).toBe('warn')
    expect(verdict(3).verdict).toBe('fail')
  })
})
