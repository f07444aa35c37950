// timezone-geo in Debian's Chromium: browser-wide emulation (what a consistent browser looks
// like from the inside) passes the consistency checks, and a zone faked in page JavaScript is
// caught by the offsets, Date.toString and the worker.

import { expect, test, type Page } from '@playwright/test'
import { startServer, type RunningServer } from './support/server'

let server: RunningServer
let key: string

test.beforeAll(async () => {
  server = await startServer()
  key = await server.makeKey()
})
test.afterAll(async () => server?.stop())

type Task = { score: number; results: { checks: { id: string; verdict: string }[]; timezone: Record<string, unknown> } }

async function run(page: Page): Promise<{ task: Task; verdict: (id: string) => string | undefined }> {
  await page.goto(`${server.baseUrl}/tools/timezone-geo`)
  const id = await page.locator('body[data-task]').getAttribute('data-task', { timeout: 30_000 })
  const res = await fetch(`${server.baseUrl}/api/antibot/tasks/${id}`, { headers: { authorization: `Bearer ${key}` } })
  const task = (await res.json()) as Task
  return { task, verdict: (cid) => task.results.checks.find((c) => c.id === cid)?.verdict }
}

test('default headless Chromium: consistent, but in UTC', async ({ page }) => {
  const { verdict } = await run(page)
  for (const id of ['tz-offsets-consistent', 'tz-rules-server', 'tz-date-string', 'tz-worker', 'accept-language-vs-languages', 'clock-skew']) expect(verdict(id), id).toBe('pass')
  expect(verdict('utc-zone')).toBe('warn')
  expect(verdict('ip-zone')).toBe('na')
})

test.describe('browser-wide emulation of Tokyo and Japanese', () => {
  test.use({ timezoneId: 'Asia/Tokyo', locale: 'ja-JP' })
  test('every consistency check passes', async ({ page }) => {
    const { task, verdict } = await run(page)
    for (const id of ['tz-offsets-consistent', 'tz-rules-server', 'tz-date-string', 'tz-worker', 'utc-zone', 'locale-consistent', 'accept-language-vs-languages', 'zone-language']) expect(verdict(id), id).toBe('pass')
    expect(task.results.timezone).toMatchObject({ zone: 'Asia/Tokyo', utcOffset: '+09:00', workerZone: 'Asia/Tokyo' })
    // The zone at a glance: Tokyo's offset on the band, said in the picture's title.
    await expect(page.locator('[data-picture=zone]')).toHaveAttribute('data-browser-offset', 'UTC+09:00')
    await expect(page.getByRole('img', { name: /^The browser's time zone is Asia\/Tokyo, UTC\+09:00 now\./ })).toHaveCount(1)
  })
})

test('a zone faked in page JavaScript fails the offset, toString and worker checks', async ({ page }) => {
  await page.addInitScript(() => {
    const resolved = Intl.DateTimeFormat.prototype.resolvedOptions
    Intl.DateTimeFormat.prototype.resolvedOptions = function (this: Intl.DateTimeFormat) {
      return { ...resolved.call(this), timeZone: 'America/New_York' }
    }
    Date.prototype.getTimezoneOffset = () => 300
  })
  const { task, verdict } = await run(page)
  expect(verdict('tz-offsets-consistent')).toBe('fail')
  expect(verdict('tz-rules-server')).toBe('fail')
  expect(verdict('tz-date-string')).toBe('fail')
  expect(verdict('tz-worker')).toBe('fail')
  expect(task.score).toBeLessThan(20)
})
