// Every tool page as a visitor sees it, in Debian's Chromium, at a phone's size (390×844,
// device scale 2, touch) and a desktop's (1280×900): no sideways overflow (and none at 360 or
// 414 px either), the tool's picture drawn from the values the task stored (the screen
// picture's sizes are the measured ones, the canvas pictures are the task's, …), and
// axe-core finds no serious or critical accessibility violation — on the tool pages, the
// index, the docs (and a schema's own page) and the dashboard. The TLS page over plain HTTP, whose handshake the browser
// refuses, says "Not tested" instead of a score.
//
// On a desktop, at 1280 and at 1024 px, no word of a check name, a verdict, a badge or a table
// header is split across lines (the checks table sizes its columns for their content): each run
// of letters and digits in those elements has all its characters on one line.
//
// With isMobile, Chromium widens the layout viewport to fit content that overflows (innerWidth
// becomes the content's width), so the overflow test compares with the device width itself.

import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test'
import { TOOL_IDS, type ToolId } from '../common/tools'
import { seriousViolations } from './support/axe'
import { startServer, type RunningServer } from './support/server'
import { uniqueEmail } from './support/unique'

const SIZES = {
  phone: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true },
  desktop: { viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1, isMobile: false, hasTouch: false },
} as const
type Size = keyof typeof SIZES

// Its tests share nothing but the server (each worker starts its own): spread over the workers,
// the longest file no longer holds the suite's end (issue 36).
test.describe.configure({ mode: 'parallel' })

let server: RunningServer
let key: string

test.beforeAll(async () => {
  server = await startServer()
  key = await server.makeKey()
})
test.afterAll(async () => server?.stop())

async function contextFor(browser: Browser, size: Size): Promise<BrowserContext> {
  return browser.newContext({ ...SIZES[size] })
}

/** Page width against the device's: the document must not be wider than the screen. */
async function overflow(page: Page, width: number): Promise<{ scrollWidth: number; innerWidth: number; width: number }> {
  return page.evaluate((width) => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth, width }), width)
}

async function expectFits(page: Page, size: Size): Promise<void> {
  const width = SIZES[size].viewport.width
  const o = await overflow(page, width)
  expect(o, 'no sideways overflow').toEqual({ scrollWidth: Math.min(o.scrollWidth, width), innerWidth: width, width })
  if (size === 'phone') {
    // The rest of the phone range: narrowest and widest common widths.
    for (const w of [360, 414]) {
      await page.setViewportSize({ width: w, height: 800 })
      const other = await overflow(page, w)
      expect(other, `no sideways overflow at ${w} px`).toEqual({ scrollWidth: Math.min(other.scrollWidth, w), innerWidth: w, width: w })
    }
    await page.setViewportSize(SIZES.phone.viewport)
  }
}

/** Words (runs of letters and digits) of check names, verdicts, badges and table headers whose characters land on more than one line. */
async function splitWords(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = []
    for (const el of document.querySelectorAll('table.checks th, table.checks .check-name, table.checks td.c-verdict, .badge, h2.finding-title')) {
      if (el.getClientRects().length === 0) continue
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT)
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (const m of (node.textContent ?? '').matchAll(/[\p{L}\p{N}]+/gu)) {
          const lines = new Set<number>()
          for (let i = m.index; i < m.index + m[0].length; i++) {
            const range = document.createRange()
            range.setStart(node, i)
            range.setEnd(node, i + 1)
            const r = range.getClientRects()[0]
            if (r && r.width > 0) lines.add(Math.round(r.top))
          }
          if (lines.size > 1) out.push(`"${m[0]}" in ${el.tagName.toLowerCase()}.${[...el.classList].join('.')}`)
        }
      }
    }
    return out
  })
}

async function expectNoSplitWords(page: Page, what: string): Promise<void> {
  for (const width of [1280, 1024]) {
    await page.setViewportSize({ width, height: 900 })
    expect(await splitWords(page), `${what} at ${width} px: words split across lines`).toEqual([])
  }
  await page.setViewportSize(SIZES.desktop.viewport)
}

