import { describe, expect, test } from 'bun:test'
import { ok, humanChrome, judge } from '../core/tools/bot-detector.fixture'

describe('window.chrome in bot-detector', () => {
  test('old headless without window.chrome on V8 fails', () => {
    const s = humanChrome()
    s.chrome = ok({ present: false, keys: [], runtime: false, functions: {} })
    expect(judge(s).byId('chrome-object').verdict).toBe('fail')
  })
})
