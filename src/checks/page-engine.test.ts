import { describe, expect, test } from 'bun:test'
import { JSC, SPIDERMONKEY, V8 } from '../core/tools/bot-detector.fixture'
import { claimAgainstEngine, NO_ENGINE_SIGNAL, pageEngine } from './page-engine'

describe('pageEngine', () => {
  test('names the engine the error messages show, and how it was told', () => {
    expect(pageEngine(V8)).toEqual({ engine: 'blink', basis: "judged by V8 (Blink), the engine the page's error messages show" })
    expect(pageEngine(SPIDERMONKEY).basis).toContain('SpiderMonkey (Gecko)')
    expect(pageEngine(JSC).basis).toContain('JavaScriptCore (WebKit)')
  })

  test('says why there is no engine: no signal, or messages of no known engine', () => {
    expect(pageEngine(undefined)).toEqual({ engine: 'unknown', basis: NO_ENGINE_SIGNAL })
    expect(pageEngine({ nullError: 'x', rangeError: 'y' }).basis).toContain('match none')
  })
})

describe('claimAgainstEngine', () => {
  test('says when the claimed engine is not the running one', () => {
    expect(claimAgainstEngine('blink', 'gecko')).toBe('the User-Agent claims blink, but the page runs on SpiderMonkey (Gecko)')
    expect(claimAgainstEngine('blink', 'blink')).toBeNull()
    expect(claimAgainstEngine('unknown', 'gecko')).toBeNull()
    expect(claimAgainstEngine('gecko', 'unknown')).toBeNull()
  })
})