async function expectAccessible(page: Page, what: string): Promise<void> {
  const bad = (await seriousViolations(page)).map((v) => `${v.id} (${v.impact}): ${v.targets.join(' | ')}`)
  expect(bad, `${what}: serious or critical accessibility violations`).toEqual([])
}

interface Task {
  score: number
  results: Record<string, unknown> & { tested: boolean; untested?: { reason: string; url: string | null }; signals?: Record<string, { ok: boolean; value?: unknown }> }
}

async function taskOf(page: Page): Promise<Task> {
  const id = await page.locator('body[data-task]').getAttribute('data-task', { timeout: 30_000 })
  const res = await fetch(`${server.baseUrl}/api/antibot/tasks/${id}`, { headers: { authorization: `Bearer ${key}` } })
  expect(res.status).toBe(200)
  return (await res.json()) as Task
}

const value = <T,>(task: Task, name: string) => task.results.signals?.[name]?.value as T

/** An at-a-glance picture (src/pages/pictures/glance.tsx): an image labelled by its title, inside the screen's width. */
async function expectGlance(page: Page, name: string, says: RegExp): Promise<void> {
  const svg = page.getByRole('region', { name: 'Results' }).locator(`[data-picture=${name}] svg`)
  await expect(page.getByRole('img', { name: says })).toHaveCount(1)
  await expect(svg).toHaveAttribute('role', 'img')
  const box = (await svg.boundingBox())!
  const width = await page.evaluate(() => document.documentElement.clientWidth)
  expect(box.x, `${name} starts on the screen`).toBeGreaterThanOrEqual(0)
  expect(box.x + box.width, `${name} ends inside the screen`).toBeLessThanOrEqual(width)
  expect(box.width, `${name} is drawn at a readable size`).toBeGreaterThan(Math.min(300, width - 60))
}

