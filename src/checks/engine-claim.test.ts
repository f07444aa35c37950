import { describe, expect, test } from 'bun:test'
import { CHROME_UA, FIREFOX_UA, HEADLESS_UA, SAFARI_UA, chromeServer } from '../core/tools/bot-detector.fixture'
import type { ServerObservation } from '../core/tools/observation'
import { ENGINE_LABEL, claimOf, engineClaimText } from './engine-claim'

const CRIOS = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/124.0.6367.88 Mobile/15E148 Safari/604.1'
const obs = (userAgent: string, headers: Array<[string, string]> = []): ServerObservation => ({ ip: '81.2.69.23', userAgent, headers, receivedAt: 0 })
const text = (ua: string) => engineClaimText(claimOf(obs(ua)))

describe('claimOf', () => {
  test("reads a person's Chrome and Firefox", () => {
    expect(claimOf(chromeServer())).toEqual({ os: 'windows', engine: 'blink', browser: 'chrome', major: 131, mobile: false })
    expect(claimOf(obs(FIREFOX_UA))).toEqual({ os: 'windows', engine: 'gecko', browser: 'firefox', major: 133, mobile: false })
  })

  test('names headless Chromium apart from Chrome', () => {
    expect(claimOf(obs(HEADLESS_UA))).toMatchObject({ engine: 'blink', browser: 'headless-chrome', major: 156, os: 'linux' })
  })

  test('falls back to the User-Agent header when the observation has no userAgent', () => {
    expect(claimOf(obs('', [['user-agent', FIREFOX_UA]]))).toMatchObject({ engine: 'gecko', browser: 'firefox' })
    expect(claimOf(obs(''))).toEqual({ os: 'unknown', engine: 'unknown', browser: 'unknown', major: null, mobile: false })
  })

  test('Chrome on iOS is WebKit, versioned by the system', () => {
    expect(claimOf(obs(CRIOS))).toMatchObject({ engine: 'webkit', browser: 'chrome', major: 17, os: 'ios', mobile: true })
  })
})

describe('engineClaimText', () => {
  test('says browser, major version and engine', () => {
    expect(text(CHROME_UA)).toBe('chrome 131 (Chromium (Blink))')
    expect(text(FIREFOX_UA)).toBe('firefox 133 (Firefox (Gecko))')
    expect(text(SAFARI_UA)).toBe('safari 18 (Safari (WebKit))')
    expect(text(HEADLESS_UA)).toBe('headless-chrome 156 (Chromium (Blink))')
  })

  test('leaves out an unknown version', () => {
    expect(text('curl/8.5.0')).toBe('unknown (unknown)')
    expect(engineClaimText({ os: 'linux', engine: 'gecko', browser: 'firefox', major: null, mobile: false })).toBe(`firefox (${ENGINE_LABEL.gecko})`)
  })
})
