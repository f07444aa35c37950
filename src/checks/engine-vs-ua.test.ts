import { describe, expect, test } from 'bun:test'
import { ok, SPIDERMONKEY, humanChrome, judge, V8 } from '../core/tools/bot-detector.fixture'

describe('engine and user agent in bot-detector', () => {
  test('a Chrome user agent on SpiderMonkey is a spoofed user agent', () => {
    const s = humanChrome()
    s.engine = ok(SPIDERMONKEY)
    const r = judge(s)
    expect(r.byId('engine-vs-ua').verdict).toBe('fail')
    expect(r.byId('eval-tostring').verdict).toBe('pass') // 37 fits the engine that actually runs
  })

  test('an eval length that fits no engine means toString was patched', () => {
    const s = humanChrome()
    s.engine = ok({ ...V8, evalLength: 45 })
    expect(judge(s).byId('eval-tostring').verdict).toBe('fail')
  })
})
