import { describe, expect, test } from 'bun:test'
import { checkOn, na } from '../checks/define'
import { runChecks } from './judge'
import { chromeServer, humanChrome, judge, playwrightHeadless } from './tools/bot-detector.fixture'

type S = { a: { ok: true; value: number } | { ok: false; error: { kind: 'timeout'; message: string } } }
const on = checkOn<S>()
const base = { name: 'n', found: 'f', source: 'client' as const, why: 'w', needs: ['a' as const] }

describe('runChecks', () => {
  test("a check whose definition gives the expectation is served with it; a judge's own text comes first", () => {
    const defined = on({ ...base, id: 'defined', expected: 'the one text', judge: ({ a }) => (a > 1 ? { verdict: 'pass', observed: a } : na('too small')) })
    const own = on({ ...base, id: 'own', judge: ({ a }) => ({ verdict: 'pass', observed: a, expected: `at least ${a}` }) })
    const run = (a: number) => runChecks([[defined, 10], [own, 10]], { a: { ok: true, value: a } }, chromeServer(), {}).checks
    expect(run(2).map((c) => c.expected)).toEqual(['the one text', 'at least 2'])
    expect(run(1).map((c) => [c.verdict, c.expected])).toEqual([['na', 'too small'], ['pass', 'at least 1']])
    const absent = runChecks([[defined, 10]], { a: { ok: false, error: { kind: 'timeout', message: 'no answer' } } }, chromeServer(), {}).checks
    expect(absent[0]!.verdict).toBe('na')
    expect(absent[0]!.expected).not.toBe('the one text')
  })

  test('every check of a judged submission carries a non-empty expectation', () => {
    for (const { signals, server } of [playwrightHeadless(), { signals: humanChrome(), server: chromeServer() }]) {
      for (const c of judge(signals, server).checks) expect(typeof c.expected === 'string' && c.expected.length > 0, c.id).toBe(true)
    }
  })
})
