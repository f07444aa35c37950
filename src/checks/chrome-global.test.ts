import { describe, expect, test } from 'bun:test'
import { ok, humanChrome, judge, SPIDERMONKEY } from '../core/tools/bot-detector.fixture'

describe('window.chrome in bot-detector', () => {
  test('old headless without window.chrome on V8 fails', () => {
    const s = humanChrome()
    s.chrome = ok({ present: false, keys: [], runtime: false, functions: {} })
    const c = judge(s).byId('chrome-object')
    expect(c.verdict).toBe('fail')
    expect(c.expected).toBe("window.chrome with native functions (judged by V8 (Blink), the engine the page's error messages show)")
  })

  test('no window.chrome on SpiderMonkey under a Chrome user agent is not judged as missing, saying by which engine', () => {
    const s = humanChrome()
    s.engine = ok(SPIDERMONKEY)
    s.chrome = ok({ present: false, keys: [], runtime: false, functions: {} })
    const c = judge(s).byId('chrome-object')
    expect(c.verdict).toBe('pass')
    expect(c.expected).toContain('judged by SpiderMonkey (Gecko)')
  })
})
