// tls-fingerprint in Debian's Chromium and Firefox ESR, on the service in its default
// configuration: the HTTPS listener is on (TLS_PORT unset: with PORT=0 a free port of its own)
// with its self-signed certificate.
// - A browser that trusts the certificate (Chromium with --ignore-certificate-errors; Firefox ESR
//   started as a person, with the certificate added to its fresh profile by certutil) gets a
//   JA4 and an HTTP/2 fingerprint both ways: the page loaded over plain HTTP opens a side
//   connection to /evidence/<nonce>, and the page loaded over HTTPS is judged on the handshake
//   and HTTP/2 frames of the very connection it came over. The stack seen matches the browser.
// - Chromium as Playwright starts it does not trust the certificate: the side connection is
//   refused, and the page's headline and results.handshake say the handshake was not tested,
//   why, and where to test it, instead of a score (results.tested false).

import { execFile, execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test, type Browser } from '@playwright/test'
import { BROWSER_PATHS, PEOPLE, visit } from './matrix/person'
import { startXvfb } from './matrix/xvfb'
import { launchTrustingChromium } from './support/chromium'
import { requirePrerequisite } from './support/prerequisites'
import { startServer, type RunningServer } from './support/server'

interface Task {
  score: number
  results: {
    checks: Array<{ id: string; verdict: string; expected: string; observed: unknown; source: string }>
    tls: Record<string, unknown>
    http2: Record<string, unknown>
    claimed: { family: string; engine: string }
    transport: { pageProtocol: string | null; navigationProtocol: string | null; fetchProtocol: string | null; connection: unknown }
    handshake: { tested: boolean; reason: string | null; httpsUrl: string | null }
    tested: boolean
    untested?: { reason: string; url: string | null }
    verdict: string
    verified: boolean
    server: { evidence: Array<{ kind: string; data: Record<string, unknown>; observedAt: string }> }
  }
}

const CHROMIUM_AKAMAI = '1:65536;2:0;4:6291456;6:262144|15663105|0|m,a,s,p'

async function fetchTask(server: RunningServer, key: string, id: string | null): Promise<Task> {
  const res = await fetch(`${server.baseUrl}/api/antibot/tasks/${id}`, { headers: { authorization: `Bearer ${key}` } })
  return (await res.json()) as Task
}

async function runTool(server: RunningServer, key: string, page: import('@playwright/test').Page, tool = 'tls-fingerprint', base = server.baseUrl): Promise<Task> {
  await page.goto(`${base}/tools/${tool}`)
  const id = await page.locator('body[data-task]').getAttribute('data-task', { timeout: 30_000 })
  return fetchTask(server, key, id)
}

const byId = (task: Task) => Object.fromEntries(task.results.checks.map((c) => [c.id, c]))
const evidenceOf = (task: Task, kind: string) => task.results.server.evidence.filter((e) => e.kind === kind).map((e) => e.data)

test.describe('Chromium that does not trust the self-signed certificate, page over http', () => {
  let server: RunningServer
  let key: string
  test.beforeAll(async () => {
    server = await startServer()
    key = await server.makeKey()
  })
  test.afterAll(async () => server?.stop())

  test('handshake not tested: the headline says "Not tested", why, and links to the tool over HTTPS instead of a score', async ({ page }) => {
    const task = await runTool(server, key, page)
    const by = byId(task)
    for (const c of ['claimed-browser', 'engine-apis', 'next-hop-protocol']) expect(by[c]!.verdict, c).toBe('pass')
    for (const c of ['transport-tls', 'ja3', 'ja4', 'tls-parameters', 'http2-fingerprint']) expect(by[c]!.verdict, c).toBe('na')
    expect(task.results.claimed).toMatchObject({ family: 'chrome', engine: 'blink' })
    expect(task.results.transport).toMatchObject({ navigationProtocol: 'http/1.1', fetchProtocol: 'http/1.1' })
    expect(task.results.tls.ja4).toBeNull()
    const httpsUrl = `${server.tlsUrl}/tools/tls-fingerprint`
    expect(task.results.handshake).toEqual({ tested: false, reason: expect.stringContaining('does not trust its certificate'), httpsUrl })
    expect(task.results.verdict).toMatch(/^Handshake not tested: the page could not open its connection to the HTTPS listener/)
    const results = page.getByRole('region', { name: 'Results' })
    // The headline says "Not tested" and why, not a score (results.tested is false).
    expect(task.results.tested).toBe(false)
    expect(task.results.untested).toEqual({ reason: `handshake not tested: ${task.results.handshake.reason}`, url: httpsUrl })
    await expect(results).toHaveAttribute('data-tested', 'false')
    await expect(results.locator('.score')).toHaveText('Not tested')
    await expect(results).toContainText('Handshake not tested: the page could not open its connection')
    // One click to the same tool over HTTPS (issue 58), with what the certificate warning means.
    await expect(results.getByRole('link', { name: 'Run it over HTTPS' })).toHaveAttribute('href', httpsUrl)
    await page.screenshot({ path: test.info().outputPath('tls-fingerprint-untested.png'), fullPage: true })
  })
})

