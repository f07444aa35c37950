import { describe, expect, test } from 'bun:test'
import type { TlsFingerprintSignals } from '../../common/signals/tls-fingerprint'
import { runChecks } from '../core/judge'
import { engineApis } from './engine-apis'
import { ok, missing } from '../../tests/support/signals'

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36'
const FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:125.0) Gecko/20100101 Firefox/125.0'
const FIREFOX_ANDROID = 'Mozilla/5.0 (Android 14; Mobile; rv:125.0) Gecko/125.0 Firefox/125.0'
const SAFARI = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15'
const BRANDS = [{ brand: 'Chromium', version: '124' }, { brand: 'Google Chrome', version: '124' }, { brand: 'Not-A.Brand', version: '99' }]

const NO_UA_DATA = missing('unsupported', 'no navigator.userAgentData')
const NO_CONNECTION = missing('unsupported', 'no navigator.connection')
const https = (secureContext = true) => ok({ pageProtocol: secureContext ? 'https:' : 'http:', secureContext, navigationProtocol: 'h2', fetchProtocol: 'h2', navigationTls: secureContext })

/** What a person's Chrome 124 reports over https. */
const chrome = (over: Partial<TlsFingerprintSignals> = {}): Partial<TlsFingerprintSignals> => ({
  uaData: ok({ brands: BRANDS, mobile: false, platform: 'Windows', high: null, highError: null }),
  connection: ok({ type: null, effectiveType: '4g', rtt: 50, downlink: 10, saveData: false }),
  stack: https(),
  ...over,
})
/** What Firefox or Safari reports: neither API. */
const noApis = (over: Partial<TlsFingerprintSignals> = {}) => chrome({ uaData: NO_UA_DATA, connection: NO_CONNECTION, ...over })
const run = (s: Partial<TlsFingerprintSignals>, ua: string) => runChecks([[engineApis, 30]], s as TlsFingerprintSignals, { ip: '81.2.69.23', userAgent: ua, headers: [['user-agent', ua]], receivedAt: 0 }, {}).checks[0]!

describe('engine-apis', () => {
  test("passes a person's Chrome with both APIs", () => {
    expect(run(chrome(), CHROME)).toMatchObject({ verdict: 'pass', observed: 'userAgentData present, navigator.connection present', expected: 'both present in Chromium, the engine the User-Agent claims' })
  })

  test('passes Chrome on an insecure page, where userAgentData is hidden', () => {
    expect(run(chrome({ uaData: NO_UA_DATA, stack: https(false) }), CHROME)).toMatchObject({ verdict: 'pass', observed: 'userAgentData absent, navigator.connection present' })
  })

  test('passes desktop Firefox and Safari without either API', () => {
    expect(run(noApis(), FIREFOX)).toMatchObject({ verdict: 'pass', observed: 'userAgentData absent, navigator.connection absent', expected: 'neither in gecko, the engine the User-Agent claims' })
    expect(run(noApis(), SAFARI)).toMatchObject({ verdict: 'pass', expected: 'neither in webkit, the engine the User-Agent claims' })
  })

  test('passes Firefox for Android, which keeps navigator.connection', () => {
    expect(run(noApis({ connection: ok({ type: 'wifi', effectiveType: '4g', rtt: null, downlink: null, saveData: null }) }), FIREFOX_ANDROID).verdict).toBe('pass')
  })

  test('fails Firefox behind a Chrome User-Agent switcher', () => {
    expect(run(noApis(), CHROME)).toMatchObject({
      verdict: 'fail',
      points: 30,
      observed: 'userAgentData absent, navigator.connection absent: no navigator.userAgentData, no navigator.connection for chrome 124 (blink) on windows',
    })
  })

  test('fails Chromium claiming to be Firefox or Safari', () => {
    expect(run(chrome(), FIREFOX)).toMatchObject({ verdict: 'fail', observed: 'userAgentData present, navigator.connection present: navigator.userAgentData exists, navigator.connection exists for firefox 125 (gecko) on windows' })
    expect(run(chrome(), SAFARI).verdict).toBe('fail')
  })

  test('is not applicable when an API could not be read, or the User-Agent names no engine', () => {
    expect(run(chrome({ uaData: missing('timeout', 'no answer within 3000 ms') }), CHROME)).toMatchObject({ verdict: 'na', expected: 'timeout: no answer within 3000 ms' })
    expect(run(noApis({ connection: missing('timeout', 'no answer within 3000 ms') }), FIREFOX)).toMatchObject({ verdict: 'na', expected: 'timeout: no answer within 3000 ms' })
    expect(run(chrome(), 'python-requests/2.31.0')).toMatchObject({ verdict: 'na', expected: 'the User-Agent names no engine' })
  })
})
