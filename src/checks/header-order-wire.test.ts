import { describe, expect, test } from 'bun:test'
import { botDetector } from '../core/tools/bot-detector'
import { humanChrome } from '../core/tools/bot-detector.fixture'

describe('header order in bot-detector', () => {
  test("header order off the wire: Chromium's own passes, Playwright's injected Accept-Language fails, none is na", () => {
    const ua = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
    const order = (names: string[] | null) =>
      botDetector.judge(humanChrome(), { ip: '81.2.69.23', userAgent: ua, headers: [['user-agent', ua]], receivedAt: 0, evidence: names ? [{ kind: 'http2', data: { header_order: names }, observedAt: 'x' }] : [] }).checks.find((c) => c.id === 'header-order-wire')!
    // Both captured from Chromium 156 fetching the TLS listener (tests/tls-fingerprint.e2e.ts).
    const own = ['pragma', 'cache-control', 'sec-ch-ua-platform', 'user-agent', 'sec-ch-ua', 'sec-ch-ua-mobile', 'accept', 'origin', 'sec-fetch-site', 'sec-fetch-mode', 'sec-fetch-dest', 'referer', 'accept-encoding', 'accept-language', 'priority']
    const driven = ['pragma', 'cache-control', 'sec-ch-ua-platform', 'user-agent', 'sec-ch-ua', 'accept-language', 'sec-ch-ua-mobile', 'accept', 'origin', 'sec-fetch-site', 'sec-fetch-mode', 'sec-fetch-dest', 'referer', 'accept-encoding', 'priority']
    expect(order(own).verdict).toBe('pass')
    expect(order(driven)).toMatchObject({ verdict: 'fail', observed: { broken: ['accept-encoding after accept-language'] } })
    expect(order(null).verdict).toBe('na')
    expect(order(null).expected).toContain('TLS_PORT')
  })
})
