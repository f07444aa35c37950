// Every tool page, in Debian's Chromium: the page sets data-task, the task fetched through
// the API has the right tool, a score equal to results.summary.score, results that validate
// against the tool's published schema, and the page shows the checks to a person.

import { expect, test } from '@playwright/test'
import { Value } from '@sinclair/typebox/value'
import { resultsSchema } from '../src/core/results'
import { TOOLS } from '../common/tools'
import { startServer, type RunningServer } from './support/server'

let server: RunningServer
let key: string

test.beforeAll(async () => {
  server = await startServer()
  key = await server.makeKey()
})
test.afterAll(async () => server?.stop())

for (const tool of TOOLS) {
  test(`${tool.id}: the page stores a task a key can read, and shows its checks`, async ({ page }) => {
    await page.goto(`${server.baseUrl}/tools/${tool.id}`)
    const taskId = await page.locator('body[data-task]').getAttribute('data-task', { timeout: 30_000 })
    expect(taskId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)

    const res = await fetch(`${server.baseUrl}/api/antibot/tasks/${taskId}`, { headers: { authorization: `Bearer ${key}` } })
    expect(res.status).toBe(200)
    const task = (await res.json()) as { tool: string; score: number; results: { summary: { score: number }; checks: unknown[]; verified: boolean; dropped?: string[] } }
    expect(task.tool).toBe(tool.id)
    // The page's own body with its live nonce: judged by the service, so verified; nothing dropped.
    expect([task.results.verified, task.results.dropped]).toEqual([true, undefined])
    expect(task.score).toBe(task.results.summary.score)
    const schema = resultsSchema(tool.id)
    const errors = [...Value.Errors(schema, task.results)].slice(0, 3).map((e) => `${e.path}: ${e.message}`)
    expect(errors).toEqual([])
    expect(task.results.checks.length).toBeGreaterThan(0)

    const report = page.getByRole('region', { name: 'Results' })
    await expect(report).toBeVisible({ timeout: 10_000 })
    await expect(report).toHaveAttribute('data-score', String(task.score))
    // The checks are folded under the findings; a person opens them.
    await expect(report.locator('table.checks')).toBeHidden()
    await report.getByText(/^Every check \(\d+\)/).click()
    // A row per check under the head (the identifying tools' uniqueness table has rows of its own).
    await expect(report.locator('table.checks').getByRole('row')).toHaveCount(task.results.checks.length + 1)
  })
}
