import { describe, expect, test } from 'bun:test'
import type { SignalResult } from '../../common/signal'
import { runChecks } from '../core/judge'
import type { ServerObservation } from '../core/tools/observation'
import { checkOn, na } from './define'
import { ok } from '../../tests/support/signals'

interface Signals {
  a: SignalResult<{ n: number }>
  b?: SignalResult<string>
}
const failed = (message: string) => ({ ok: false as const, error: { kind: 'timeout' as const, message }, ms: 1 })
const server: ServerObservation = { ip: '192.0.2.1', userAgent: 'x', headers: [], receivedAt: 0 }

const seen: unknown[] = []
const positive = checkOn<Signals>()({
  id: 'positive',
  name: 'a is positive',
  found: 'a is not positive',
  source: 'client',
  why: 'for the runner test',
  needs: ['a'],
  uses: ['b'],
  judge: (v) => {
    seen.push(v)
    return v.a.n > 0 ? { verdict: 'pass', observed: v.a.n, expected: '> 0' } : { verdict: 'fail', observed: v.a.n, expected: '> 0', labels: ['negative'] }
  },
})
const fromServer = checkOn<Signals>()({
  id: 'from-server',
  name: 'the server decides',
  found: 'the server decided against',
  source: 'client',
  why: 'for the runner test',
  needs: [],
  judge: (_, { server: s }) => (s.ip === '192.0.2.1' ? { verdict: 'warn', observed: s.ip, expected: 'another address', source: 'server' } : na('no address')),
})

describe('the check runner', () => {
  test('a check gets only the values it declares, and the tool weight sets its points', () => {
    seen.length = 0
    const { checks } = runChecks([[positive, 30]], { a: ok({ n: 2 }), b: ok('x') }, server, {})
    expect(seen).toEqual([{ a: { n: 2 }, b: 'x' }])
    expect(checks).toEqual([{ id: 'positive', name: 'a is positive', verdict: 'pass', observed: 2, expected: '> 0', source: 'client', why: 'for the runner test', points: 0 }])
    expect(runChecks([[positive, 30]], { a: ok({ n: -1 }) }, server, {}).checks[0]!.points).toBe(30)
  })

  test('a missing declared signal makes the check na with the reason, and its judge never runs', () => {
    seen.length = 0
    const { checks } = runChecks([[positive, 30]], { a: failed('no answer within 3000 ms') }, server, {})
    expect(seen).toEqual([])
    expect(checks[0]).toMatchObject({ verdict: 'na', observed: null, expected: 'timeout: no answer within 3000 ms', points: 0 })
    expect(runChecks([[positive, 30]], {} as Signals, server, {}).checks[0]!.expected).toBe('not collected')
  })

  test('an optional signal that failed is simply absent', () => {
    seen.length = 0
    runChecks([[positive, 30]], { a: ok({ n: 1 }), b: failed('slow') }, server, {})
    expect(seen).toEqual([{ a: { n: 1 } }])
  })

  test('labels are collected once each, and an outcome may say the server saw it', () => {
    const judged = runChecks([[positive, 30], [fromServer, 10]], { a: ok({ n: -5 }) }, server, {})
    expect([...judged.labels]).toEqual(['negative'])
    expect(judged.checks[1]).toMatchObject({ verdict: 'warn', source: 'server', points: 5 })
    expect(runChecks([[fromServer, 10]], { a: ok({ n: 1 }) }, { ...server, ip: '198.51.100.1' }, {}).checks[0]).toMatchObject({ verdict: 'na', expected: 'no address', source: 'client' })
  })
})
