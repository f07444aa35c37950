// The run page (/run, issue 47) in Debian's Chromium, over plain HTTP and over HTTPS: one
// visit stores one task per tool under one run id, <body data-run> and each section's
// data-task say which, the run API returns exactly those tasks, each judged as the tool's own
// page judges the same browser (check for check), the overview shows every tool's score and
// links to the findings, and the page is accessible on a phone and a desktop.

import { PROOF_TOOLS } from '../common/page-proof'
import { expect, test, type Browser, type Page } from '@playwright/test'
import { TOOL_IDS } from '../common/tools'
import { seriousViolations } from './support/axe'
import { startServer, type RunningServer } from './support/server'
import { INTERNAL_PATTERNS } from '../src/pages/plain-words'

let server: RunningServer
let key: string

test.beforeAll(async () => {
  server = await startServer()
  key = await server.makeKey()
})
test.afterAll(async () => server?.stop())

interface Task {
  task_id: string
  tool: string
  score: number
  results: { checks: Array<{ id: string; verdict: string }>; verified: boolean; tested?: boolean; ruleset?: string; server?: { proof?: string; proof_detail?: string } }
}
interface Run {
  run_id: string
  complete: boolean
  tools: string[]
  tasks: Task[]
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

async function openRun(page: Page, base: string): Promise<string> {
  await page.goto(`${base}/run`)
  const runId = await page.locator('body[data-run]').getAttribute('data-run', { timeout: 60_000 })
  expect(runId).toMatch(UUID)
  return runId!
}

async function readRun(runId: string): Promise<{ status: number; run: Run; headers: Headers }> {
  const res = await fetch(`${server.baseUrl}/api/antibot/runs/${runId}`, { headers: { authorization: `Bearer ${key}` } })
  return { status: res.status, run: (await res.json()) as Run, headers: res.headers }
}

const verdicts = (t: Task) => Object.fromEntries(t.results.checks.map((c) => [c.id, c.verdict]))

/**
 * The checks both tasks judged, with their verdicts: a check `na` on either side (a probe that
 * ran out of its time on a busy machine says so, and is not judged) is left out of both.
 */
function judgedAlike(a: Task, b: Task): [Record<string, string>, Record<string, string>] {
  const [va, vb] = [verdicts(a), verdicts(b)]
  const ids = Object.keys(va).filter((id) => va[id] !== 'na' && vb[id] !== undefined && vb[id] !== 'na')
  return [Object.fromEntries(ids.map((id) => [id, va[id]!])), Object.fromEntries(ids.map((id) => [id, vb[id]!]))]
}

async function runInContext(browser: Browser, base: string, https: boolean): Promise<void> {
  const context = await browser.newContext(https ? { ignoreHTTPSErrors: true } : {})
  try {
    const page = await context.newPage()
    const runId = await openRun(page, base)
    const sectionTasks = await page.evaluate(() => Object.fromEntries([...document.querySelectorAll<HTMLElement>('section[data-run-tool]')].map((s) => [s.dataset.runTool, s.dataset.task])))
    const { status, run } = await readRun(runId)
    expect(status).toBe(200)
    expect(run).toMatchObject({ run_id: runId, complete: true, tools: [...TOOL_IDS] })
    // One task per tool, in the tools' order, each the one its section names, judged by the service.
    expect(run.tasks.map((t) => t.tool)).toEqual([...TOOL_IDS])
    expect(Object.fromEntries(run.tasks.map((t) => [t.tool, t.task_id]))).toEqual(sectionTasks)
    for (const t of run.tasks) expect([t.tool, t.results.verified, t.results.ruleset]).toEqual([t.tool, true, expect.stringMatching(/^r1-[0-9a-f]{16}$/)])
    // The tools that take the layout challenge each laid out their own nonce's (issue 56).
    for (const t of run.tasks.filter((x) => (PROOF_TOOLS as readonly string[]).includes(x.tool))) expect([t.tool, t.results.server?.proof, t.results.server?.proof_detail]).toEqual([t.tool, 'valid', expect.stringMatching(/^all \d+ boxes/)])

    // The overview: a bar per tool, and the findings linking into the reports.
    await expect(page.locator('#overview')).toBeVisible({ timeout: 30_000 })
    await expect(page.locator('#overview .run-score')).toHaveCount(TOOL_IDS.length)
    const botScore = run.tasks.find((t) => t.tool === 'bot-detector')!.score
    await expect(page.locator('#overview .run-score[data-tool="bot-detector"] meter')).toHaveAttribute('value', String(botScore))
    // Worst first: the lowest score is the first row (and marked when it is below 80).
    const tested = run.tasks.filter((t) => t.results.tested !== false)
    const lowest = Math.min(...tested.map((t) => t.score))
    await expect(page.locator('#overview .run-score meter').first()).toHaveAttribute('value', String(lowest))
    const firstFinding = page.locator('#overview .run-findings a').first()
    const href = await firstFinding.getAttribute('href')
    expect(href).toMatch(/^#[a-z-]+--check-[a-z0-9-]+$/)
    await expect(page.locator(href!)).toHaveCount(1)
    // The checks are folded; the link opens the <details> holding its row, and shows it.
    await expect(page.locator(href!)).toBeHidden()
    await firstFinding.click()
    await expect(page.locator(href!)).toBeVisible()
    await expect(page.locator(`details.checks-fold:has(${href})`)).toHaveAttribute('open', '')
    if (!https) {
      // What a person reads carries none of the service's internals (tests/person-text.test.ts says which).
      const text = await page.evaluate(() => {
        for (const d of document.querySelectorAll('details')) d.open = true
        return document.body.innerText
      })
      const found = INTERNAL_PATTERNS.flatMap(([what, re]) => [...text.matchAll(new RegExp(re.source, `${re.flags}g`))].map((m) => `${what}: …${text.slice(Math.max(0, m.index! - 50), m.index! + 40)}…`))
      expect(found).toEqual([])
    }

    // Each tool's own page, opened next in the same browser, judges it check for check alike.
    for (const t of run.tasks) {
      await page.goto(`${base}/tools/${t.tool}`)
      const own = await page.locator('body[data-task]').getAttribute('data-task', { timeout: 30_000 })
      const res = await fetch(`${server.baseUrl}/api/antibot/tasks/${own}`, { headers: { authorization: `Bearer ${key}` } })
      const ownTask = (await res.json()) as Task
      // The same checks, and the same verdict on every check both could judge.
      expect(Object.keys(verdicts(t)).sort(), t.tool).toEqual(Object.keys(verdicts(ownTask)).sort())
      const [inRun, onPage] = judgedAlike(t, ownTask)
      expect(inRun, `${t.tool}: the run's task against the tool page's`).toEqual(onPage)
      expect(t.results.ruleset).toBe(ownTask.results.ruleset)
    }
  } finally {
    await context.close()
  }
}

test('over plain HTTP: one task per tool under one run, each judged as its own page judges it', async ({ browser }) => {
  test.setTimeout(240_000)
  await runInContext(browser, server.baseUrl, false)
})

test('over HTTPS: the same, with the TLS evidence of the page connection under every tool', async ({ browser }) => {
  test.setTimeout(240_000)
  await runInContext(browser, server.tlsUrl!, true)
})

test('the run page on a desktop and a phone: no serious accessibility violation, nothing wider than the screen', async ({ browser }) => {
  test.setTimeout(120_000)
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
  try {
    const page = await context.newPage()
    await openRun(page, server.baseUrl)
    await expect(page.locator('#overview')).toBeVisible({ timeout: 30_000 })
    await expect(page.locator('.run-tool .report')).toHaveCount(TOOL_IDS.length, { timeout: 30_000 })
    // The reports' ids are made each section's own, and what refers to them follows: every
    // picture is an image named by its own title (bot-detector's verdict, the address, the zone…).
    const unresolved = await page.evaluate(() => [...document.querySelectorAll('[aria-labelledby]')].flatMap((el) => el.getAttribute('aria-labelledby')!.split(/\s+/).filter((id) => !document.getElementById(id))))
    expect(unresolved).toEqual([])
    await expect(page.getByRole('img', { name: /^Verdict: bot, score \d+ of 100/ })).toHaveCount(1)
    await expect(page.getByRole('img', { name: /^The browser's time zone is / })).toHaveCount(1)
    // The same page, judged at a desktop's width and then at a phone's.
    for (const viewport of [{ width: 1280, height: 800 }, { width: 360, height: 740 }]) {
      await page.setViewportSize(viewport)
      const serious = (await seriousViolations(page)).map((v) => `${v.id}: ${v.nodes} × ${v.targets[0]}`)
      expect(serious, `${viewport.width} px`).toEqual([])
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
      expect(overflow, `${viewport.width} px`).toBeLessThanOrEqual(0)
    }
  } finally {
    await context.close()
  }
})
