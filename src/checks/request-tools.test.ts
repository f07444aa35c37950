import { describe, expect, test } from 'bun:test'
import type { HttpHeadersSignals } from '../../common/signals/http-headers'
import { runChecks } from '../core/judge'
import { automationHeaders, uaAutomation } from './request-tools'

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36'
const run = (ua: string, headers: Array<[string, string]> = []) =>
  runChecks([[uaAutomation, 60], [automationHeaders, 30]], {} as HttpHeadersSignals, { ip: '192.0.2.1', userAgent: ua, headers: [['user-agent', ua], ...headers], receivedAt: 0 }, {}).checks.map((c) => c.verdict)

describe('ua-automation and automation-headers', () => {
  test('a browser request passes both', () => {
    expect(run(CHROME)).toEqual(['pass', 'pass'])
  })
  test('HeadlessChrome, an HTTP library, or a headless brand in Sec-CH-UA fail the User-Agent check', () => {
    expect(run(CHROME.replace('Chrome/', 'HeadlessChrome/'))[0]).toBe('fail')
    expect(run('python-requests/2.31.0')[0]).toBe('fail')
    expect(run(CHROME, [['sec-ch-ua', '"HeadlessChrome";v="124", "Chromium";v="124"']])[0]).toBe('fail')
  })
  test('headers only tools add fail', () => {
    expect(run(CHROME, [['x-devtools-emulate-network-conditions-client-id', 'A'], ['postman-token', 'b']])[1]).toBe('fail')
  })
})
