// The account dashboard in Debian's Chromium, driven by role and label as a person reads the
// page: sign up, create a key, use it against the API and watch the count, deactivate,
// rotate, delete; a second account cannot see or touch the first one's keys; forged posts
// are refused; and everything works with JavaScript switched off too.

import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test'
import { startServer, type RunningServer } from './support/server'
import { uniqueEmail } from './support/unique'

let server: RunningServer
let taskId: string

test.beforeAll(async ({ request }) => {
  server = await startServer()
  taskId = await createTask(request)
})
test.afterAll(async () => server?.stop())

const PASSWORD = 'a long enough password'
const email = (tag: string) => uniqueEmail(tag)

/** A bot-detector results object of the spec's shape (as tests/support/app.ts specBotResults). */
const botResults = {
  summary: { total: 3, passed: 3, failed: 0, warnings: 0, score: 100 },
  leaks: { webdriver: false, selenium: false, phantomjs: false },
  navigator: { userAgent: 'Mozilla/5.0 (X11; Linux x86_64)', platform: 'Linux x86_64', language: 'en-US' },
  screen: { width: 1920, height: 1080, colorDepth: 24 },
  webgl: { vendor: 'Google Inc.', renderer: 'ANGLE (Intel)' },
  canvas: { hash: 'a1b2c3' },
  scoring: { webdriver: 'pass', selenium: 'pass', phantomjs: 'pass' },
}

async function createTask(request: APIRequestContext): Promise<string> {
  const res = await request.post(`${server.baseUrl}/api/antibot/tasks`, { data: { tool: 'bot-detector', results: botResults } })
  expect(res.status()).toBe(201)
  return ((await res.json()) as { task_id: string }).task_id
}

/** GET /api/antibot/tasks/{id} with the key, outside the browser: the status code. */
async function fetchStatus(key: string): Promise<number> {
  const res = await fetch(`${server.baseUrl}/api/antibot/tasks/${taskId}`, { headers: { authorization: `Bearer ${key}` } })
  return res.status
}

async function signUp(page: Page, address = email('user')): Promise<string> {
  await page.goto(`${server.baseUrl}/signup`)
  await page.getByLabel('Email').fill(address)
  await page.getByLabel('Password').fill(PASSWORD)
  await page.getByRole('button', { name: 'Sign up' }).click()
  // The same answer whether or not the email had an account: the log-in form, email filled in.
  await expect(page.getByRole('heading', { name: 'Log in', level: 1 })).toBeVisible()
  await expect(page.getByRole('status')).toContainText('If this email had no account, it has one now')
  await expect(page.getByLabel('Email')).toHaveValue(address)
  await page.getByLabel('Password').fill(PASSWORD)
  await page.getByRole('button', { name: 'Log in' }).click()
  await expect(page).toHaveURL(`${server.baseUrl}/dashboard`)
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible()
  return address
}

async function createKey(page: Page, name: string, plan = 'free'): Promise<string> {
  await page.getByLabel('Name').fill(name)
  await page.getByLabel('Plan').selectOption(plan)
  await page.getByRole('button', { name: 'Create key' }).click()
  const shown = page.getByRole('region', { name: 'New key' })
  await expect(shown).toContainText(`Your new key “${name}”`)
  await expect(shown).toContainText('you will not see it again')
  const key = (await shown.locator('code.secret').textContent())!.trim()
  expect(key).toMatch(/^ab_[0-9A-Za-z]{38}$/)
  return key
}

const keyRow = (page: Page, name: string) => page.getByRole('row').filter({ has: page.getByRole('rowheader', { name, exact: true }) })

async function csrfToken(page: Page): Promise<string> {
  return page.locator('input[name="_csrf"]').first().inputValue()
}

