import { describe, expect, test } from 'bun:test'
import type { BotDetectorSignals } from '../../common/signals/bot-detector'
import { runChecks } from '../core/judge'
import { CHROME_UA, JSC, SPIDERMONKEY, V8, humanChrome, missing, ok, playwrightHeadless } from '../core/tools/bot-detector.fixture'
import { cdpRuntime } from './cdp-console'

const server = { ip: '203.0.113.7', userAgent: CHROME_UA, headers: [], receivedAt: 0 }
const run = (s: Partial<BotDetectorSignals>) => {
  const j = runChecks([[cdpRuntime, 30]], s as BotDetectorSignals, server, {})
  return { check: j.checks[0]!, labels: [...j.labels] }
}
const quiet = ok({ prepareStackTrace: false, stackGetter: false })

describe('cdp-runtime', () => {
  test("passes a person's Chrome: nothing formats the logged error", () => {
    const s = humanChrome()
    expect(run({ cdp: s.cdp, engine: s.engine })).toEqual({ check: expect.objectContaining({ verdict: 'pass', points: 0, observed: "nothing read the logged error's stack" }), labels: [] })
  })

  test('fails Playwright (Runtime domain enabled), naming cdp', () => {
    const { signals } = playwrightHeadless()
    const r = run({ cdp: signals.cdp, engine: signals.engine })
    expect(r.check).toMatchObject({ verdict: 'fail', points: 30, observed: 'console.debug(error) called Error.prepareStackTrace' })
    expect(r.check.expected).toContain("judged by V8 (Blink), the engine the page's error messages show")
    expect(r.labels).toEqual(['cdp'])
  })

  test("fails an older Chromium's client that reads the error's stack getter", () => {
    expect(run({ cdp: ok({ prepareStackTrace: false, stackGetter: true }), engine: ok(V8) }).check).toMatchObject({ verdict: 'fail', observed: "console.debug(error) read the error's stack getter" })
  })

  test("is not applicable on Firefox and Safari, whose consoles may read the stack getter themselves", () => {
    const getter = ok({ prepareStackTrace: false, stackGetter: true })
    expect(run({ cdp: getter, engine: ok(SPIDERMONKEY) }).check).toMatchObject({
      verdict: 'na',
      expected: "not applicable: only V8 (Blink) calls Error.prepareStackTrace (judged by SpiderMonkey (Gecko), the engine the page's error messages show)",
    })
    expect(run({ cdp: getter, engine: ok(JSC) }).check.expected).toContain('judged by JavaScriptCore (WebKit)')
  })

  test('is not applicable when the engine cannot be told', () => {
    expect(run({ cdp: ok({ prepareStackTrace: true, stackGetter: false }), engine: missing() }).check).toMatchObject({
      verdict: 'na',
      expected: 'not applicable: only V8 (Blink) calls Error.prepareStackTrace (judged without an engine: the page did not report its error messages (the engine signal))',
    })
  })

  test('is not applicable without the cdp signal, saying why', () => {
    expect(run({ cdp: missing('error', 'console.debug threw'), engine: ok(V8) }).check).toMatchObject({ verdict: 'na', expected: 'error: console.debug threw' })
    expect(run({ engine: ok(V8) }).check).toMatchObject({ verdict: 'na', expected: 'not collected' })
    expect(run({ cdp: quiet, engine: ok(V8) }).check.verdict).toBe('pass')
  })
})
