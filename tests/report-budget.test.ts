// POST /tools/:tool/report under the task endpoint's budget (issue 57), over HTTP on every test
// driver. A report judges a submission as the task endpoint does, without storing it: with
// TASK_RATE_LIMIT set, every report is charged to the client network's task window (shared with
// task posts) and refused with 429 when it is full — except the page's own report, the one it
// asks for once after storing its task, which is free, so a person is never refused it. Reports
// are counted in /metrics (antibot_reports_judged_total, and antibot_limited_total{task_report}).

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createMetrics } from '../src/metrics'
import { buildTestApp, specBotResults } from './support/app'
import { openTestDatabase, testDrivers, type TestDatabase } from './support/db'

// Opening (and dropping) a test database takes what it takes on a loaded machine: no clock of its
// own (0), so a busy machine never fails a suite before its first test (issue 57).
const HOOK_TIMEOUT_MS = 0
const BASE = 'http://localhost'
type App = Awaited<ReturnType<typeof buildTestApp>>['app']

const SPEC = JSON.stringify({ tool: 'bot-detector', results: specBotResults() })
const post = (app: App, path: string, body: string) => app.handle(new Request(`${BASE}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body }))
const task = (app: App, body = SPEC) => post(app, '/api/antibot/tasks', body)
const report = (app: App, body = SPEC, tool = 'bot-detector') => post(app, `/tools/${tool}/report`, body)

/** The requests one after the other, their statuses in order. */
async function statuses(requests: Array<() => Promise<Response>>): Promise<number[]> {
  const out: number[] = []
  for (const r of requests) {
    const res = await r()
    out.push(res.status)
    await res.body?.cancel()
  }
  return out
}

/** A page load's nonce, and a body of that page for the curl-like client (results {}). */
async function pageBody(app: App, tool: string): Promise<string> {
  const html = await (await app.handle(new Request(`${BASE}/tools/${tool}`))).text()
  const nonce = /data-nonce="([a-z2-7]{26})"/.exec(html)![1]!
  return JSON.stringify({ tool, results: {}, nonce })
}

const metricValue = (text: string, series: string) => Number(new RegExp(`^${series.replace(/[{}"]/g, (c) => `\\${c}`)} (\\d+)$`, 'm').exec(text)?.[1] ?? Number.NaN)

describe.each(testDrivers())('the report’s budget on %s', (driver) => {
  let tdb: TestDatabase
  beforeAll(async () => {
    tdb = await openTestDatabase(driver)
  }, HOOK_TIMEOUT_MS)
  afterAll(async () => {
    await tdb?.destroy()
  }, HOOK_TIMEOUT_MS)

  test('TASK_RATE_LIMIT 5/60: five tasks, then tasks and reports of the same body alike get 429, nothing judged; counted in /metrics', async () => {
    const metrics = createMetrics()
    const { app, clock } = await buildTestApp(tdb.db, { taskRateLimit: { max: 5, windowSeconds: 60 }, metrics })
    clock.set('2027-04-01T12:00:00Z')
    expect(await statuses(Array.from({ length: 8 }, () => () => task(app)))).toEqual([201, 201, 201, 201, 201, 429, 429, 429])
    const reports = await Promise.all(Array.from({ length: 20 }, () => report(app)))
    expect(reports.map((r) => r.status)).toEqual(Array(20).fill(429))
    expect(reports[0]!.headers.get('retry-after')).toBe('60')
    expect(await reports[0]!.json()).toEqual({ error: 'Cannot render report: too many tasks and reports from this address; retry in 60 s' })
    const text = await metrics.text()
    expect(metricValue(text, 'antibot_limited_total{limit="task_report"}')).toBe(20)
    expect(metricValue(text, 'antibot_reports_judged_total{tool="bot-detector",charge="charged"}')).toBe(0)
    // Once the window ends, a report is judged again, and counted.
    clock.set('2027-04-01T12:01:00Z')
    const again = await report(app)
    expect(again.status).toBe(200)
    expect(await again.text()).toContain('data-check')
    expect(metricValue(await metrics.text(), 'antibot_reports_judged_total{tool="bot-detector",charge="charged"}')).toBe(1)
  })

  test('reports draw on the same window as tasks: three reports, then both refused', async () => {
    const { app, clock } = await buildTestApp(tdb.db, { taskRateLimit: { max: 3, windowSeconds: 60 } })
    clock.set('2027-04-02T12:00:00Z')
    expect(await statuses([() => report(app), () => report(app), () => report(app), () => report(app), () => task(app)])).toEqual([200, 200, 200, 429, 429])
  })

  test('the page’s own report after storing its task is free, once: a person with a full window still gets it', async () => {
    const metrics = createMetrics()
    const { app, clock } = await buildTestApp(tdb.db, { taskRateLimit: { max: 2, windowSeconds: 60 }, metrics })
    clock.set('2027-04-03T12:00:00Z')
    const first = await pageBody(app, 'http-headers')
    const second = await pageBody(app, 'http-headers')
    // Two pages, each storing its task and asking for its report: the window is full after the
    // tasks, and both reports are still given.
    expect(await statuses([() => task(app, first), () => report(app, first, 'http-headers'), () => task(app, second), () => report(app, second, 'http-headers')])).toEqual([201, 200, 201, 200])
    // Asked again, it is not the page's own any more: charged, and the window is full.
    expect(await statuses([() => report(app, second, 'http-headers')])).toEqual([429])
    // A nonce whose task was never stored is charged too (it is no page's report).
    const unstored = await pageBody(app, 'http-headers')
    expect(await statuses([() => report(app, unstored, 'http-headers')])).toEqual([429])
    const text = await metrics.text()
    expect(metricValue(text, 'antibot_reports_judged_total{tool="http-headers",charge="own"}')).toBe(2)
    expect(metricValue(text, 'antibot_limited_total{limit="task_report"}')).toBe(2)
  })

  test('without TASK_RATE_LIMIT reports are unlimited, as tasks are', async () => {
    const { app } = await buildTestApp(tdb.db)
    expect(await statuses(Array.from({ length: 12 }, () => () => report(app)))).toEqual(Array(12).fill(200))
  })
})