test('sign up, create a key, use it, and watch the dashboard count, deactivate, rotate and delete', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.baseUrl })
  await signUp(page)
  await expect(page.getByRole('heading', { name: 'Plans', level: 2 })).toBeVisible()
  await expect(page.getByRole('row', { name: /^free/ })).toContainText('1,000 requests')
  await expect(page.getByRole('main').getByRole('link', { name: 'API docs' })).toHaveAttribute('href', '/docs')

  // htmx swaps the panel in place: the page is not reloaded.
  await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true))
  const key = await createKey(page, 'e2e key')
  expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true)

  await page.getByRole('button', { name: 'Copy key' }).click()
  await expect(page.getByRole('button', { name: 'Copied' })).toBeVisible()
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key)

  const row = keyRow(page, 'e2e key')
  await expect(row).toContainText('0 / 1000')
  await expect(row).toContainText(`${key.slice(0, 7)}…${key.slice(-4)}`)
  expect(await fetchStatus(key)).toBe(200)

  await page.reload()
  await expect(page.getByText('you will not see it again')).toHaveCount(0)
  await expect(row).toContainText('1 / 1000')
  // The "Last used" cell: a time instead of "Never".
  await expect(row.getByRole('cell').nth(5)).toHaveText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/)
  await expect(page.getByRole('img', { name: /Requests per day/ })).toBeVisible()
  await expect(page.getByRole('figure')).toContainText(/1 request in \w+ \d{4}; the busiest day was/)
  await page.screenshot({ path: 'test-results/dashboard.png', fullPage: true })

  await row.getByRole('button', { name: 'Deactivate' }).click()
  await expect(row).toContainText('Inactive')
  expect(await fetchStatus(key)).toBe(403)
  await row.getByRole('button', { name: 'Activate', exact: true }).click()
  await expect(row).toContainText('Active')
  expect(await fetchStatus(key)).toBe(200)

  await row.getByRole('button', { name: 'Rotate' }).click()
  const rotated = page.getByRole('region', { name: 'New secret' })
  await expect(rotated).toContainText('New secret for key “e2e key”')
  await expect(rotated).toContainText('you will not see it again')
  const fresh = (await rotated.locator('code.secret').textContent())!.trim()
  expect(fresh).not.toBe(key)
  expect(await fetchStatus(key)).toBe(401)
  expect(await fetchStatus(fresh)).toBe(200)
  await page.reload()
  await expect(row).toContainText('3 / 1000')

  const spare = await createKey(page, 'spare')
  const spareRow = keyRow(page, 'spare')
  await spareRow.getByRole('button', { name: 'Delete' }).click()
  const confirm = page.getByRole('row', { name: /Delete key “spare”\?/ })
  await expect(confirm).toContainText('This cannot be undone.')
  await confirm.getByRole('link', { name: 'Cancel' }).click()
  await expect(spareRow).toBeVisible()
  await spareRow.getByRole('button', { name: 'Delete' }).click()
  await page.getByRole('row', { name: /Delete key “spare”\?/ }).getByRole('button', { name: 'Delete' }).click()
  await expect(page.getByRole('status')).toContainText('Key “spare” deleted.')
  await expect(spareRow).toHaveCount(0)
  expect(await fetchStatus(spare)).toBe(401)
  expect(await fetchStatus(fresh)).toBe(200)

  await page.getByRole('button', { name: 'Log out' }).click()
  await expect(page).toHaveURL(`${server.baseUrl}/login`)
  await page.goto(`${server.baseUrl}/dashboard`)
  await expect(page).toHaveURL(`${server.baseUrl}/login`)
})

test('log in again, and a wrong password says nothing about the email', async ({ page }) => {
  const address = await signUp(page)
  await page.getByRole('button', { name: 'Log out' }).click()
  await page.getByLabel('Email').fill(address)
  await page.getByLabel('Password').fill('not the password')
  await page.getByRole('button', { name: 'Log in' }).click()
  await expect(page.getByRole('alert')).toHaveText('Cannot log in: the email or password is not correct.')
  await page.getByLabel('Email').fill(email('nobody'))
  await page.getByLabel('Password').fill('not the password')
  await page.getByRole('button', { name: 'Log in' }).click()
  await expect(page.getByRole('alert')).toHaveText('Cannot log in: the email or password is not correct.')
  await page.getByLabel('Email').fill(address)
  await page.getByLabel('Password').fill(PASSWORD)
  await page.getByRole('button', { name: 'Log in' }).click()
  await expect(page).toHaveURL(`${server.baseUrl}/dashboard`)
})