test.describe('Chromium trusting the certificate (--ignore-certificate-errors)', () => {
  let server: RunningServer
  let key: string
  let browser: Browser
  test.beforeAll(async () => {
    server = await startServer()
    key = await server.makeKey()
    browser = await launchTrustingChromium()
  })
  test.afterAll(async () => {
    await browser?.close()
    await server?.stop()
  })

  test('page over http: the side connection’s ClientHello (JA4 t13…) and HTTP/2 fingerprint are in the task and judged as Chromium', async () => {
    const page = await browser.newPage()
    const task = await runTool(server, key, page)
    expect(task.results.verified).toBe(true)
    const [tls] = evidenceOf(task, 'tls')
    const [h2] = evidenceOf(task, 'http2')
    expect(tls!.ja4).toMatch(/^t13i\d{4}h2_8daaf6152771_/)
    expect(tls!.grease).toBe(true)
    expect(tls!.alpn).toEqual(['h2', 'http/1.1'])
    expect(h2!.akamai).toBe(CHROMIUM_AKAMAI)
    expect(h2!.path).toMatch(/^\/evidence\//)
    expect(h2!.pseudo_header_order).toEqual([':method', ':authority', ':scheme', ':path'])
    const by = byId(task)
    // The side connection is the browser's own (issue 24): its records are bound to its address.
    for (const c of ['transport-tls', 'ja3', 'ja4', 'http2-fingerprint', 'listener-address']) expect(by[c]!.verdict, c).toBe('pass')
    expect(task.results.tls).toMatchObject({ ja4: tls!.ja4, family: 'chromium', version: 'TLS 1.3' })
    expect(task.results.http2).toMatchObject({ akamai: h2!.akamai, family: 'chromium' })
    expect(task.results.handshake).toEqual({ tested: true, reason: null, httpsUrl: null })
    await expect(page.getByRole('region', { name: 'Results' })).toContainText('TLS stack seen: Chromium (BoringSSL)')
    // The hello at a glance: JA4's three parts, part a field by field, GREASE and ALPN, as an
    // image labelled in words, inside a 390 px phone's width.
    const hello = page.locator('[data-picture=tls-hello]')
    const ja4 = (tls as { ja4: string }).ja4
    await expect(hello).toHaveAttribute('data-ja4', ja4)
    await expect(hello).toHaveAttribute('data-grease', 'true')
    await expect(hello).toHaveAttribute('data-alpn', 'h2,http/1.1')
    for (const part of ja4.split('_')) await expect(hello.locator('svg text', { hasText: new RegExp(`^${part}$`) })).toHaveCount(1)
    await expect(page.getByRole('img', { name: new RegExp(`^JA4 ${ja4}\\. Part a, t13i\\d{4}h2: over TCP, highest version offered: TLS 1\\.3, no host name sent .* GREASE values present .* ALPN offered: h2, http/1\\.1\\.$`) })).toHaveCount(1)
    await page.setViewportSize({ width: 390, height: 844 })
    const box = (await hello.locator('svg').boundingBox())!
    expect(box.x + box.width).toBeLessThanOrEqual(390)
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    await page.close()
  })

  test('page over https: judged on the handshake and HTTP/2 frames of the connection the page was loaded over', async () => {
    const page = await browser.newPage()
    const task = await runTool(server, key, page, 'tls-fingerprint', server.tlsUrl!)
    expect(task.results.verified).toBe(true)
    expect(task.results.transport).toMatchObject({ pageProtocol: 'https:', navigationProtocol: 'h2' })
    // The first records are the page's own connection, filed when the page was rendered.
    const [tls] = evidenceOf(task, 'tls')
    const [h2] = evidenceOf(task, 'http2')
    expect(h2!.path).toBe('/tools/tls-fingerprint')
    expect(tls!.ja4).toMatch(/^t13i\d{4}h2_8daaf6152771_/)
    expect(h2!.akamai).toBe(CHROMIUM_AKAMAI)
    const by = byId(task)
    for (const c of ['transport-tls', 'ja3', 'ja4', 'http2-fingerprint', 'claimed-browser', 'engine-apis', 'listener-address']) expect(by[c]!.verdict, c).toBe('pass')
    expect(task.results.tls).toMatchObject({ ja4: tls!.ja4, family: 'chromium' })
    expect(task.results.http2).toMatchObject({ akamai: CHROMIUM_AKAMAI, family: 'chromium' })
    expect(task.results.claimed.engine).toBe('blink')
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
    expect(by['listener-address']).toMatchObject({ verdict: 'pass', source: 'server' })
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

const FIREFOX = process.env.FIREFOX_PATH || '/usr/bin/firefox-esr'

test.describe('Firefox ESR as a person starts it, trusting the certificate', () => {
  test.setTimeout(120_000)
  let server: RunningServer
  let key: string
  test.beforeAll(async () => {
    requirePrerequisite(!existsSync(FIREFOX) && `Firefox ESR at ${FIREFOX} (tests/gate.sh installs firefox-esr; FIREFOX_PATH points elsewhere)`)
    requirePrerequisite(!existsSync('/usr/bin/certutil') && "NSS's certutil at /usr/bin/certutil (tests/gate.sh installs libnss3-tools)")
    server = await startServer()
    key = await server.makeKey()
  })
  test.afterAll(async () => server?.stop())

  /** Firefox on `url` with a fresh profile whose NSS database trusts the listener's certificate. */
  async function firefoxTask(url: string): Promise<Task> {
    const dir = mkdtempSync(join(tmpdir(), 'antibot-tls-ff-'))
    const xvfb = await startXvfb()
    try {
      const ctx = { pageUrl: '', baseUrl: server.baseUrl, adminToken: server.adminToken, chromium: '', chromedriver: '', ...BROWSER_PATHS, firefox: FIREFOX, dir, timeoutMs: 30_000 }
      const p = PEOPLE['person-firefox']!
      const profile = join(dir, 'profile')
      const launch = p.launch(ctx, url, profile)
      // Trusted for TLS servers, as a person would import it once in the certificate manager.
      // Firefox 153 takes a self-signed server certificate as its own trust anchor with "C,,";
      // "P,," (trusted peer) is refused with bad_certificate.
      execFileSync('certutil', ['-N', '-d', `sql:${profile}`, '--empty-password'])
      execFileSync('certutil', ['-A', '-d', `sql:${profile}`, '-n', 'antibot', '-t', 'C,,', '-i', server.tlsCertFile!])
      return await fetchTask(server, key, await visit(ctx, p.browser, launch, 'tls-fingerprint', xvfb.display))
    } finally {
      await xvfb.stop()
      rmSync(dir, { recursive: true, force: true })
    }
  }

  function expectFirefox(task: Task, h2: Record<string, unknown>): void {
    const tls = evidenceOf(task, 'tls')[0]!
    // NSS: no GREASE, TLS 1.3, h2 offered; Firefox's own HTTP/2 SETTINGS and pseudo-header order.
    expect(tls.ja4).toMatch(/^t13i\d{4}h2_/)
    expect(tls.grease).toBe(false)
    expect(h2.pseudo_header_order).toEqual([':method', ':path', ':authority', ':scheme'])
    expect(task.results.claimed).toMatchObject({ family: 'firefox', engine: 'gecko' })
    expect(task.results.tls).toMatchObject({ ja4: tls.ja4, family: 'firefox' })
    expect(task.results.http2).toMatchObject({ akamai: h2.akamai, family: 'firefox' })
    const by = byId(task)
    for (const c of ['transport-tls', 'ja3', 'ja4', 'http2-fingerprint', 'claimed-browser', 'listener-address']) expect(by[c]!.verdict, c).toBe('pass')
    expect(task.results.checks.filter((c) => c.verdict === 'fail').map((c) => c.id)).toEqual([])
    expect(task.results.handshake.tested).toBe(true)
  }

  test('page over http: the side connection gives Firefox’s JA4 and HTTP/2 fingerprint, judged as Firefox', async () => {
    const task = await firefoxTask(`${server.baseUrl}/tools/tls-fingerprint`)
    const h2 = evidenceOf(task, 'http2')[0]!
    expect(h2.path).toMatch(/^\/evidence\//)
    expectFirefox(task, h2)
  })

  test('page over https: judged on the connection the page was loaded over', async () => {
    const task = await firefoxTask(`${server.tlsUrl}/tools/tls-fingerprint`)
    const h2 = evidenceOf(task, 'http2')[0]!
    expect(h2.path).toBe('/tools/tls-fingerprint')
    // The page's own report of its protocol, unless its probe ran out of its budget on a busy
    // machine (then it is missing, and says it timed out: the gate under stress-ng saw it once).
    const stack = (task.results as unknown as { signals: { stack: { ok: boolean; error?: { kind: string } } } }).signals.stack
    if (stack.ok) expect(task.results.transport.pageProtocol).toBe('https:')
    else expect({ protocol: task.results.transport.pageProtocol, why: stack.error?.kind }).toEqual({ protocol: null, why: 'timeout' })
    expectFirefox(task, h2)
  })
})

test.describe('WebKitGTK as a person starts it (MiniBrowser), accepting the self-signed certificate', () => {
  let server: RunningServer
  let key: string
  test.beforeAll(async () => {
    requirePrerequisite(!existsSync(BROWSER_PATHS.minibrowser) && `WebKitGTK's MiniBrowser at ${BROWSER_PATHS.minibrowser} (tests/gate.sh installs epiphany-browser; MINIBROWSER_PATH points elsewhere)`)
    server = await startServer()
    key = await server.makeKey()
  })
  test.afterAll(async () => server?.stop())

  // WebKit off Apple systems speaks GnuTLS and libsoup, not Safari's stack (src/core/tls-families.ts):
  // GNOME Web's engine under its own user agent must fit its claim, with no failed check.
  test('page over https: GnuTLS and libsoup, judged as WebKit on Linux', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'antibot-tls-wk-'))
    const xvfb = await startXvfb()
    try {
      const ctx = { pageUrl: '', baseUrl: server.baseUrl, adminToken: server.adminToken, chromium: '', chromedriver: '', ...BROWSER_PATHS, dir, timeoutMs: 30_000 }
      const p = PEOPLE['person-webkit-mini']!
      const launch = p.launch(ctx, `${server.tlsUrl}/tools/tls-fingerprint`, join(dir, 'profile'))
      // --ignore-tls-errors: what a person's "accept the risk" does for this self-signed certificate.
      const task = await fetchTask(server, key, await visit(ctx, p.browser, { ...launch, args: ['--ignore-tls-errors', ...launch.args] }, 'tls-fingerprint', xvfb.display))
      const tls = evidenceOf(task, 'tls')[0]!
      expect(tls.grease).toBe(false)
      expect(task.results.claimed).toMatchObject({ family: 'safari', engine: 'webkit' })
      expect(task.results.tls).toMatchObject({ ja4: tls.ja4, family: 'gnutls' })
      expect(task.results.http2).toMatchObject({ family: 'libsoup' })
      const by = byId(task)
      for (const c of ['transport-tls', 'ja3', 'ja4', 'tls-parameters', 'http2-fingerprint', 'claimed-browser']) expect(by[c]!.verdict, c).toBe('pass')
      expect(task.results.checks.filter((c) => c.verdict === 'fail').map((c) => c.id)).toEqual([])
      expect(task.results.handshake.tested).toBe(true)
    } finally {
      await xvfb.stop()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
