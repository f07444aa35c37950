import { describe, expect, test } from 'bun:test'
import type { BotDetectorSignals } from '../../common/signals/bot-detector'
import { runChecks } from '../core/judge'
import { CHROME_UA, humanChrome, missing, ok } from '../core/tools/bot-detector.fixture'
import { iframeProxy } from './iframe-window'

const run = (s: Partial<BotDetectorSignals>) => {
  const j = runChecks([[iframeProxy, 30]], s as BotDetectorSignals, { ip: '203.0.113.7', userAgent: CHROME_UA, headers: [], receivedAt: 0 }, {})
  return { check: j.checks[0]!, labels: [...j.labels] }
}
const frame = (o: object = {}) => ok({ sameAsFrames: true, selfIsWindow: true, getterNative: true, chrome: 'object', ...o })
const noChrome = ok({ present: false, keys: [], runtime: false, functions: {} })

describe('iframe-proxy', () => {
  test("passes a person's Chrome: the real window, with window.chrome", () => {
    const s = humanChrome()
    expect(run({ iframeProxy: s.iframeProxy, chrome: s.chrome })).toEqual({ check: expect.objectContaining({ verdict: 'pass', observed: 'the real window (chrome: object)' }), labels: [] })
  })

  test('passes Firefox, which has window.chrome nowhere', () => {
    expect(run({ iframeProxy: frame({ chrome: 'undefined' }), chrome: noChrome }).check).toMatchObject({ verdict: 'pass', observed: 'the real window (chrome: undefined)' })
  })

  test("fails puppeteer-extra-plugin-stealth's Proxy, listing each difference and naming stealth", () => {
    const r = run({ iframeProxy: frame({ sameAsFrames: false, selfIsWindow: false, getterNative: false }), chrome: humanChrome().chrome })
    expect(r.check).toMatchObject({
      verdict: 'fail',
      points: 30,
      observed: ['contentWindow is not window[i]', 'contentWindow.self is another object', 'the contentWindow getter is not native code'],
    })
    expect(r.labels).toEqual(['stealth'])
  })

  test('fails a window.chrome added to the page but not to its iframes (old headless with a patch)', () => {
    expect(run({ iframeProxy: frame({ chrome: 'undefined' }), chrome: humanChrome().chrome }).check).toMatchObject({ verdict: 'fail', observed: ['window.chrome exists in the page but not in the iframe'] })
  })

  test('judges the frame alone when the chrome signal is missing', () => {
    expect(run({ iframeProxy: frame({ chrome: 'undefined' }), chrome: missing() }).check.verdict).toBe('pass')
    expect(run({ iframeProxy: frame({ getterNative: false }) }).check).toMatchObject({ verdict: 'fail', observed: ['the contentWindow getter is not native code'] })
  })

  test('is not applicable without the iframe signal, saying why', () => {
    expect(run({ iframeProxy: missing('error', 'iframe could not be created'), chrome: humanChrome().chrome }).check).toMatchObject({ verdict: 'na', expected: 'error: iframe could not be created' })
  })
})
