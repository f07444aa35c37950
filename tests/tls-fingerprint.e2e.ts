// tls-fingerprint in Debian's Chromium, with and without the TLS evidence listener.
// Without TLS_PORT the claimed browser holds together (headless Chromium has Chrome's TLS
// stack), the page reports the negotiated protocol, and every ClientHello and HTTP/2 check is
// `na`. With TLS_PORT=0 the page opens a fresh connection to the listener, which files the
// ClientHello (JA4 t13…) and the HTTP/2 fingerprint under the page's nonce; the task carries
// them in results.server.evidence and the fingerprint checks pass for Chromium.

import { execFile } from 'node:child_process'
import { chromium, expect, test, type Browser } from '@playwright/test'
import { startServer, type RunningServer } from './support/server'

interface Task {
  score: number
  results: {
    checks: Array<{ id: string; verdict: string; expected: string; observed: unknown; source: string }>
    tls: Record<string, unknown>
    http2: Record<string, unknown>
    claimed: { family: string; engine: string }
    transport: { navigationProtocol: string | null; fetchProtocol: string | null; connection: unknown }
    verdict: string
    verified: boolean
    server: { evidence: Array<{ kind: string; data: Record<string, unknown>; observedAt: string }> }
  }
}

async function runTool(server: RunningServer, key: string, page: import('@playwright/test').Page, tool = 'tls-fingerprint'): Promise<Task> {
  await page.goto(`${server.baseUrl}/tools/${tool}`)
  const id = await page.locator('body[data-task]').getAttribute('data-task', { timeout: 30_000 })
  const res = await fetch(`${server.baseUrl}/api/antibot/tasks/${id}`, { headers: { authorization: `Bearer ${key}` } })
  return (await res.json()) as Task
}

test.describe('without the listener', () => {
  let server: RunningServer
  let key: string
  test.beforeAll(async () => {
    server = await startServer()
    key = await server.makeKey()
  })
  test.afterAll(async () => server?.stop())

  test('default headless Chromium: consistent claim, protocol seen, fingerprints na', async ({ page }) => {
    const task = await runTool(server, key, page)
    const by = Object.fromEntries(task.results.checks.map((c) => [c.id, c]))
    for (const c of ['claimed-browser', 'engine-apis', 'next-hop-protocol']) expect(by[c]!.verdict, c).toBe('pass')
    for (const c of ['transport-tls', 'ja3', 'ja4', 'tls-parameters', 'http2-fingerprint']) {
      expect(by[c]!.verdict, c).toBe('na')
      expect(by[c]!.expected).toContain('TLS_PORT')
    }
    expect(task.results.claimed).toMatchObject({ family: 'chrome', engine: 'blink' })
    expect(task.results.transport).toMatchObject({ navigationProtocol: 'http/1.1', fetchProtocol: 'http/1.1' })
    expect(task.results.transport.connection).not.toBeNull()
    expect(Object.values(task.results.tls).every((v) => v === null)).toBe(true)
    await expect(page.getByRole('region', { name: 'Results' })).toContainText('Not tested')
    await page.screenshot({ path: test.info().outputPath('tls-fingerprint.png'), fullPage: true })
  })
})