async function newPage(browser: Browser, options: Parameters<Browser['newContext']>[0] = {}): Promise<Page> {
  const context = await browser.newContext(options)
  return context.newPage()
}

test('a second account cannot see or touch the first one’s keys', async ({ browser }) => {
  const first = await newPage(browser)
  await signUp(first)
  const key = await createKey(first, 'first account key')
  const keyId = (await keyRow(first, 'first account key').getAttribute('id'))!.replace(/^key-/, '')

  const second = await newPage(browser)
  await signUp(second)
  await createKey(second, 'second account key')
  await expect(second.getByText('first account key')).toHaveCount(0)
  await expect(second.locator(`#key-${keyId}`)).toHaveCount(0)

  const token = await csrfToken(second)
  for (const action of ['deactivate', 'rotate', 'delete']) {
    const res = await second.request.post(`${server.baseUrl}/dashboard/keys/${keyId}/${action}`, {
      form: { _csrf: token },
      headers: { origin: server.baseUrl },
      maxRedirects: 0,
    })
    expect({ action, status: res.status() }).toEqual({ action, status: 404 })
  }
  const look = await second.request.get(`${server.baseUrl}/dashboard/keys/${keyId}/delete`, { maxRedirects: 0 })
  expect(look.status()).toBe(404)

  expect(await fetchStatus(key)).toBe(200)
  await first.reload()
  await expect(keyRow(first, 'first account key')).toContainText('Active')
  await first.context().close()
  await second.context().close()
})

test('a POST from another origin or without the CSRF token is refused with 403', async ({ page }) => {
  await signUp(page)
  const key = await createKey(page, 'guarded')
  const keyId = (await keyRow(page, 'guarded').getAttribute('id'))!.replace(/^key-/, '')
  const token = await csrfToken(page)

  const foreign = await page.request.post(`${server.baseUrl}/dashboard/keys/${keyId}/deactivate`, {
    form: { _csrf: token },
    headers: { origin: 'http://evil.example' },
    maxRedirects: 0,
  })
  expect(foreign.status()).toBe(403)
  const tokenless = await page.request.post(`${server.baseUrl}/dashboard/keys/${keyId}/deactivate`, {
    form: {},
    headers: { origin: server.baseUrl },
    maxRedirects: 0,
  })
  expect(tokenless.status()).toBe(403)
  const created = await page.request.post(`${server.baseUrl}/dashboard/keys`, {
    form: { name: 'sneaky', plan: 'free' },
    headers: { origin: server.baseUrl },
    maxRedirects: 0,
  })
  expect(created.status()).toBe(403)
  expect(await fetchStatus(key)).toBe(200)

  // The same through the page: without the token htmx's post is refused and says why.
  await page.evaluate(() => {
    document.body.removeAttribute('hx-headers')
    for (const input of document.querySelectorAll('input[name="_csrf"]')) input.remove()
  })
  await keyRow(page, 'guarded').getByRole('button', { name: 'Deactivate' }).click()
  await expect(page.getByRole('alert')).toContainText('Cannot deactivate the key: the form’s security token is missing or out of date.')
  await page.reload()
  await expect(keyRow(page, 'guarded')).toContainText('Active')
  await expect(page.getByRole('row', { name: /sneaky/ })).toHaveCount(0)
})

