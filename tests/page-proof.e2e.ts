// The page's proof that it ran (issue 56) in headless Chromium: the layout model of
// src/core/page-proof.ts against Chromium's own layout of 150 fresh challenges, on a desktop
// and on a phone (pixel ratio 3), under a page style sheet that sets every box model property
// it can; then the tool pages as a person opens them: bot-detector's first load and a reload,
// tls-fingerprint and http-headers, each judged `valid` on its own nonce.

import { spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, test, type Page } from '@playwright/test'
import { generateNonce } from '../src/core/nonce'
import { verifyProof } from '../src/core/page-proof'
import { startServer, type RunningServer } from './support/server'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
let server: RunningServer
let key: string
let probe: string

test.beforeAll(async () => {
  const out = join(mkdtempSync(join(tmpdir(), 'proof-')), 'probe.js')
  const built = spawnSync(join(ROOT, 'node_modules/.bin/bun'), ['build', join(ROOT, 'tests/support/page-proof-entry.ts'), '--target', 'browser', '--outfile', out], { encoding: 'utf8' })
  expect(built.status, built.stderr).toBe(0)
  probe = readFileSync(out, 'utf8')
  server = await startServer()
  key = await server.makeKey()
})
test.afterAll(async () => server?.stop())

/** A page whose own style sheet would move every box it reaches: the challenge's shadow root must keep it out. */
const HOSTILE = '<!doctype html><style>* { box-sizing: border-box !important; margin: 3px !important; padding: 2px; border: 1px solid; display: inline-flex; zoom: 1 } ab-proof-box { width: 10px !important }</style><p>text</p>'

async function sweep(page: Page, count: number): Promise<string[]> {
  await page.setContent(HOSTILE)
  await page.addScriptTag({ content: probe })
  const wrong: string[] = []
  for (let i = 0; i < count; i++) {
    const nonce = generateNonce((n) => new Uint8Array(randomBytes(n)))
    const value = await page.evaluate((n) => (window as unknown as { pageProof(n: string): unknown }).pageProof(n), nonce)
    const v = verifyProof(nonce, { ok: true, value, ms: 1 })
    if (!/^all \d+ boxes/.test(v.detail)) wrong.push(`${nonce}: ${v.detail}`)
  }
  return wrong
}

test('the layout model puts every box where Chromium does: 150 challenges on a desktop', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } })
  expect(await sweep(await context.newPage(), 150)).toEqual([])
  await context.close()
})

test('and on a phone (390 px wide, pixel ratio 3, touch)', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true })
  expect(await sweep(await context.newPage(), 60)).toEqual([])
  await context.close()
})

interface Task {
  results: { server: { proof?: string; proof_detail?: string }; checks: Array<{ id: string; verdict: string; observed: unknown }> }
}

async function taskOf(page: Page): Promise<Task> {
  const id = await page.locator('body[data-task]').getAttribute('data-task', { timeout: 30_000 })
  const res = await fetch(`${server.baseUrl}/api/antibot/tasks/${id}`, { headers: { authorization: `Bearer ${key}` } })
  expect(res.status).toBe(200)
  return (await res.json()) as Task
}

const proofOf = (t: Task) => [t.results.server.proof, t.results.checks.find((c) => c.id === 'page-ran')?.verdict, t.results.server.proof_detail]

test('the tool pages as opened in the browser: the first page, a reload, and the other tools that take the challenge', async ({ page }) => {
  await page.goto(`${server.baseUrl}/tools/bot-detector`)
  const first = await taskOf(page)
  expect(proofOf(first)).toEqual(['valid', 'pass', expect.stringMatching(/^all \d+ boxes/)])
  await page.reload()
  await expect(page.locator('body[data-task]')).toHaveCount(1)
  const again = await taskOf(page)
  expect(proofOf(again)).toEqual(['valid', 'pass', expect.stringMatching(/^all \d+ boxes/)])
  for (const tool of ['tls-fingerprint', 'http-headers']) {
    await page.goto(`${server.baseUrl}/tools/${tool}`)
    expect(proofOf(await taskOf(page)), tool).toEqual(['valid', 'pass', expect.stringMatching(/^all \d+ boxes/)])
  }
})
