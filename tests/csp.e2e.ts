// The pages' Content-Security-Policy breaks nothing, in Debian's Chromium: every HTML page — the
// index, the docs, each of the 14 tool pages with the TLS listener and a DNS zone configured
// (so their probes reach the listener, start workers from blob: URLs, nest a data: frame, load
// the zone's names), the 404 page, sign-up, log-in and the dashboard while a key is created
// through htmx — runs without a single CSP violation. Violations are collected three ways: the
// DevTools protocol's ContentSecurityPolicyIssue (covers frames and workers), console errors,
// and `securitypolicyviolation` events in every frame. A control test shows the collector sees
// a violation when there is one. And Firefox ESR, as a person starts it: bot-detector's nested
// frame loads under its data: frame (which inherits the page's policy, and where Firefox matches
// 'self' against the data: frame's opaque origin, so the policy names /probe/frame).

import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test, type Browser, type Page } from '@playwright/test'
import { TOOL_IDS } from '../common/tools'
import { BROWSER_PATHS, PEOPLE, visit } from './matrix/person'
import { startXvfb } from './matrix/xvfb'
import { requirePrerequisite } from './support/prerequisites'
import { launchTrustingChromium } from './support/chromium'
import { startServer, type RunningServer } from './support/server'
import { uniqueEmail } from './support/unique'

const ZONE = 'csp.antibot.test'

let server: RunningServer
let key: string
let browser: Browser

test.beforeAll(async () => {
  server = await startServer({ TLS_PORT: '0', DNS_ZONE: ZONE, DNS_PORT: '0' })
  key = await server.makeKey()
  browser = await launchTrustingChromium()
})
test.afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

interface Watched {
  page: Page
  violations(): Promise<string[]>
  /** Host names of the DNS zone the page requested (a request the policy blocked never gets here). */
  zoneRequests: string[]
}

async function watchedPage(): Promise<Watched> {
  const context = await browser.newContext()
  await context.addInitScript(() => {
    const w = window as unknown as { __csp?: string[] }
    w.__csp = []
    document.addEventListener('securitypolicyviolation', (e) => w.__csp!.push(`${e.violatedDirective} ${e.blockedURI}`))
  })
  const page = await context.newPage()
  const seen: string[] = []
  const cdp = await context.newCDPSession(page)
  cdp.on('Audits.issueAdded', ({ issue }) => {
    if (issue.code === 'ContentSecurityPolicyIssue') seen.push(`issue: ${JSON.stringify(issue.details.contentSecurityPolicyIssueDetails)}`)
  })
  await cdp.send('Audits.enable')
  page.on('console', (m) => {
    if (/content security policy/i.test(m.text())) seen.push(`console: ${m.text()}`)
  })
  // The zone's names resolve nowhere here; answer them so the page does not wait on DNS.
  const zoneRequests: string[] = []
  await page.route(`https://*.${ZONE}/**`, (route) => {
    zoneRequests.push(new URL(route.request().url()).hostname)
    return route.fulfill({ status: 404, body: '' })
  })
  return {
    page,
    zoneRequests,
    async violations() {
      const events: string[] = []
      for (const frame of page.frames()) {
        try {
          events.push(...(await frame.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? [])).map((e) => `event: ${e}`))
        } catch {
          // A frame that went away meanwhile.
        }
      }
      return [...seen, ...events]
    },
  }
}

test('the collector sees a violation when there is one (control)', async () => {
  const w = await watchedPage()
  await w.page.goto(`${server.baseUrl}/`)
  await w.page.evaluate(() => {
    const s = document.createElement('script')
    s.textContent = 'window.__inline = 1'
    document.body.append(s)
  })
  await expect.poll(() => w.violations()).toEqual(expect.arrayContaining([expect.stringContaining('script-src')]))
  expect(await w.page.evaluate(() => (window as unknown as { __inline?: number }).__inline)).toBeUndefined()
  await w.page.context().close()
})

test('the index, the docs (and a schema page), the 404 page, sign-up and log-in: no violation', async () => {
  const w = await watchedPage()
  for (const path of ['/', '/docs', '/docs/schemas/BotDetectorResults', '/tools/no-such-tool', '/signup', '/login']) {
    await w.page.goto(`${server.baseUrl}${path}`)
    await w.page.waitForLoadState('load')
    expect({ path, violations: await w.violations() }).toEqual({ path, violations: [] })
  }
  await w.page.context().close()
})