test('everything works without JavaScript: plain posts and 303 redirects', async ({ browser }) => {
  const page = await newPage(browser, { javaScriptEnabled: false })
  await signUp(page)
  const key = await createKey(page, 'no js')
  await expect(page).toHaveURL(`${server.baseUrl}/dashboard`)
  const row = keyRow(page, 'no js')
  await row.getByRole('button', { name: 'Deactivate' }).click()
  await expect(page.getByRole('status')).toContainText('deactivated')
  expect(await fetchStatus(key)).toBe(403)
  await row.getByRole('button', { name: 'Activate', exact: true }).click()
  expect(await fetchStatus(key)).toBe(200)

  await row.getByText('Change expiry').click()
  await row.getByLabel('New expiry').fill('2099-12-31')
  await row.getByRole('button', { name: 'Save expiry' }).click()
  await expect(row).toContainText('2099-12-31 00:00 UTC')

  await row.getByRole('button', { name: 'Rotate' }).click()
  const fresh = (await page.getByRole('region', { name: 'New secret' }).locator('code.secret').textContent())!.trim()
  expect(await fetchStatus(key)).toBe(401)
  expect(await fetchStatus(fresh)).toBe(200)

  await row.getByRole('button', { name: 'Delete' }).click()
  await expect(page).toHaveURL(/\/dashboard\/keys\/[0-9a-f-]{36}\/delete\??$/)
  await page.getByRole('row', { name: /Delete key “no js”\?/ }).getByRole('button', { name: 'Delete' }).click()
  await expect(page).toHaveURL(`${server.baseUrl}/dashboard`)
  await expect(page.getByRole('status')).toContainText('Key “no js” deleted.')
  expect(await fetchStatus(fresh)).toBe(401)
  await page.context().close()
})

test('only self-serve plans are offered, and MAX_KEYS_PER_ACCOUNT stops the next key with a message at the form', async ({ page }) => {
  const capped = await startServer({ MAX_KEYS_PER_ACCOUNT: '2' })
  try {
    const plan = await fetch(`${capped.baseUrl}/api/admin/plans`, {
      method: 'POST',
      headers: { authorization: `Bearer ${capped.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'internal-unlimited', monthly_limit: 2_000_000_000 }),
    })
    expect(await plan.json()).toMatchObject({ name: 'internal-unlimited', self_serve: false })
    await page.goto(`${capped.baseUrl}/signup`)
    const address = email('capped')
    await page.getByLabel('Email').fill(address)
    await page.getByLabel('Password').fill(PASSWORD)
    await page.getByRole('button', { name: 'Sign up' }).click()
    if (!page.url().endsWith('/dashboard')) {
      // Sign-up answers with the log-in form when the sign-up itself does not start a session.
      await page.getByLabel('Password').fill(PASSWORD)
      await page.getByRole('button', { name: 'Log in' }).click()
    }
    await expect(page).toHaveURL(`${capped.baseUrl}/dashboard`)
    await expect(page.getByLabel('Plan').locator('option')).toHaveText(['free'])
    await expect(page.getByRole('row', { name: /internal-unlimited/ })).toHaveCount(0)

    for (const name of ['one', 'two']) {
      await page.getByLabel('Name').fill(name)
      await page.getByRole('button', { name: 'Create key' }).click()
      await expect(page.getByRole('region', { name: 'New key' })).toContainText(`Your new key “${name}”`)
    }
    await expect(page.locator('#key-count')).toHaveText('You have 2 keys, the most an account can have (2): delete one to create another.')
    await page.getByLabel('Name').fill('three')
    await page.getByRole('button', { name: 'Create key' }).click()
    const refusal = 'You already have 2 keys, the most an account can have (2). Delete a key you no longer use to create another.'
    await expect(page.getByRole('button', { name: 'Create key' })).toHaveAccessibleDescription(refusal)
    await expect(page.getByLabel('Name')).toHaveValue('three')
    await expect(page.locator('table.keys tbody tr')).toHaveCount(2)

    await keyRow(page, 'one').getByRole('button', { name: 'Delete' }).click()
    await page.getByRole('row', { name: /Delete key “one”\?/ }).getByRole('button', { name: 'Delete' }).click()
    await expect(page.getByRole('status')).toContainText('Key “one” deleted.')
    await page.getByLabel('Name').fill('three')
    await page.getByRole('button', { name: 'Create key' }).click()
    await expect(page.getByRole('region', { name: 'New key' })).toContainText('Your new key “three”')
  } finally {
    await capped.stop()
  }
})
