// browser-fingerprint in Debian's Chromium: the visitor id is the same on two visits (unique, the
// second visit coming from the same address), default headless is consistent apart from its
// software renderer, and the usual spoofs are caught:
// navigator overridden in the page (the worker disagrees) and per-read canvas noise (farbling,
// left out of the visitor id). fp-fonts-os and the score depend on the fonts, so the browser
// sees only the server font set (tests/support/fonts/server.conf), whatever the host has.

import { expect, type Page } from '@playwright/test'
import { testWithFonts } from './support/fonts'
import { startServer, type RunningServer } from './support/server'
import type { Uniqueness } from '../src/core/uniqueness'

const test = testWithFonts('server')

let server: RunningServer
let key: string

test.beforeAll(async () => {
  server = await startServer()
  key = await server.makeKey()
})
test.afterAll(async () => server?.stop())

interface Task {
  score: number
  results: {
    checks: Array<{ id: string; verdict: string; observed: unknown }>
    fingerprint: { visitorId: string; unstable: string[]; excluded: string[]; components: Record<string, { hash: string | null; stable: boolean; inVisitorId: boolean }>; commonness: { tasks: number; addresses: number } | null }
    uniqueness: Uniqueness | null
  }
}

async function run(page: Page): Promise<{ task: Task; verdicts: Record<string, string> }> {
  await page.goto(`${server.baseUrl}/tools/browser-fingerprint`)
  const id = await page.locator('body[data-task]').getAttribute('data-task', { timeout: 30_000 })
  const res = await fetch(`${server.baseUrl}/api/antibot/tasks/${id}`, { headers: { authorization: `Bearer ${key}` } })
  expect(res.status).toBe(200)
  const task = (await res.json()) as Task
  return { task, verdicts: Object.fromEntries(task.results.checks.map((c) => [c.id, c.verdict])) }
}

test('default headless Chromium: a stable visitor id, consistent everywhere, SwiftShader warned', async ({ page }) => {
  const first = await run(page)
  const second = await run(page)
  expect(first.task.results.fingerprint.visitorId).toMatch(/^[0-9a-f]{16}$/)
  expect(second.task.results.fingerprint.visitorId).toBe(first.task.results.fingerprint.visitorId)
  expect(first.task.results.fingerprint.unstable).toEqual([])
  const { verdicts, task } = first
  expect(verdicts['fp-software-renderer']).toBe('warn')
  // The service's fresh database: never stored before; then stored once, from this address only.
  const commonness = (t: Task) => t.results.checks.find((c) => c.id === 'fp-commonness')!
  const visitorId = first.task.results.fingerprint.visitorId
  expect(commonness(first.task)).toMatchObject({ verdict: 'pass', observed: `unique: no task stored in the last 90 days has visitor id ${visitorId}` })
  expect(commonness(second.task)).toMatchObject({ verdict: 'pass', observed: `unique to this address: 1 stored task has visitor id ${visitorId} in the last 90 days, all from this address` })
  expect(second.task.results.fingerprint.commonness).toEqual({ tasks: 1, addresses: 0 })
  // The page's report is judged as its stored task was (its own task not counted).
  await expect(page.getByRole('region', { name: 'Results' }).locator('tr[data-check="fp-commonness"]')).toContainText('unique to this address: 1 stored task')
  for (const id of ['fp-stability', 'fp-iframe-consistency', 'fp-worker-consistency', 'fp-ua-header', 'fp-platform', 'fp-ua-client-hints', 'fp-vendor', 'fp-timezone', 'fp-plugins', 'fp-hardware', 'fp-audio-engine', 'fp-fonts-os', 'fp-gpu-os']) {
    expect(verdicts[id], id).toBe('pass')
  }
  expect(task.score).toBe(90)
  await expect(page.getByRole('region', { name: 'Results' }).locator('tr[data-check="fp-software-renderer"]')).toContainText('SwiftShader')
})

