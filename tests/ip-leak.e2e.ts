// ip-leak in Debian's Chromium on a loopback server: default headless leaks nothing (mDNS
// host names, no proxy headers) and reaches the service over IPv4; with mDNS obfuscation off
// WebRTC shows the machine's raw addresses; a forged X-Forwarded-For is reported.

import { chromium, expect, test, type Page } from '@playwright/test'
import { startServer, type RunningServer } from './support/server'

let server: RunningServer
let key: string

test.beforeAll(async () => {
  server = await startServer()
  key = await server.makeKey()
})
test.afterAll(async () => server?.stop())

interface Task { score: number; results: { checks: Array<{ id: string; verdict: string; observed: unknown }>; ip: { scope: string; lookup: { status: string }; families: { ipv4: boolean | null }; webrtc: { hosts: number; mdnsHosts: number } | null } } }

async function run(page: Page) {
  await page.goto(`${server.baseUrl}/tools/ip-leak`)
  const id = await page.locator('body[data-task]').getAttribute('data-task', { timeout: 30_000 })
  const res = await fetch(`${server.baseUrl}/api/antibot/tasks/${id}`, { headers: { authorization: `Bearer ${key}` } })
  expect(res.status).toBe(200)
  const task = (await res.json()) as Task
  return { task, verdicts: Object.fromEntries(task.results.checks.map((c) => [c.id, c.verdict])) }
}

test('default headless Chromium on loopback: nothing leaks, IPv4 reaches the service', async ({ page }) => {
  const { task, verdicts } = await run(page)
  expect(task.results.ip.scope).toBe('loopback')
  expect(verdicts['http-address']).toBe('na')
  expect(verdicts['proxy-headers']).toBe('pass')
  expect(verdicts['forwarded-address-leak']).toBe('pass')
  expect(verdicts['webrtc-local-address']).toBe('pass')
  expect(verdicts['webrtc-vs-http']).toBe('pass')
  expect(verdicts['ipv4-request']).toBe('pass')
  expect(verdicts['datacenter-asn']).toBe('na')
  // Loopback is never looked up, whether or not the IP database has finished loading.
  expect(task.results.ip.lookup.status).toBe('not-public')
  await expect(page.locator('footer [data-credits]')).toContainText('IP Geolocation by DB-IP')
  expect(task.results.ip.families.ipv4).toBe(true)
  expect(task.results.ip.webrtc!.mdnsHosts).toBe(task.results.ip.webrtc!.hosts)
  expect(task.score).toBe(100)
  await page.screenshot({ path: test.info().outputPath('ip-leak.png'), fullPage: true })
})

test('with mDNS obfuscation off, WebRTC shows raw local addresses', async () => {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-features=WebRtcHideLocalIpsWithMdns'] })
  try {
    const { task, verdicts } = await run(await browser.newPage())
    expect(task.results.ip.webrtc!.hosts).toBeGreaterThan(0)
    expect(task.results.ip.webrtc!.mdnsHosts).toBe(0)
    // Private interface addresses warn; a public one (a host with a public interface) fails.
    expect(verdicts['webrtc-local-address'] === 'warn' || verdicts['webrtc-vs-http'] === 'fail').toBe(true)
    expect(task.score).toBeLessThan(100)
  } finally {
    await browser.close()
  }
})

test('a forged X-Forwarded-For is reported as a proxy revealing another address', async ({ browser }) => {
  const context = await browser.newContext({ extraHTTPHeaders: { 'X-Forwarded-For': '81.2.69.160' } })
  try {
    const { task, verdicts } = await run(await context.newPage())
    expect(verdicts['proxy-headers']).toBe('fail')
    expect(verdicts['forwarded-address-leak']).toBe('fail')
    expect(task.score).toBe(40)
    // The address card is the connection's own: an untrusted header does not move it to a country.
    const page = context.pages()[0]!
    await expect(page.locator('[data-picture=network]')).toHaveAttribute('data-country', '')
    await expect(page.getByRole('img', { name: /^The address 127\.0\.0\.1: a loopback address, which belongs to no country or network\.$/ })).toHaveCount(1)
  } finally {
    await context.close()
  }
})
