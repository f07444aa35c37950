import { describe, expect, test } from 'bun:test'
import type { TlsFingerprintSignals } from '../../common/signals/tls-fingerprint'
import { runChecks } from '../core/judge'
import { browserClaim } from './browser-claim'
import { engineApis } from './engine-apis'
import { ok } from '../../tests/support/signals'

const CHROME_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36'
const FIREFOX_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:125.0) Gecko/20100101 Firefox/125.0'
const HINTS: Array<[string, string]> = [['sec-ch-ua', '"Chromium";v="124", "Google Chrome";v="124", "Not-A.Brand";v="99"'], ['sec-ch-ua-platform', '"Windows"']]
const unsupported = { ok: false as const, error: { kind: 'unsupported' as const, message: 'no' }, ms: 1 }
const chromium = { uaData: ok({ brands: [], mobile: false, platform: 'Windows', high: null, highError: null }), connection: ok({ type: null, effectiveType: '4g', rtt: 50, downlink: 10, saveData: false }), stack: ok({ pageProtocol: 'https:', secureContext: true, navigationProtocol: 'h2', fetchProtocol: 'h2', navigationTls: true }) }
const gecko = { ...chromium, uaData: unsupported, connection: unsupported }
const run = (s: object, ua: string, headers: Array<[string, string]> = []) =>
  runChecks([[browserClaim, 30], [engineApis, 30]], s as unknown as TlsFingerprintSignals, { ip: '192.0.2.1', userAgent: ua, headers: [['user-agent', ua], ...headers], receivedAt: 0 }, {}).checks.map((c) => c.verdict)

describe('claimed-browser and engine-apis', () => {
  test('Chrome with its hints and APIs, and a real Firefox, pass both', () => {
    expect(run(chromium, CHROME_UA, HINTS)).toEqual(['pass', 'pass'])
    expect(run(gecko, FIREFOX_UA)).toEqual(['pass', 'pass'])
  })
  test('Firefox behind a Chrome User-Agent: no hints from a secure page, no Chromium APIs', () => {
    expect(run(gecko, CHROME_UA)).toEqual(['fail', 'fail'])
  })
  test("Chromium behind a Firefox User-Agent keeps its APIs; an HTTP library's claim fails", () => {
    expect(run(chromium, FIREFOX_UA)[1]).toBe('fail')
    expect(run(chromium, 'python-requests/2.31.0')).toEqual(['fail', 'na'])
  })
})