/** The picture each tool draws, checked against what the task stored. */
async function expectPicture(page: Page, tool: ToolId, task: Task): Promise<void> {
  const report = page.getByRole('region', { name: 'Results' })
  switch (tool) {
    case 'screen-display': {
      const scr = value<{ width: number; height: number; availWidth: number; availHeight: number }>(task, 'screen')
      const win = value<{ outerWidth: number; outerHeight: number; innerWidth: number; innerHeight: number }>(task, 'window')
      const rect = (area: string) => report.locator(`[data-picture=screen] svg rect[data-area=${area}]`)
      for (const [area, w, h] of [['screen', scr.width, scr.height], ['available', scr.availWidth, scr.availHeight], ['window', win.outerWidth, win.outerHeight], ['viewport', win.innerWidth, win.innerHeight]] as const) {
        await expect(rect(area)).toHaveAttribute('data-width', String(w))
        await expect(rect(area)).toHaveAttribute('data-height', String(h))
        // Drawn to scale: the rectangle is the measured size in the SVG's units.
        await expect(rect(area)).toHaveAttribute('width', String(w))
        await expect(report.locator(`[data-picture=screen] li[data-area=${area}]`)).toContainText(`${w} × ${h}`)
      }
      // A tell that fired is marked on its area.
      const fired = (task.results.checks as Array<{ id: string; verdict: string }>).some((c) => c.id === 'outer-equals-inner' && c.verdict !== 'pass' && c.verdict !== 'na')
      if (fired) await expect(rect('window')).toHaveClass(/tell/)
      break
    }
    case 'canvas-fingerprint': {
      const canvas = value<{ value: { hash: string }; picture: { image: string } }>(task, 'canvas')
      const gl = value<{ pixelsHash: string; picture: { image: string } }>(task, 'webgl')
      expect(canvas.picture.image).toMatch(/^data:image\/(webp|jpeg|png);base64,/)
      const drawn = report.locator('[data-picture=canvas-2d]')
      await expect(drawn).toHaveAttribute('data-hash', canvas.value.hash)
      await expect(drawn.locator('img').first()).toHaveAttribute('src', canvas.picture.image)
      await expect(report.locator('[data-picture=webgl] img').first()).toHaveAttribute('src', gl.picture.image)
      // The pictures decode: the browser drew them at their size.
      expect(await drawn.locator('img').first().evaluate((img: HTMLImageElement) => [img.complete, img.naturalWidth])).toEqual([true, 220])
      break
    }
    case 'audio-fingerprint': {
      const plot = value<{ plot: { samples: number[]; spectrum: number[] } }>(task, 'audio').plot
      await expect(report.locator('[data-plot=samples]')).toHaveAttribute('data-points', String(plot.samples.length))
      await expect(report.locator('[data-plot=spectrum]')).toHaveAttribute('data-points', String(plot.spectrum.length))
      const points = await report.locator('[data-plot=samples] polyline').getAttribute('points')
      expect(points?.split(' ')).toHaveLength(plot.samples.length)
      break
    }
    case 'font-detection': {
      const fonts = task.results.fonts as { detected: string[] }
      expect(fonts.detected.length).toBeGreaterThan(0)
      const items = report.locator('[data-picture=fonts] li')
      await expect(items).toHaveCount(fonts.detected.length)
      const first = items.first()
      await expect(first).toHaveText(fonts.detected[0]!)
      expect(await first.evaluate((li) => getComputedStyle(li).fontFamily)).toContain(fonts.detected[0]!)
      break
    }
    case 'ip-leak':
    case 'webrtc-leak':
    case 'dns-leak': {
      const http = tool === 'ip-leak' ? (task.results.ip as { address: string }).address : tool === 'webrtc-leak' ? (task.results.webrtc as { httpAddress: string }).httpAddress : (task.results.dns as { clientAddress: string }).clientAddress
      await expect(report.locator('[data-picture=addresses] [data-seen-by=http] li').first()).toHaveAttribute('data-address', http)
      // ip-leak's address card: loopback belongs to no country or network, and says so.
      if (tool === 'ip-leak') {
        await expect(report.locator('[data-picture=network]')).toHaveAttribute('data-country', '')
        await expectGlance(page, 'network', new RegExp(`^The address ${http.replaceAll('.', '\\.')}: a loopback address, which belongs to no country or network`))
      }
      break
    }
    case 'vpn-detector':
      await expectGlance(page, 'network', /^The address .*: a loopback address/)
      break
    case 'timezone-geo': {
      // Headless Chromium is in UTC; loopback has no country to expect a zone from.
      const tz = task.results.timezone as { zone: string; utcOffset: string }
      await expect(report.locator('[data-picture=zone]')).toHaveAttribute('data-browser-offset', tz.utcOffset === '+00:00' ? 'UTC' : `UTC${tz.utcOffset}`)
      await expectGlance(page, 'zone', new RegExp(`^The browser's time zone is ${tz.zone.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}, .* there is no zone to expect\\.$`))
      break
    }
    case 'bot-detector': {
      // The verdict at a glance: the score and verdict word on the gauge, a bar per kind of finding.
      await expect(report.locator('[data-picture=verdict]')).toHaveAttribute('data-score', String(task.score))
      await expect(report.locator('[data-picture=verdict]')).toHaveAttribute('data-verdict', 'bot')
      await expect(report.locator('[data-picture=verdict] [data-group]')).toHaveCount(4)
      await expectGlance(page, 'verdict', new RegExp(`^Verdict: bot, score ${task.score} of 100 .* Automation markers: \\d+ failed`))
      const groups = report.locator('[data-picture=findings] [data-kind]')
      await expect(groups).toHaveCount(4)
      // Headless Chromium: the automation markers fire, and the frameworks are badges above the table.
      expect(Number(await report.locator('[data-kind=markers]').getAttribute('data-fired'))).toBeGreaterThan(0)
      // Each finding says what was found, not the check's passing condition.
      const markers = report.locator('[data-kind=markers] li')
      await expect(markers.filter({ hasText: /^navigator\.webdriver is true$/ })).toHaveCount(1)
      await expect(markers.filter({ hasText: 'is not true' })).toHaveCount(0)
      await expect(markers.filter({ hasText: 'No DevTools protocol client' })).toHaveCount(0)
      for (const f of task.results.frameworks as string[]) await expect(report.locator('[data-frameworks] li', { hasText: f }).first()).toBeVisible()
      break
    }
    case 'tls-fingerprint': {
      // Over plain HTTP the browser refuses the self-signed side connection: the headline says so.
      expect(task.results.tested).toBe(false)
      await expect(report).toHaveAttribute('data-tested', 'false')
      await expect(report.locator('.score')).toHaveText('Not tested')
      // One click to the HTTPS address, with what its certificate warning means.
      await expect(report.getByRole('link', { name: 'Run it over HTTPS' })).toHaveAttribute('href', task.results.untested!.url!)
      await expect(report.locator('[data-certificate-note]')).toBeVisible()
      break
    }
    default:
      break
  }
}

