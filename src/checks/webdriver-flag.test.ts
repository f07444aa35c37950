import { describe, expect, test } from 'bun:test'
import type { BotDetectorSignals } from '../../common/signals/bot-detector'
import { runChecks, type WeightedCheck } from '../core/judge'
import { webdriverDescriptor, webdriverFlag } from './webdriver-flag'
import { CHROME_UA, JSC, SPIDERMONKEY, humanChrome, judge, ok } from '../core/tools/bot-detector.fixture'

const server = { ip: '203.0.113.7', userAgent: CHROME_UA, headers: [], receivedAt: 0 }
const run = (check: WeightedCheck<BotDetectorSignals>[0], s: Partial<BotDetectorSignals>) => {
  const j = runChecks([[check, 10]], s as BotDetectorSignals, server, {})
  return { check: j.checks[0]!, labels: j.labels }
}
const flag = (o: object = {}) => ok({ value: false, present: true, ownProperties: [], proto: 'getter' as const, getterNative: true, ...o })

describe('webdriver-flag', () => {
  test('true in a worker alone fails and names webdriver', () => {
    const worker = ok({ webdriver: true } as never)
    const r = run(webdriverFlag, { webdriver: flag(), worker })
    expect(r.check).toMatchObject({ verdict: 'fail', observed: 'navigator.webdriver = false (true in: worker)' })
    expect([...r.labels]).toEqual(['webdriver'])
  })

  test('false or absent everywhere passes', () => {
    expect(run(webdriverFlag, { webdriver: flag({ value: null, present: false }) }).check).toMatchObject({ verdict: 'pass', observed: 'navigator.webdriver = absent' })
  })
})

describe('webdriver-descriptor', () => {
  test('deleted from Navigator.prototype fails on SpiderMonkey, not on JavaScriptCore', () => {
    const deleted = flag({ value: null, present: false, proto: 'missing', getterNative: null })
    const gecko = run(webdriverDescriptor, { webdriver: deleted, engine: ok(SPIDERMONKEY) }).check
    expect(gecko).toMatchObject({ verdict: 'fail', observed: ['deleted from Navigator.prototype on SpiderMonkey (Gecko), which defines it'] })
    expect(gecko.expected).toContain("judged by SpiderMonkey (Gecko), the engine the page's error messages show")
    const webkit = run(webdriverDescriptor, { webdriver: deleted, engine: ok(JSC) }).check
    expect(webkit).toMatchObject({ verdict: 'pass', observed: 'not defined (missing)' })
    expect(webkit.expected).toContain('judged by JavaScriptCore (WebKit)')
    expect(run(webdriverDescriptor, { webdriver: deleted }).check.expected).toContain('the page did not report its error messages')
  })

  test('a data property instead of a getter is a stealth patch', () => {
    const r = run(webdriverDescriptor, { webdriver: flag({ proto: 'value', getterNative: null }) })
    expect(r.check).toMatchObject({ verdict: 'fail', observed: ['a data property on Navigator.prototype instead of a getter'] })
    expect([...r.labels]).toEqual(['stealth'])
  })
})

describe('webdriver checks in bot-detector', () => {
  test('webdriver deleted from Navigator.prototype fails on V8 but not on an unknown engine', () => {
    const s = humanChrome()
    s.webdriver = ok({ value: null, present: false, ownProperties: [], proto: 'missing' as const, getterNative: null })
    expect(judge(s).byId('webdriver-descriptor').verdict).toBe('fail')
    s.engine = ok({ evalLength: 33, nullError: 'odd', rangeError: 'odd' })
    expect(judge(s).byId('webdriver-descriptor').verdict).toBe('pass')
  })

  test('an own webdriver property on navigator is a lie on an automation API', () => {
    const s = humanChrome()
    s.webdriver = ok({ value: false, present: true, ownProperties: ['webdriver'], proto: 'getter' as const, getterNative: true })
    const r = judge(s)
    expect(r.byId('webdriver-descriptor').verdict).toBe('fail')
    expect(r.byId('stealth-lies').observed).toEqual(['Navigator.webdriver: own-property'])
  })
})
