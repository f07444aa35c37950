import { describe, expect, test } from 'bun:test'
import type { HttpHeadersSignals } from '../../common/signals/http-headers'
import { runChecks } from '../core/judge'
import { highEntropyHints } from './high-entropy-hints'

const BRANDS = [{ brand: 'Chromium', version: '124' }, { brand: 'Google Chrome', version: '124' }, { brand: 'Not-A.Brand', version: '99' }]
const HIGH = { architecture: 'x86', bitness: '64', model: '', platformVersion: '15.0.0', uaFullVersion: '124.0.6367.91', fullVersionList: null, wow64: false, formFactors: ['Desktop'] }
const HEADERS: Array<[string, string]> = [['sec-ch-ua-arch', '"x86"'], ['sec-ch-ua-bitness', '"64"'], ['sec-ch-ua-model', '""'], ['sec-ch-ua-platform-version', '"15.0.0"'], ['sec-ch-ua-wow64', '?0']]
const signals = (brands = BRANDS, high: typeof HIGH | null = HIGH) =>
  ({ uaData: { ok: true, value: { brands, mobile: false, platform: 'Windows', high, highError: high ? null : 'NotAllowedError' }, ms: 1 }, context: { ok: true, value: { secureContext: true, protocol: 'https:', hostname: 'a' }, ms: 1 } }) as unknown as HttpHeadersSignals
const run = (s: HttpHeadersSignals, headers: Array<[string, string]>) => runChecks([[highEntropyHints, 25]], s, { ip: '192.0.2.1', userAgent: 'x', headers, receivedAt: 0 }, {}).checks[0]!

describe('high-entropy-hints', () => {
  test('hints equal to getHighEntropyValues pass; a different one fails', () => {
    expect(run(signals(), HEADERS).verdict).toBe('pass')
    expect(run(signals(), HEADERS.map(([n, v]) => [n, n === 'sec-ch-ua-arch' ? '"arm"' : v] as [string, string])).verdict).toBe('fail')
  })
  test('none arriving only warns; Brave and a refused getHighEntropyValues are na', () => {
    expect(run(signals(), []).verdict).toBe('warn')
    expect(run(signals([{ brand: 'Brave', version: '124' }, ...BRANDS]), []).verdict).toBe('na')
    expect(run(signals(BRANDS, null), HEADERS).expected).toBe('getHighEntropyValues failed: NotAllowedError')
  })
})
