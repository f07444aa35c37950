// font-detection in Debian's Chromium: its DejaVu/Liberation fonts agree with its Linux
// User-Agent (but look like a server), and the same fonts under a Windows User-Agent give the
// spoof away through both the font list and the system UI font. The browser sees only the
// server font set (tests/support/fonts/server.conf), whatever fonts the host has.

import { expect, type Page } from '@playwright/test'
import { SERVER_LINUX_FONTS } from '../common/font-os'
import { testWithFonts } from './support/fonts'
import { startServer, type RunningServer } from './support/server'

const test = testWithFonts('server')

let server: RunningServer
let key: string

test.beforeAll(async () => {
  server = await startServer()
  key = await server.makeKey()
})
test.afterAll(async () => server?.stop())

async function run(page: Page) {
  await page.goto(`${server.baseUrl}/tools/font-detection`)
  const id = await page.locator('body[data-task]').getAttribute('data-task', { timeout: 30_000 })
  const res = await fetch(`${server.baseUrl}/api/antibot/tasks/${id}`, { headers: { authorization: `Bearer ${key}` } })
  const task = (await res.json()) as { score: number; results: { checks: { id: string; verdict: string }[]; fonts: { inferredOs: string; detected: string[] } } }
  return { task, verdict: (cid: string) => task.results.checks.find((c) => c.id === cid)?.verdict }
}

test('headless Chromium on Debian: Linux fonts, consistent with its UA, but a server font set', async ({ page }) => {
  const { task, verdict } = await run(page)
  expect(task.results.fonts.inferredOs).toBe('linux')
  expect(task.results.fonts.detected).toContain('DejaVu Sans')
  // Lists any font that leaked in from the host, should the font set not hold.
  expect(task.results.fonts.detected.filter((f) => !SERVER_LINUX_FONTS.has(f))).toEqual([])
  expect(verdict('font-metrics-honest')).toBe('pass')
  expect(verdict('fonts-match-os')).toBe('pass')
  expect(verdict('system-font-os')).toBe('pass')
  expect(verdict('font-set-desktop')).toBe('warn')
})

test.describe('the same browser with a Windows User-Agent', () => {
  test.use({ userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36' })
  test('fails the font OS and system font checks', async ({ page }) => {
    const { task, verdict } = await run(page)
    expect(verdict('fonts-match-os')).toBe('fail')
    expect(verdict('system-font-os')).toBe('fail')
    expect(task.score).toBeLessThanOrEqual(40)
  })
})

test('noise added to text metrics is reported, not trusted', async ({ page }) => {
  await page.addInitScript(() => {
    const rect = Element.prototype.getBoundingClientRect
    Element.prototype.getBoundingClientRect = function (this: Element) {
      const r = rect.call(this)
      return new DOMRect(r.x, r.y, r.width + Math.random() * 2, r.height)
    }
  })
  const { verdict } = await run(page)
  expect(['warn', 'fail']).toContain(verdict('font-metrics-honest'))
  expect(verdict('fonts-match-os')).toBe('na')
})