test('how identifying this browser is: the report draws each component’s bits, and a reload counts once', async ({ page }) => {
  const first = await run(page)
  const u = first.task.results.uniqueness!
  // Every component that went into the visitor id is an attribute, the rarest first.
  const inId = Object.entries(first.task.results.fingerprint.components).filter(([, c]) => c.inVisitorId).map(([name]) => name)
  expect(u.attributes.map((a) => a.name).sort()).toEqual(inId.sort())
  expect(u.attributes.map((a) => a.bits)).toEqual([...u.attributes.map((a) => a.bits)].sort((a, b) => b - a))
  expect(u).toMatchObject({ windowDays: 90, k: 5, meaningful: false, minimumPopulation: 100 })
  // The reference dataset has one of the visitor id's components, the CPU cores and memory, from
  // the first visit; the others say it lacks them (docs/uniqueness.md).
  expect(u.reference).toMatchObject({ name: 'fingerprint-generator', fingerprints: 14192 })
  expect(u.attributes.filter((a) => a.inReference).map((a) => [a.name, a.source])).toEqual([['hardware', 'reference']])
  expect(u.attributes.filter((a) => a.name !== 'hardware' && (a.source !== 'instance' || a.inReference !== false))).toEqual([])
  expect(u.population).toBeGreaterThanOrEqual(1)
  // What a person sees: the whole fingerprint, the population said to be small, a row per component.
  const picture = page.getByRole('region', { name: 'Results' }).locator('figure[data-picture="uniqueness"]')
  await expect(picture).toContainText('How identifying this browser is')
  // The whole visitor id: from the dataset as far as it covers it (the hardware), and the
  // population of this instance named for the rest.
  await expect(picture).toContainText('Among the 14,192 real browsers of the fingerprint-generator')
  await expect(picture).toContainText(`only this service's ${u.population.toLocaleString('en-US')} browser`)
  // This instance's own counts are not yet meaningful (the reference answers for the hardware).
  await expect(picture).toContainText(/not yet meaningful/i)
  await expect(picture.locator('tr[data-attribute]')).toHaveCount(u.attributes.length)
  await expect(picture.locator('tr[data-source="instance"]')).toHaveCount(u.attributes.length - 1)
  await expect(picture.locator('tr[data-attribute="hardware"][data-source="reference"]')).toContainText('fingerprint-generator (14,192 real browsers)')
  // The reload: the same browser, counted once.
  const again = (await run(page)).task.results.uniqueness!
  expect(again.browser).toBe('seen before')
  expect(again.population).toBe(u.population)
  await expect(picture).toHaveAttribute('data-population', String(u.population))
})

test('navigator overridden in the page is contradicted by the worker', async ({ page }) => {
  // Init scripts run in every frame (so the iframe agrees) but not in workers.
  await page.addInitScript(() => {
    Object.defineProperty(Navigator.prototype, 'hardwareConcurrency', { get: () => 16 })
    Object.defineProperty(Navigator.prototype, 'platform', { get: () => 'Win32' })
  })
  const { verdicts, task } = await run(page)
  expect(verdicts['fp-worker-consistency']).toBe('fail')
  expect(verdicts['fp-iframe-consistency']).toBe('pass')
  expect(verdicts['fp-platform']).toBe('fail')
  const worker = task.results.checks.find((c) => c.id === 'fp-worker-consistency')!
  expect(String(worker.observed)).toContain('hardwareConcurrency: 16 ≠')
})

test('per-read canvas noise is reported as farbling and kept out of the visitor id', async ({ page }) => {
  await page.addInitScript(() => {
    const real = CanvasRenderingContext2D.prototype.getImageData
    CanvasRenderingContext2D.prototype.getImageData = function (this: CanvasRenderingContext2D, ...args: Parameters<typeof real>) {
      const img = real.apply(this, args)
      const i = Math.floor(Math.random() * (img.data.length / 4)) * 4
      img.data[i] = img.data[i]! ^ 1
      return img
    }
  })
  const { verdicts, task } = await run(page)
  expect(verdicts['fp-stability']).toBe('warn')
  expect(task.results.fingerprint.unstable).toEqual(['canvas'])
  expect(task.results.fingerprint.components.canvas!.stable).toBe(false)
  const stability = task.results.checks.find((c) => c.id === 'fp-stability')!
  expect(String(stability.observed)).toContain('anti-fingerprinting detected, noise added per read (farbling): canvas')
})
