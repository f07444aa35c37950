import { describe, expect, test } from 'bun:test'
import type { BotDetectorSignals } from '../../common/signals/bot-detector'
import { runChecks } from '../core/judge'
import { CHROME_UA, FIREFOX_UA, humanChrome, missing, ok } from '../core/tools/bot-detector.fixture'
import { languagesList } from './navigator-languages'

const run = (navigator: BotDetectorSignals['navigator']) => runChecks([[languagesList, 20]], { navigator } as BotDetectorSignals, { ip: '203.0.113.7', userAgent: CHROME_UA, headers: [], receivedAt: 0 }, {}).checks[0]!
const nav = (language: string, languages: string[], userAgent = CHROME_UA) => {
  const s = humanChrome()
  if (!s.navigator.ok) throw new Error('fixture')
  return ok({ ...s.navigator.value, userAgent, language, languages })
}

describe('languages', () => {
  test("passes a person's Chrome", () => {
    expect(run(humanChrome().navigator)).toMatchObject({ verdict: 'pass', observed: 'language "en-GB", languages [en-GB, en]', expected: 'a non-empty list whose first entry is navigator.language' })
  })

  test('passes Firefox with several languages, and a single-language list', () => {
    expect(run(nav('de', ['de', 'en-US', 'en'], FIREFOX_UA)).verdict).toBe('pass')
    expect(run(nav('fr-FR', ['fr-FR'])).verdict).toBe('pass')
  })

  test('fails the empty list of old headless Chromium', () => {
    expect(run(nav('en-US', []))).toMatchObject({ verdict: 'fail', points: 20, observed: 'language "en-US", languages []' })
    expect(run(nav('', ['en-US'])).verdict).toBe('fail')
  })

  test('warns on a patched list whose first entry is not navigator.language', () => {
    expect(run(nav('en-US', ['de-DE', 'de']))).toMatchObject({ verdict: 'warn', points: 10, observed: 'language "en-US", languages [de-DE, de]' })
  })

  test('is not applicable without the navigator signal, saying why', () => {
    expect(run(missing())).toMatchObject({ verdict: 'na', expected: 'timeout: no answer within 3000 ms' })
  })
})
