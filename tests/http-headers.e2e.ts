// http-headers in Debian's Chromium: what default headless shows (its User-Agent names it,
// everything else is consistent), and the two usual automation spoofs: a desktop User-Agent
// set through the automation API, and an Accept-Language header injected on its own.

import { expect, test, type Page } from '@playwright/test'
import { startServer, type RunningServer } from './support/server'

let server: RunningServer
let key: string

test.beforeAll(async () => {
  server = await startServer()
  key = await server.makeKey()
})
test.afterAll(async () => server?.stop())

interface Task { score: number; results: { checks: Array<{ id: string; verdict: string }>; http: { clientHints: { received: Record<string, string> } } } }

async function run(page: Page): Promise<{ task: Task; verdicts: Record<string, string> }> {
  await page.goto(`${server.baseUrl}/tools/http-headers`)
  const id = await page.locator('body[data-task]').getAttribute('data-task', { timeout: 30_000 })
  const res = await fetch(`${server.baseUrl}/api/antibot/tasks/${id}`, { headers: { authorization: `Bearer ${key}` } })
  expect(res.status).toBe(200)
  const task = (await res.json()) as Task
  return { task, verdicts: Object.fromEntries(task.results.checks.map((c) => [c.id, c.verdict])) }
}

test('default headless Chromium: named by its User-Agent, consistent otherwise', async ({ page }) => {
  const { task, verdicts } = await run(page)
  expect(verdicts['ua-automation']).toBe('fail')
  for (const id of ['ua-header-vs-navigator', 'ua-vs-client-hints', 'sec-ch-ua-vs-navigator', 'high-entropy-hints', 'brands-grease', 'accept-language-vs-languages', 'browser-headers-present', 'accept-encoding', 'sec-fetch']) {
    expect(verdicts[id], id).toBe('pass')
  }
  // Accept-CH on the tool page made Chromium send the high-entropy hints with the POST.
  expect(Object.keys(task.results.http.clientHints.received)).toContain('sec-ch-ua-full-version-list')
  expect(verdicts['header-order']).toBe('na')
  expect(task.score).toBeLessThanOrEqual(40)
  await expect(page.getByRole('region', { name: 'Results' }).locator('tr[data-check="ua-automation"]')).toContainText('HeadlessChrome')
  await page.screenshot({ path: test.info().outputPath('http-headers.png'), fullPage: true })
})

test('a Windows Chrome User-Agent set through the automation API is caught by the client hints', async ({ browser }) => {
  const ua = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36'
  const context = await browser.newContext({ userAgent: ua })
  try {
    const { task, verdicts } = await run(await context.newPage())
    expect(verdicts['ua-automation']).toBe('pass')
    expect(verdicts['ua-header-vs-navigator']).toBe('pass')
    expect(verdicts['ua-vs-client-hints']).toBe('fail')
    expect(task.score).toBeLessThan(70)
  } finally {
    await context.close()
  }
})

test('an Accept-Language header injected without navigator.languages is caught', async ({ browser }) => {
  const context = await browser.newContext({ extraHTTPHeaders: { 'Accept-Language': 'de-DE,de;q=0.9' } })
  try {
    const { verdicts } = await run(await context.newPage())
    expect(verdicts['accept-language-vs-languages']).toBe('fail')
  } finally {
    await context.close()
  }
})

test('a report request the network fails is asked again; when every attempt fails, the page says so', async ({ page }) => {
  // As Chromium fails what is in flight when the network changes (ERR_NETWORK_CHANGED).
  let attempts = 0
  await page.route('**/tools/http-headers/report', (route) => (++attempts === 1 ? route.abort('internetdisconnected') : route.continue()))
  await run(page)
  await expect(page.getByRole('region', { name: 'Results' }).locator('tr[data-check="ua-automation"]')).toContainText('HeadlessChrome')
  expect(attempts).toBe(2)

  const again = await page.context().newPage()
  await again.route('**/tools/http-headers/report', (route) => route.abort('internetdisconnected'))
  await run(again)
  await expect(again.locator('#status')).toHaveText('Done: the tests ran and their results were stored, but the report could not be loaded here. Reloading the page runs the tests again.')
  await expect(again.getByRole('region', { name: 'Results' })).toHaveCount(0)
})
