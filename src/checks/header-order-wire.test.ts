import { describe, expect, test } from 'bun:test'
import { botDetector } from '../core/tools/bot-detector'
import { humanChrome, ok, SPIDERMONKEY } from '../core/tools/bot-detector.fixture'

describe('header order in bot-detector', () => {
  test("header order off the wire: Chromium's own passes, Playwright's injected Accept-Language fails, none is na", () => {
    const ua = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
    const order = (names: string[] | null, signals = humanChrome()) =>
      botDetector.judge(signals, { ip: '81.2.69.23', userAgent: ua, headers: [['user-agent', ua]], receivedAt: 0, evidence: names ? [{ kind: 'http2', data: { header_order: names }, observedAt: 'x' }] : [] }).checks.find((c) => c.id === 'header-order-wire')!
    // Both captured from Chromium 156 fetching the TLS listener (tests/tls-fingerprint.e2e.ts).
    const own = ['pragma', 'cache-control', 'sec-ch-ua-platform', 'user-agent', 'sec-ch-ua', 'sec-ch-ua-mobile', 'accept', 'origin', 'sec-fetch-site', 'sec-fetch-mode', 'sec-fetch-dest', 'referer', 'accept-encoding', 'accept-language', 'priority']
    const driven = ['pragma', 'cache-control', 'sec-ch-ua-platform', 'user-agent', 'sec-ch-ua', 'accept-language', 'sec-ch-ua-mobile', 'accept', 'origin', 'sec-fetch-site', 'sec-fetch-mode', 'sec-fetch-dest', 'referer', 'accept-encoding', 'priority']
    expect(order(own)).toMatchObject({ verdict: 'pass', expected: 'chromium header order, as the blink engine the User-Agent header claims writes it' })
    // A Chrome User-Agent on SpiderMonkey: still judged by the claim, and the page's engine is named with how it was told.
    const firefox = humanChrome()
    firefox.engine = ok(SPIDERMONKEY)
    expect(order(own, firefox).expected).toBe(
      "chromium header order, as the blink engine the User-Agent header claims writes it (the User-Agent claims blink, but the page runs on SpiderMonkey (Gecko): judged by SpiderMonkey (Gecko), the engine the page's error messages show)",
    )
    expect(order(driven)).toMatchObject({ verdict: 'fail', observed: { broken: ['accept-encoding after accept-language'] } })
    expect(order(null).verdict).toBe('na')
    expect(order(null).expected).toContain('TLS_PORT')
  })
})