for (const tool of TOOL_IDS) {
  test(`${tool}: the page runs its probes and stores its task with no violation`, async () => {
    const w = await watchedPage()
    await w.page.goto(`${server.baseUrl}/tools/${tool}`)
    const id = await w.page.locator('body[data-task]').getAttribute('data-task', { timeout: 30_000 })
    await expect(w.page.getByRole('region', { name: 'Results' })).toBeVisible({ timeout: 10_000 })
    const res = await fetch(`${server.baseUrl}/api/antibot/tasks/${id}`, { headers: { authorization: `Bearer ${key}` } })
    expect(res.status).toBe(200)
    const task = (await res.json()) as { results: { signals?: Record<string, { ok: boolean; error?: { kind: string; message: string } }> } }
    const signals = task.results.signals ?? {}
    // No probe was refused by the policy.
    const refused = Object.entries(signals)
      .filter(([, s]) => s && s.ok === false && /content security policy|violates|refused to/i.test(s.error?.message ?? ''))
      .map(([name, s]) => `${name}: ${s.error?.message}`)
    expect(refused).toEqual([])
    if (tool === 'bot-detector') {
      // A dedicated and a shared worker from blob: URLs, and /probe/frame under a data: frame.
      for (const name of ['worker', 'sharedWorker', 'partition']) expect({ name, ok: signals[name]?.ok, error: signals[name]?.error }).toEqual({ name, ok: true, error: undefined })
    }
    if (tool === 'dns-leak') {
      // The zone's four names were requested (two by <img>, two by fetch), as the policy allows for DNS_ZONE.
      expect(new Set(w.zoneRequests).size).toBe(4)
    }
    if (tool === 'tls-fingerprint') {
      const evidence = (task.results as { server?: { evidence?: Array<{ kind: string }> } }).server?.evidence ?? []
      expect(evidence.map((e) => e.kind)).toContain('tls')
    }
    expect(await w.violations()).toEqual([])
    await w.page.context().close()
  })
}

test('bot-detector in Firefox ESR as a person starts it: /probe/frame loads under the data: frame', async () => {
  test.setTimeout(90_000)
  requirePrerequisite(!existsSync(BROWSER_PATHS.firefox) && `Firefox ESR at ${BROWSER_PATHS.firefox} (tests/gate.sh installs firefox-esr; FIREFOX_PATH points elsewhere)`)
  const dir = mkdtempSync(join(tmpdir(), 'antibot-csp-ff-'))
  const xvfb = await startXvfb()
  try {
    const ctx = { pageUrl: '', baseUrl: server.baseUrl, adminToken: server.adminToken, chromium: '', chromedriver: '', ...BROWSER_PATHS, dir, timeoutMs: 30_000 }
    const p = PEOPLE['person-firefox']!
    const id = await visit(ctx, p.browser, p.launch(ctx, `${server.baseUrl}/tools/bot-detector`, join(dir, 'profile')), 'bot-detector', xvfb.display)
    const res = await fetch(`${server.baseUrl}/api/antibot/tasks/${id}`, { headers: { authorization: `Bearer ${key}` } })
    const task = (await res.json()) as { results: { signals: Record<string, unknown> } }
    // With 'self' alone Firefox never asked for the frame: the probe waited out its 10 s (timeout).
    // Firefox partitions it under Enhanced Tracking Protection, on by default.
    expect(task.results.signals.partition).toMatchObject({ ok: true, value: { state: 'partitioned' } })
  } finally {
    await xvfb.stop()
    rmSync(dir, { recursive: true, force: true })
  }
})

test('the dashboard: sign up, create a key through htmx, no violation', async () => {
  const w = await watchedPage()
  const { page } = w
  await page.goto(`${server.baseUrl}/signup`)
  const address = uniqueEmail('csp')
  await page.getByLabel('Email').fill(address)
  await page.getByLabel('Password').fill('a long enough password')
  await page.getByRole('button', { name: 'Sign up' }).click()
  // Sign-up answers with the log-in form (or, in an older flow, the dashboard).
  const logIn = page.getByRole('button', { name: 'Log in' })
  await expect(logIn.or(page.getByRole('button', { name: 'Create key' }))).toBeVisible()
  if (await logIn.isVisible()) {
    await page.getByLabel('Email').fill(address)
    await page.getByLabel('Password').fill('a long enough password')
    await logIn.click()
  }
  await expect(page).toHaveURL(`${server.baseUrl}/dashboard`)
  await page.getByLabel('Name').fill('csp key')
  await page.getByRole('button', { name: 'Create key' }).click()
  await expect(page.locator('#new-key-secret')).toContainText(/ab_[0-9A-Za-z]{38}/)
  expect(await page.evaluate(() => typeof (window as unknown as { htmx?: unknown }).htmx)).toBe('object')
  expect(await w.violations()).toEqual([])
  await page.context().close()
})
