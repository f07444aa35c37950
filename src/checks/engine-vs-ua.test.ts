import { describe, expect, test } from 'bun:test'
import { ok, SPIDERMONKEY, humanChrome, judge, V8 } from '../core/tools/bot-detector.fixture'

describe('engine and user agent in bot-detector', () => {
  test('a Chrome user agent on SpiderMonkey is a spoofed user agent', () => {
    const s = humanChrome()
    s.engine = ok(SPIDERMONKEY)
    const r = judge(s)
    expect(r.byId('engine-vs-ua')).toMatchObject({
      verdict: 'fail',
      observed: 'SpiderMonkey (Gecko) runs the page, as its error messages show; the user agent claims blink',
      expected: "the blink engine the user agent names (judged by SpiderMonkey (Gecko), the engine the page's error messages show)",
    })
    expect(r.byId('eval-tostring')).toMatchObject({ verdict: 'pass', expected: "37 (SpiderMonkey (Gecko); judged by SpiderMonkey (Gecko), the engine the page's error messages show)" }) // 37 fits the engine that actually runs
  })

  test('an eval length that fits no engine means toString was patched', () => {
    const s = humanChrome()
    s.engine = ok({ ...V8, evalLength: 45 })
    expect(judge(s).byId('eval-tostring').verdict).toBe('fail')
  })

  test('messages of no known engine: the length is judged against every engine, not the user agent alone', () => {
    const s = humanChrome()
    s.engine = ok({ evalLength: 37, nullError: 'odd', rangeError: 'odd' })
    const c = judge(s).byId('eval-tostring')
    expect(c.verdict).toBe('pass') // a Chrome user agent, but 37 is an engine's length
    expect(c.expected).toBe("33 (V8) or 37 (SpiderMonkey, JavaScriptCore): judged without an engine: the page's error messages match none")
    s.engine = ok({ evalLength: 40, nullError: 'odd', rangeError: 'odd' })
    expect(judge(s).byId('eval-tostring').verdict).toBe('fail')
  })
})
