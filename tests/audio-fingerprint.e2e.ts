// audio-fingerprint in Debian's Chromium: the sum default headless Chromium renders on x86-64
// Linux (recorded in src/checks/audio-sums.ts), and the two ways audio spoofing shows:
// per-read noise on getChannelData (farbling, and copyFromChannel disagreeing) and a Firefox
// User-Agent over Blink's audio stack.

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
  results: { checks: Array<{ id: string; verdict: string; observed: unknown }>; audio: { sum: number | null; farbling: string; cluster: string | null } }
}

async function run(page: Page): Promise<{ task: Task; verdicts: Record<string, string> }> {
  await page.goto(`${server.baseUrl}/tools/audio-fingerprint`)
  const id = await page.locator('body[data-task]').getAttribute('data-task', { timeout: 30_000 })
  const res = await fetch(`${server.baseUrl}/api/antibot/tasks/${id}`, { headers: { authorization: `Bearer ${key}` } })
  expect(res.status).toBe(200)
  const task = (await res.json()) as Task
  return { task, verdicts: Object.fromEntries(task.results.checks.map((c) => [c.id, c.verdict])) }
}

test('default headless Chromium: a stable Blink sum, everything consistent', async ({ page }) => {
  const { task, verdicts } = await run(page)
  for (const id of ['audio-available', 'audio-stable', 'audio-channel-copy', 'audio-known-answer', 'audio-sum-known', 'audio-engine']) expect(verdicts[id], id).toBe('pass')
  expect(task.results.audio.farbling).toBe('none')
  expect(task.results.audio.cluster).toBe('blink-desktop')
  // Within the cluster of x86 Blink; 124.04347776696522 on the Chromium 156 this was written with.
  expect(task.results.audio.sum).toBeGreaterThan(124.0434)
  expect(task.results.audio.sum).toBeLessThan(124.0438)
  await expect(page.getByRole('region', { name: 'Results' }).locator('tr[data-check="audio-engine"]')).toContainText('124.04')
})

test('noise added to getChannelData is farbling, and copyFromChannel contradicts it', async ({ page }) => {
  await page.addInitScript(() => {
    const real = AudioBuffer.prototype.getChannelData
    AudioBuffer.prototype.getChannelData = function (this: AudioBuffer, channel: number) {
      const data = real.call(this, channel)
      const out = new Float32Array(data)
      // Relative noise of up to ±5e-5, far above float32's resolution (~6e-8), so that every
      // touched sample changes (noise below half an ulp would round back to the same value).
      for (let i = 0; i < out.length; i += 3) out[i] = out[i]! * (1 + (Math.random() - 0.5) * 1e-4)
      return out
    }
  })
  const { task, verdicts } = await run(page)
  // The patch must be in place, or the checks below would fail for the wrong reason.
  expect(await page.evaluate(() => AudioBuffer.prototype.getChannelData.toString())).not.toContain('[native code]')
  const seen = (id: string) => `${id}: ${JSON.stringify(task.results.checks.find((c) => c.id === id)?.observed)}`
  expect(verdicts['audio-stable'], seen('audio-stable')).toBe('warn')
  expect(verdicts['audio-known-answer'], seen('audio-known-answer')).toBe('warn')
  expect(verdicts['audio-channel-copy'], seen('audio-channel-copy')).toBe('fail')
  expect(verdicts['audio-engine']).toBe('na')
  expect(task.results.audio).toMatchObject({ sum: null, farbling: 'noise' })
})

test('a Firefox User-Agent over Blink’s audio stack fails the engine check', async ({ browser }) => {
  const context = await browser.newContext({ userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0' })
  const page = await context.newPage()
  const { verdicts } = await run(page)
  expect(verdicts['audio-engine']).toBe('fail')
  await context.close()
})
