// canvas-fingerprint in Debian's Chromium: what default headless shows (SwiftShader, a
// warning; everything else consistent, page and worker agreeing), and canvas noise injected the
// way anti-fingerprinting extensions do it (getImageData perturbed on every call), which must
// be reported as farbling with no hash.

import { expect, test, type Page } from '@playwright/test'
import { startServer, type RunningServer } from './support/server'

let server: RunningServer
let key: string

test.beforeAll(async () => {
  server = await startServer()
  key = await server.makeKey()
})
test.afterAll(async () => server?.stop())

interface Task {
  score: number
  results: { checks: Array<{ id: string; verdict: string; observed: unknown }>; canvas: { hash: string | null; farbling: string }; webgl: { renderer: string | null; software: string | null } }
}

async function run(page: Page): Promise<{ task: Task; verdicts: Record<string, string> }> {
  await page.goto(`${server.baseUrl}/tools/canvas-fingerprint`)
  const id = await page.locator('body[data-task]').getAttribute('data-task', { timeout: 30_000 })
  const res = await fetch(`${server.baseUrl}/api/antibot/tasks/${id}`, { headers: { authorization: `Bearer ${key}` } })
  expect(res.status).toBe(200)
  const task = (await res.json()) as Task
  return { task, verdicts: Object.fromEntries(task.results.checks.map((c) => [c.id, c.verdict])) }
}

test('default headless Chromium: SwiftShader is a warning, canvas and worker are consistent', async ({ page }) => {
  const { task, verdicts } = await run(page)
  expect(verdicts['webgl-software-renderer']).toBe('warn')
  expect(task.results.webgl.software).toContain('SwiftShader')
  for (const id of ['canvas-readable', 'canvas-stable', 'canvas-known-answer', 'webgl-available', 'webgl-stable', 'webgl-parameters', 'worker-webgl', 'worker-canvas', 'gpu-os']) {
    expect(verdicts[id], id).toBe('pass')
  }
  expect(task.results.canvas.hash).toMatch(/^[0-9a-f]{16}$/)
  expect(task.results.canvas.farbling).toBe('none')
  expect(task.score).toBe(90)
  await expect(page.getByRole('region', { name: 'Results' }).locator('tr[data-check="webgl-software-renderer"]')).toContainText('SwiftShader')
  await page.screenshot({ path: 'test-results/canvas-fingerprint.png', fullPage: true })
})

test('canvas noise injected in the page is reported as farbling, without a hash', async ({ page }) => {
  // What noise extensions do: flip low bits of a few pixels on every read.
  await page.addInitScript(() => {
    const real = CanvasRenderingContext2D.prototype.getImageData
    CanvasRenderingContext2D.prototype.getImageData = function (this: CanvasRenderingContext2D, ...args: Parameters<typeof real>) {
      const img = real.apply(this, args)
      for (let i = 0; i < img.data.length; i += 4 * 7) if (Math.random() < 0.5) img.data[i] = img.data[i]! ^ 1
      return img
    }
  })
  const { task, verdicts } = await run(page)
  expect(verdicts['canvas-stable']).toBe('warn')
  expect(verdicts['canvas-known-answer']).toBe('warn')
  // The worker's OffscreenCanvas was not patched: it disagrees with the noised page.
  expect(verdicts['worker-canvas']).toBe('fail')
  expect(task.results.canvas).toMatchObject({ hash: null, farbling: 'noise' })
  const stable = task.results.checks.find((c) => c.id === 'canvas-stable')!
  expect(String(stable.observed)).toContain('farbling detected')
})

test('a GPU spoofed in the page only is caught by the worker', async ({ page }) => {
  await page.addInitScript(() => {
    const real = WebGLRenderingContext.prototype.getParameter
    WebGLRenderingContext.prototype.getParameter = function (this: WebGLRenderingContext, p: number) {
      if (p === 0x9245) return 'Google Inc. (NVIDIA)'
      if (p === 0x9246) return 'ANGLE (NVIDIA, NVIDIA GeForce RTX 3060 (0x00002504) Direct3D11 vs_5_0 ps_5_0, D3D11)'
      return real.call(this, p)
    }
  })
  const { verdicts } = await run(page)
  expect(verdicts['worker-webgl']).toBe('fail')
  // Direct3D under a Linux User-Agent.
  expect(verdicts['gpu-os']).toBe('fail')
  expect(verdicts['webgl-software-renderer']).toBe('pass')
})
