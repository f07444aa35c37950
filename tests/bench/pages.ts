// Page budgets: per tool, the gzip size of its probe bundle and the time from navigation to
// <body data-task> in headless Chromium (median and p95 over several runs, after a warm-up);
// and the run page (/run, every tool in one visit): its bundle and the time to <body data-run>,
// against the sample client's 30 s (`--tools run` measures it alone).
// Reported, never asserted: `npm run bench:pages [-- --runs 7] [--tools a,b]`. Prints a Markdown table and
// writes bench-results/pages.json.

import { mkdirSync, writeFileSync } from 'node:fs'
import { chromium } from 'playwright-core'
import { buildAssets } from '../../src/build-assets'
import { createAssetStore } from '../../src/http/assets'
import { TOOLS } from '../../common/tools'
import { PROOF_TOOLS } from '../../common/page-proof'
import { startServer } from '../support/server'

const runsArg = process.argv.indexOf('--runs')
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 7
const toolsArg = process.argv.indexOf('--tools')
const ONLY = toolsArg > 0 ? new Set(process.argv[toolsArg + 1]!.split(',')) : null
const JS_BUDGET = 16 * 1024
const TIME_BUDGET_MS = 1500
// Tools whose page waits on the network (ICE gathering, DNS lookups, RTT samples).
const NETWORK_WAIT = new Set(['webrtc-leak', 'dns-leak', 'vpn-detector', 'ip-leak'])

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor(q * (s.length - 1) + 0.5))]!
}

const store = createAssetStore(await buildAssets())
const sizes = new Map(store.sizes().map((s) => [s.name, s]))
const server = await startServer()
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
})
const rows: Array<{ tool: string; gzipBytes: number | null; medianMs: number | null; p95Ms: number | null; networkWait: boolean; withinBudget: boolean }> = []
// The page proof's own cost (issue 56): the time its signal took in the page (laying out the
// challenge and reading every box), from the stored task, on a normal and a 6× slowed CPU.
const proofRows: Array<{ tool: string; cpu: string; medianMs: number | null; maxMs: number | null; valid: string }> = []
const key = await server.makeKey()
// The run page's budget: the sample client's wait.
const RUN_BUDGET_MS = 30_000
const pages = [...TOOLS.map((t) => ({ id: t.id as string, path: `/tools/${t.id}`, done: 'body[data-task]', timeout: 30_000 })), { id: 'run', path: '/run', done: 'body[data-run]', timeout: 90_000 }]
try {
  for (const tool of pages.filter((t) => !ONLY || ONLY.has(t.id))) {
    const size = sizes.get(`probes/${tool.id}.js`)
    const times: number[] = []
    for (let i = 0; i <= RUNS; i++) {
      const context = await browser.newContext()
      const page = await context.newPage()
      const t0 = performance.now()
      await page.goto(`${server.baseUrl}${tool.path}`)
      const ok = await page.waitForSelector(tool.done, { timeout: tool.timeout, state: 'attached' }).then(() => true, () => false)
      const ms = performance.now() - t0
      await context.close()
      if (!ok) break
      if (i > 0) times.push(ms) // run 0 warms up the server and the browser
    }
    const medianMs = times.length ? Math.round(quantile(times, 0.5)) : null
    const p95Ms = times.length ? Math.round(quantile(times, 0.95)) : null
    const gzipBytes = size?.gzipBytes ?? null
    const networkWait = NETWORK_WAIT.has(tool.id)
    const withinBudget =
      tool.id === 'run' ? medianMs !== null && medianMs <= RUN_BUDGET_MS : gzipBytes !== null && gzipBytes <= JS_BUDGET && medianMs !== null && (networkWait || medianMs <= TIME_BUDGET_MS)
    rows.push({ tool: tool.id, gzipBytes, medianMs, p95Ms, networkWait, withinBudget })
  }
  for (const tool of PROOF_TOOLS.filter((t) => !ONLY || ONLY.has(t) || ONLY.has('proof'))) {
    for (const rate of [1, 6]) {
      const ms: number[] = []
      let valid = 0
      for (let i = 0; i < RUNS; i++) {
        const context = await browser.newContext()
        const page = await context.newPage()
        if (rate > 1) await (await context.newCDPSession(page)).send('Emulation.setCPUThrottlingRate', { rate })
        await page.goto(`${server.baseUrl}/tools/${tool}`)
        const id = await page.waitForSelector('body[data-task]', { timeout: 60_000, state: 'attached' }).then((b) => b.getAttribute('data-task'), () => null)
        await context.close()
        if (!id) continue
        const task = (await (await fetch(`${server.baseUrl}/api/antibot/tasks/${id}`, { headers: { authorization: `Bearer ${key}` } })).json()) as { results: { signals?: { proof?: { ms: number } }; server: { proof?: string } } }
        if (task.results.signals?.proof) ms.push(task.results.signals.proof.ms)
        if (task.results.server.proof === 'valid') valid++
      }
      proofRows.push({ tool, cpu: rate === 1 ? 'as is' : `${rate}× slower`, medianMs: ms.length ? quantile(ms, 0.5) : null, maxMs: ms.length ? Math.max(...ms) : null, valid: `${valid} of ${RUNS}` })
    }
  }
} finally {
  await browser.close()
  await server.stop()
}

const fmt = (v: number | null, unit = '') => (v === null ? 'n/a' : `${v}${unit}`)
console.log(`\nTool pages, headless Chromium, ${RUNS} runs each after a warm-up (${new Date().toISOString().slice(0, 10)})\n`)
console.log('| tool | JS gzip | budget 16 KB | data-task median | p95 | budget 1.5 s |')
console.log('|---|---|---|---|---|---|')
for (const r of rows) {
  const js = r.gzipBytes === null ? 'n/a' : `${(r.gzipBytes / 1024).toFixed(1)} KB`
  const run = r.tool === 'run'
  const jsOk = run ? 'every tool’s (n/a)' : r.gzipBytes !== null && r.gzipBytes <= JS_BUDGET ? 'yes' : 'NO'
  const tOk = run ? (r.withinBudget ? 'data-run within 30 s: yes' : 'data-run within 30 s: NO') : r.networkWait ? 'waits on network' : r.medianMs !== null && r.medianMs <= TIME_BUDGET_MS ? 'yes' : 'NO'
  console.log(`| ${r.tool} | ${js} | ${jsOk} | ${fmt(r.medianMs, ' ms')} | ${fmt(r.p95Ms, ' ms')} | ${tOk} |`)
}
if (proofRows.length) {
  console.log('\nThe page proof in the page (its signal\'s time: laying out the challenge and reading every box)\n')
  console.log('| tool | CPU | median | max | judged valid |')
  console.log('|---|---|---|---|---|')
  for (const r of proofRows) console.log(`| ${r.tool} | ${r.cpu} | ${fmt(r.medianMs, ' ms')} | ${fmt(r.maxMs, ' ms')} | ${r.valid} |`)
}
mkdirSync('bench-results', { recursive: true })
writeFileSync('bench-results/pages.json', JSON.stringify({ date: new Date().toISOString(), runs: RUNS, rows, proof: proofRows }, null, 2))
console.log('\nwrote bench-results/pages.json')
