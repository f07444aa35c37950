// bot-detector against the automation it must catch, in Debian's Chromium driven by
// Playwright: plain headless, headless with code evaluated in the page while the tests run,
// and headless dressed up the way stealth plugins do it (a Windows Chrome user agent, the
// AutomationControlled blink feature off, getters replaced by Proxies whose toString is
// faked). Each must come out `bot` with its tools named. The human side of the matrix (Xvfb,
// real Chrome) is a later issue.

import { expect, test, type Page } from '@playwright/test'
import { TOOL_DEFINITIONS } from '../src/core/tools/registry'
import { startServer, type RunningServer } from './support/server'

let server: RunningServer
let key: string

test.beforeAll(async () => {
  server = await startServer()
  key = await server.makeKey()
})
test.afterAll(async () => server?.stop())

interface Results {
  verified: boolean
  dropped?: string[]
  verdict: string
  frameworks: string[]
  leaks: { webdriver: boolean; selenium: boolean; phantomjs: boolean }
  scoring: Record<string, string>
  checks: Array<{ id: string; verdict: string; observed: unknown }>
  summary: { score: number }
}

async function runPage(page: Page, before?: () => Promise<void>): Promise<{ score: number; results: Results }> {
  await page.goto(`${server.baseUrl}/tools/bot-detector`, { waitUntil: 'commit' })
  await before?.()
  const taskId = await page.locator('body[data-task]').getAttribute('data-task', { timeout: 30_000 })
  const res = await fetch(`${server.baseUrl}/api/antibot/tasks/${taskId}`, { headers: { authorization: `Bearer ${key}` } })
  expect(res.status).toBe(200)
  return (await res.json()) as { score: number; results: Results }
}

const verdictOf = (r: Results, id: string) => r.checks.find((c) => c.id === id)?.verdict
/** The check's id and what it observed, so that a failed expectation says why. */
const about = (r: Results, id: string) => `${id}: ${JSON.stringify(r.checks.find((c) => c.id === id)?.observed)}`

test('Playwright-driven headless Chromium is a bot: webdriver, HeadlessChrome and CDP', async ({ page }) => {
  const task = await runPage(page)
  const r = task.results
  expect(r.verdict).toBe('bot')
  expect(task.score).toBeLessThanOrEqual(40)
  // The page's own body and its live nonce: the service judged it, so it is verified (issue 34),
  // and the page sent nothing the service dropped.
  expect(r.verified).toBe(true)
  expect(r.dropped).toBeUndefined()
  expect(r.frameworks).toContain('headless')
  expect(r.frameworks).toContain('cdp')
  expect(r.frameworks).toContain('webdriver')
  for (const id of ['webdriver-flag', 'headless-ua', 'headless-worker-ua', 'headless-ua-header', 'cdp-runtime']) expect(verdictOf(r, id), about(r, id)).toBe('fail')
  // Playwright's --disable-features=ThirdPartyStoragePartitioning: the nested frame is refused
  // storage (Chromium 156 blocks third-party cookies), where a person's Chromium partitions it.
  expect(verdictOf(r, 'storage-partitioning'), about(r, 'storage-partitioning')).toBe('fail')
  expect(JSON.stringify(r.checks.find((c) => c.id === 'storage-partitioning')?.observed)).toContain('refused localStorage')
  expect(r.leaks.webdriver).toBe(true)
  expect(r.scoring.webdriver).toBe('fail')
  // Nothing in Chromium's own natives may look patched: that would be a false positive.
  expect(verdictOf(r, 'stealth-lies')).toBe('pass')
  expect(verdictOf(r, 'api-lies')).toBe('pass')
  await expect(page.getByRole('region', { name: 'Results' })).toContainText('bot')
  await expect(page.locator('[data-frameworks]')).toContainText('headless')
})

test('code Playwright evaluates in the page while it runs shows up in stack frames (UtilityScript)', async ({ page }) => {
  // The page watches the DOM lookups for its first 500 ms. So that Playwright's evaluation
  // certainly falls inside that window however slow the machine, the page's clock is held
  // still (Playwright's fake clock) from before the probes load until the evaluation is done.
  await page.clock.install()
  await page.clock.pauseAt(Date.now() + 1_000)
  let release!: () => void
  const released = new Promise<void>((r) => (release = r))
  await page.route(/\/probes\/bot-detector[^/]*\.js$/, async (route) => {
    await released
    await route.continue()
  })
  const task = await runPage(page, async () => {
    release()
    // Runs in the page's main world through Playwright's UtilityScript, and calls the
    // wrapped getElementById once the probes have started (the status line says so).
    await page.waitForFunction(() => document.getElementById('status')?.textContent?.startsWith('Running tests'))
    await page.clock.resume()
  })
  const r = task.results
  expect(verdictOf(r, 'stack-sourceurl')).toBe('fail')
  expect(JSON.stringify(r.checks.find((c) => c.id === 'stack-sourceurl')?.observed)).toMatch(/UtilityScript|eval at evaluate/)
  expect(r.frameworks).toContain('playwright')
})

