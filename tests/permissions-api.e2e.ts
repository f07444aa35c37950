// permissions-api in Debian's Chromium: the plain headless browser is consistent, while a
// stealth-style patch of permissions.query, a Firefox User-Agent on Chromium, and Android device
// emulation are each caught by the checks meant for them.

import { devices, expect, test, type Page } from '@playwright/test'
import { startServer, type RunningServer } from './support/server'

let server: RunningServer
let key: string

test.beforeAll(async () => {
  server = await startServer()
  key = await server.makeKey()
})
test.afterAll(async () => server?.stop())

type Task = { score: number; results: { checks: { id: string; verdict: string; observed: unknown }[]; permissions: Record<string, unknown> } }

async function run(page: Page) {
  await page.goto(`${server.baseUrl}/tools/permissions-api`)
  const id = await page.locator('body[data-task]').getAttribute('data-task', { timeout: 30_000 })
  const res = await fetch(`${server.baseUrl}/api/antibot/tasks/${id}`, { headers: { authorization: `Bearer ${key}` } })
  const task = (await res.json()) as Task
  return { task, verdict: (cid: string) => task.results.checks.find((c) => c.id === cid)?.verdict }
}

test('plain headless Chromium: the engine, version and APIs fit its User-Agent', async ({ page }) => {
  const { task, verdict } = await run(page)
  for (const id of ['permission-random-name', 'permissions-engine', 'permissions-version', 'notification-permission', 'permissions-query-native', 'permission-status-genuine', 'permissions-worker', 'engine-markers', 'feature-apis']) {
    expect(verdict(id), id).toBe('pass')
  }
  expect(task.results.permissions).toMatchObject({ engine: { byPermissions: 'blink', byMarkers: 'blink', byErrors: 'blink', claimed: 'blink' } })
  // Each engine-dependent check says which engine it judged by, told by the page's error messages.
  for (const id of ['permissions-engine', 'engine-markers', 'feature-apis']) {
    expect(task.results.checks.find((c) => c.id === id)?.observed, id).toMatchObject({ engine: "judged by V8 (Blink), the engine the page's error messages show" })
  }
})

test('a stealth-style Proxy on permissions.query is caught', async ({ page }) => {
  // What puppeteer-extra-plugin-stealth's navigator.permissions evasion does: wrap query in a
  // Proxy that answers 'notifications' itself, and make toString print the native source.
  await page.addInitScript(() => {
    const query = Permissions.prototype.query
    const proxy = new Proxy(query, {
      apply(target, that, args: [PermissionDescriptor]) {
        if (args[0]?.name === 'notifications') return Promise.resolve(Object.setPrototypeOf({ state: 'denied', onchange: null }, PermissionStatus.prototype))
        return Reflect.apply(target, that, args)
      },
    })
    Permissions.prototype.query = proxy
    const nativeToString = Function.prototype.toString
    Function.prototype.toString = new Proxy(nativeToString, {
      apply(target, that, args) {
        return Reflect.apply(target, that === proxy ? query : that, args)
      },
    })
  })
  const { verdict } = await run(page)
  expect(verdict('permissions-query-native')).toBe('fail')
  expect(verdict('permission-status-genuine')).toBe('fail')
  expect(verdict('notification-permission')).toBe('fail')
  expect(verdict('permissions-worker')).toBe('fail')
})

test.describe('Chromium with a Firefox User-Agent', () => {
  test.use({ userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0' })
  test('fails the engine checks', async ({ page }) => {
    const { task, verdict } = await run(page)
    expect(verdict('permissions-engine')).toBe('fail')
    expect(verdict('engine-markers')).toBe('fail')
    expect(verdict('feature-apis')).toBe('fail')
    expect(task.results.permissions).toMatchObject({ engine: { byErrors: 'blink', claimed: 'gecko' } })
    expect(task.score).toBeLessThanOrEqual(10)
  })
})

test.describe('Android device emulation on desktop Chromium', () => {
  const { defaultBrowserType: _, ...pixel } = devices['Pixel 7']!
  test.use(pixel)
  test('desktop-only APIs give the emulation away', async ({ page }) => {
    const { verdict } = await run(page)
    expect(verdict('feature-apis')).toBe('fail')
    expect(verdict('permissions-engine')).toBe('pass')
  })
})