test.describe('with the TLS evidence listener (TLS_PORT=0)', () => {
  let server: RunningServer
  let key: string
  let browser: Browser
  test.beforeAll(async () => {
    server = await startServer({ TLS_PORT: '0' })
    key = await server.makeKey()
    const base = test.info().project.use.launchOptions ?? {}
    // The listener's certificate is self-signed (DATA_DIR/tls/cert.pem).
    browser = await chromium.launch({ ...base, args: [...(base.args ?? []), '--ignore-certificate-errors'] })
  })
  test.afterAll(async () => {
    await browser?.close()
    await server?.stop()
  })

  test('the ClientHello (JA4 t13…) and the HTTP/2 fingerprint are in the task and judged as Chromium', async () => {
    const page = await browser.newPage()
    const task = await runTool(server, key, page)
    expect(task.results.verified).toBe(true)
    const ev = task.results.server.evidence
    const tls = ev.find((e) => e.kind === 'tls')!.data
    const h2 = ev.find((e) => e.kind === 'http2')!.data
    expect(tls.ja4).toMatch(/^t13i\d{4}h2_8daaf6152771_/)
    expect(tls.grease).toBe(true)
    expect(tls.alpn).toEqual(['h2', 'http/1.1'])
    expect(h2.akamai).toBe('1:65536;2:0;4:6291456;6:262144|15663105|0|m,a,s,p')
    expect(h2.pseudo_header_order).toEqual([':method', ':authority', ':scheme', ':path'])
    const by = Object.fromEntries(task.results.checks.map((c) => [c.id, c]))
    for (const c of ['transport-tls', 'ja3', 'ja4', 'http2-fingerprint']) expect(by[c]!.verdict, c).toBe('pass')
    expect(task.results.tls).toMatchObject({ ja4: tls.ja4, family: 'chromium', version: 'TLS 1.3' })
    expect(task.results.http2).toMatchObject({ akamai: h2.akamai, family: 'chromium' })
    await expect(page.getByRole('region', { name: 'Results' })).toContainText('TLS stack seen: Chromium (BoringSSL)')
    await page.close()
  })

  test('bot-detector opens the listener too: its TLS and HTTP/2 checks judge this browser’s own handshake', async () => {
    const page = await browser.newPage()
    const task = await runTool(server, key, page, 'bot-detector')
    const kinds = task.results.server.evidence.map((e) => e.kind)
    expect(kinds).toEqual(expect.arrayContaining(['tls', 'http2']))
    const by = Object.fromEntries(task.results.checks.map((c) => [c.id, c]))
    // HeadlessChrome claims Chrome, and the handshake is Chromium's: consistent, so these pass
    // (the page is still a bot, for other reasons).
    expect(by['tls-fingerprint']).toMatchObject({ verdict: 'pass', source: 'server' })
    expect(String(by['tls-fingerprint']!.observed)).toMatch(/^t13i\d{4}h2_8daaf6152771_.*Chromium/)
    expect(by['http2-fingerprint']).toMatchObject({ verdict: 'pass', source: 'server' })
    // Playwright's Accept-Language, added through the DevTools protocol, is out of place on the wire.
    expect(by['header-order-wire']).toMatchObject({ verdict: 'fail', observed: { broken: ['accept-encoding after accept-language'] } })
    await page.close()
  })

  test('http-headers reads header order off the wire: Playwright’s Accept-Language override shows, plain Chromium passes', async () => {
    const page = await browser.newPage()
    const task = await runTool(server, key, page, 'http-headers')
    const by = Object.fromEntries(task.results.checks.map((c) => [c.id, c]))
    // Bun lists the POST's headers sorted; the listener kept the order Chromium sent, in which
    // the Accept-Language Playwright adds through the DevTools protocol sits near User-Agent.
    expect(by['header-order']).toMatchObject({ verdict: 'fail', observed: { broken: ['accept-encoding after accept-language'] } })
    expect(JSON.stringify(by['header-order']!.observed)).toContain('wire order')
    expect(by['header-case-http-version']).toMatchObject({ verdict: 'pass' })
    expect(String(by['header-case-http-version']!.observed)).toMatch(/^HTTP\/2/)
    await page.close()

    // The same Chromium without a driver: headless, dumping the DOM once the page has run.
    const html = await new Promise<string>((resolve, reject) =>
      execFile(
        process.env.CHROMIUM_PATH || '/usr/bin/chromium',
        ['--headless', '--no-sandbox', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-quic', '--ignore-certificate-errors', '--virtual-time-budget=15000', '--dump-dom', `${server.baseUrl}/tools/http-headers`],
        { timeout: 45_000, maxBuffer: 8 << 20 },
        (err, stdout) => (err ? reject(err) : resolve(stdout)),
      ),
    )
    const id = /data-task="([0-9a-f-]{36})"/.exec(html)?.[1]
    expect(id, 'the page stored a task').toBeDefined()
    const plain = (await (await fetch(`${server.baseUrl}/api/antibot/tasks/${id}`, { headers: { authorization: `Bearer ${key}` } })).json()) as Task
    const h2 = plain.results.server.evidence.find((e) => e.kind === 'http2')!.data
    expect((h2.header_order as string[]).slice(-3)).toEqual(['accept-encoding', 'accept-language', 'priority'])
    expect(plain.results.checks.find((c) => c.id === 'header-order')).toMatchObject({ verdict: 'pass' })
  })
})