for (const size of Object.keys(SIZES) as Size[]) {
  test(`every tool page at ${size} size: fits the screen, shows its picture from the task, no serious accessibility violation`, async ({ browser }) => {
    test.setTimeout(240_000)
    const context = await contextFor(browser, size)
    try {
      for (const tool of TOOL_IDS) {
        await test.step(tool, async () => {
          const page = await context.newPage()
          await page.goto(`${server.baseUrl}/tools/${tool}`)
          const task = await taskOf(page)
          const report = page.getByRole('region', { name: 'Results' })
          await expect(report).toBeVisible({ timeout: 10_000 })
          await expect(report).toHaveAttribute('data-score', String(task.score))
          await expectPicture(page, tool, task)
          // The checks come folded; unfolded as a person would, they fit too (and keep their words whole).
          await expect(report.locator('details.checks-fold')).not.toHaveAttribute('open', '')
          await report.locator('details.checks-fold > summary').click()
          await expect(report.locator('table.checks')).toBeVisible()
          await expectFits(page, size)
          if (size === 'desktop') await expectNoSplitWords(page, tool)
          await expectAccessible(page, `${tool} (${size})`)
          await page.close()
        })
      }
    } finally {
      await context.close()
    }
  })

  test(`the index, the docs and the dashboard with a key at ${size} size: fit the screen, no serious accessibility violation`, async ({ browser }) => {
    test.setTimeout(120_000)
    const context = await contextFor(browser, size)
    const page = await context.newPage()
    try {
      for (const path of ['/', '/docs', '/docs/schemas/BotDetectorResults', '/signup']) {
        await page.goto(`${server.baseUrl}${path}`)
        await expectFits(page, size)
        await expectAccessible(page, `${path} (${size})`)
      }
      const address = uniqueEmail(`layout-${size}`)
      await page.getByLabel('Email').fill(address)
      await page.getByLabel('Password').fill('a long enough password')
      await page.getByRole('button', { name: 'Sign up' }).click()
      const logIn = page.getByRole('button', { name: 'Log in' })
      await expect(logIn.or(page.getByRole('button', { name: 'Create key' }))).toBeVisible()
      if (await logIn.isVisible()) {
        await page.getByLabel('Email').fill(address)
        await page.getByLabel('Password').fill('a long enough password')
        await logIn.click()
      }
      await expect(page).toHaveURL(`${server.baseUrl}/dashboard`)
      await page.getByLabel('Name').fill('a key with a rather long name to wrap')
      await page.getByRole('button', { name: 'Create key' }).click()
      await expect(page.locator('#new-key-secret')).toContainText(/ab_[0-9A-Za-z]{38}/)
      await expectFits(page, size)
      await expectAccessible(page, `/dashboard (${size})`)
    } finally {
      await context.close()
    }
  })
}
