import { describe, expect, test } from 'bun:test'
import { CHROME_UA, FIREFOX_UA, HEADLESS_UA, JSC, SPIDERMONKEY, V8, humanChrome, playwrightHeadless } from '../core/tools/bot-detector.fixture'
import { claimedBrowser, pageUserAgent, runningEngine } from './claimed-browser'

const nav = (userAgent: string) => {
  const s = humanChrome()
  if (!s.navigator.ok) throw new Error('fixture')
  return { ...s.navigator.value, userAgent }
}
const header = (userAgent: string) => ({ userAgent })

describe('pageUserAgent', () => {
  test("prefers navigator.userAgent over the header, falls back to the header's", () => {
    expect(pageUserAgent(nav(FIREFOX_UA), header(CHROME_UA))).toBe(FIREFOX_UA)
    expect(pageUserAgent(undefined, header(CHROME_UA))).toBe(CHROME_UA)
  })
})

describe('claimedBrowser', () => {
  test("reads a person's Chrome and Firefox", () => {
    expect(claimedBrowser(nav(CHROME_UA), header(CHROME_UA))).toEqual({ family: 'chrome', engine: 'blink', version: 131, os: 'windows', mobile: false, headless: false, tool: null })
    expect(claimedBrowser(nav(FIREFOX_UA), header(FIREFOX_UA))).toMatchObject({ family: 'firefox', engine: 'gecko', version: 133, headless: false })
  })

  test("reads headless Chromium from the page, even when the header was overridden", () => {
    const { signals } = playwrightHeadless()
    if (!signals.navigator.ok) throw new Error('fixture')
    expect(claimedBrowser(signals.navigator.value, header(CHROME_UA))).toMatchObject({ family: 'chrome', engine: 'blink', version: 156, os: 'linux', headless: true })
  })

  test('falls back to the header when the page could not read navigator: an HTTP library is a tool', () => {
    expect(claimedBrowser(undefined, header('curl/8.5.0'))).toMatchObject({ family: 'tool', engine: 'unknown', tool: 'curl' })
    expect(claimedBrowser(undefined, header(HEADLESS_UA))).toMatchObject({ engine: 'blink', headless: true })
  })
})

describe('runningEngine', () => {
  test('names the engine from its error messages', () => {
    expect(runningEngine(V8)).toBe('blink')
    expect(runningEngine(SPIDERMONKEY)).toBe('gecko')
    expect(runningEngine(JSC)).toBe('webkit')
  })

  test('is unknown without the signal, or when the two messages name different engines (patched)', () => {
    expect(runningEngine(undefined)).toBe('unknown')
    expect(runningEngine({ evalLength: 33, nullError: V8.nullError, rangeError: SPIDERMONKEY.rangeError })).toBe('unknown')
  })

  test('a UA switcher changes the claim, not the running engine', () => {
    expect(claimedBrowser(nav(FIREFOX_UA), header(FIREFOX_UA)).engine).toBe('gecko')
    expect(runningEngine(V8)).toBe('blink')
  })
})