test('a slow device: the storage-partition probe timing out makes its check na, where Playwright otherwise fails it (issue 36)', async ({ page }) => {
  // The nested frame is held back, never answered, as on a machine too busy to load it; the
  // page's clock (Playwright's fake clock, running) is then moved past the probe's budget, so
  // the test does not wait 10 s for it.
  await page.clock.install()
  let frameAsked!: () => void
  const asked = new Promise<void>((r) => (frameAsked = r))
  await page.route('**/probe/frame', () => frameAsked())
  const task = await runPage(page, async () => {
    await asked
    await page.clock.fastForward(15_000)
  })
  const r = task.results as Results & { signals: Record<string, { ok: boolean; error?: { kind: string; message: string } }> }
  expect(r.signals.partition).toMatchObject({ ok: false, error: { kind: 'timeout' } })
  const check = r.checks.find((c) => c.id === 'storage-partitioning') as { verdict: string; expected: string } | undefined
  expect(check).toMatchObject({ verdict: 'na', expected: expect.stringMatching(/^timeout: /) })
  // The rest of the page still tells the automation: a timeout hides nothing else.
  expect(verdictOf(r, 'webdriver-flag')).toBe('fail')
  expect(r.verdict).toBe('bot')
})

test('a page whose clock jumps 20 s while its probes wait: every probe still waiting times out, and every check that needs one is na (issue 36)', async ({ page }) => {
  // The page's clock (Playwright's fake clock) stands still from before the probes load, so no
  // probe's own wait ends; the nested frame is held back. Then the clock jumps past every
  // probe's budget: what had not answered by then timed out, as on a device far too slow.
  await page.clock.install()
  await page.clock.pauseAt(Date.now() + 1_000)
  let frameAsked!: () => void
  const asked = new Promise<void>((r) => (frameAsked = r))
  await page.route('**/probe/frame', () => frameAsked())
  const task = await runPage(page, async () => {
    await asked
    await page.clock.fastForward(20_000)
    await page.clock.resume()
  })
  const r = task.results as Results & { checks: Array<{ id: string; verdict: string; expected: string }>; signals: Record<string, { ok: boolean; error?: { kind: string } }> }
  const timedOut = Object.entries(r.signals).filter(([, s]) => s.ok === false && s.error?.kind === 'timeout').map(([n]) => n)
  expect(timedOut).toContain('partition')
  const needs = new Map(TOOL_DEFINITIONS['bot-detector'].checks.map(([def]) => [def.id, def.needs as readonly string[]]))
  const judged = r.checks.filter((c) => needs.get(c.id)?.some((n) => timedOut.includes(n)) && c.verdict !== 'na').map((c) => `${c.id}: ${c.verdict}`)
  expect({ timedOut, judged }).toEqual({ timedOut, judged: [] })
})

test('headless Chromium dressed up as a Windows Chrome by stealth patches is still a bot', async ({ playwright }) => {
  // Its own browser: the AutomationControlled blink feature is off, as undetected drivers do.
  const browser = await playwright.chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-blink-features=AutomationControlled'],
  })
  try {
    const context = await browser.newContext({
      userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
      viewport: { width: 1366, height: 768 },
    })
    const page = await context.newPage()
    // What puppeteer-extra-plugin-stealth's utils do: getters replaced by Proxies, and
    // Function.prototype.toString proxied so that the replacements print as native code.
    await page.addInitScript(() => {
      const native = Function.prototype.toString
      const fakes = new WeakMap<object, string>()
      const fakeToString = new Proxy(native, { apply: (t, self, args) => fakes.get(self) ?? Reflect.apply(t, self, args) })
      fakes.set(fakeToString, 'function toString() { [native code] }')
      Function.prototype.toString = fakeToString
      const redefine = (proto: object, prop: string, value: unknown) => {
        const d = Object.getOwnPropertyDescriptor(proto, prop)!
        const get = new Proxy(d.get!, { apply: () => value })
        fakes.set(get, `function get ${prop}() { [native code] }`)
        Object.defineProperty(proto, prop, { ...d, get })
      }
      redefine(Navigator.prototype, 'webdriver', false)
      redefine(Navigator.prototype, 'platform', 'Win32')
      redefine(Navigator.prototype, 'hardwareConcurrency', 8)
    })
    const task = await runPage(page)
    const r = task.results
    expect(verdictOf(r, 'webdriver-flag')).toBe('pass')
    expect(verdictOf(r, 'headless-ua')).toBe('pass')
    expect(verdictOf(r, 'stealth-lies')).toBe('fail')
    expect(verdictOf(r, 'cdp-runtime')).toBe('fail')
    expect(verdictOf(r, 'ua-vs-client-hints')).toBe('fail')
    expect(r.frameworks).toEqual(expect.arrayContaining(['stealth', 'cdp']))
    expect(task.score).toBeLessThanOrEqual(40)
    expect(r.verdict).toBe('bot')
  } finally {
    await browser.close()
  }
})
