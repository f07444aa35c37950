// Debian's Prometheus (the packaged /usr/bin/prometheus, with a config of this test's own, on
// loopback, its storage in a temporary directory, its port a free one) scrapes the running
// service every second — the HTTP port with METRICS_TOKEN, the HTTPS listener with it, and the
// HTTP port without it — while Chromium runs tool pages (over HTTP with and without trusting
// the listener's certificate, and over HTTPS) and an API client fetches tasks with good, bad,
// used-up and missing keys. Through Prometheus's query API: `up` is 1 (0 without the token,
// which gets 401), tasks are counted by tool and verdict, evidence by kind, fetches by status,
// limits hit; the latency histogram gives a p99 per route; routes are templates; memory is
// exported; no key, id, address or email is in any series.

import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test, type Browser, type Page } from '@playwright/test'
import { taskVerdict } from '../src/core/task-verdict'
import type { ToolId } from '../common/tools'
import { launchTrustingChromium } from './support/chromium'
import { requirePrerequisite } from './support/prerequisites'
import { startServer, type RunningServer } from './support/server'
import { uniqueEmail, uniqueName } from './support/unique'
import { exitedWithOutput } from './support/exited'

const PROMETHEUS = '/usr/bin/prometheus'
const TOKEN = `${uniqueName('metrics-e2e')}-0123456789`
const EMAIL = uniqueEmail('metrics-e2e')

interface Prometheus {
  url: string
  stop(): Promise<void>
  output(): string
}

/** Starts Prometheus on a free loopback port with this config; resolves once it listens. */
async function startPrometheus(config: string): Promise<Prometheus> {
  const dir = mkdtempSync(join(tmpdir(), 'antibot-prometheus-'))
  writeFileSync(join(dir, 'prometheus.yml'), config)
  const child: ChildProcess = spawn(PROMETHEUS, [`--config.file=${join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${join(dir, 'data')}`, '--web.listen-address=127.0.0.1:0', '--log.level=info'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  const url = await new Promise<string>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`prometheus did not listen in 60 s:\n${out}`)), 60_000)
    const onData = (d: Buffer) => {
      out += d.toString()
      // "Listening on" names the port it bound (the one before it says 127.0.0.1:0).
      const m = /msg="Listening on" address=(127\.0\.0\.1:\d+)/.exec(out)
      if (m) {
        clearTimeout(timer)
        ok(`http://${m[1]}`)
      }
    }
    child.stdout!.on('data', onData)
    child.stderr!.on('data', onData)
    void exitedWithOutput(child).then(({ code }) => {
      clearTimeout(timer)
      fail(new Error(`prometheus exited with ${code}:\n${out}`))
    })
  })
  return {
    url,
    output: () => out,
    async stop() {
      child.removeAllListeners('exit')
      const exited = new Promise((r) => child.once('exit', r))
      child.kill('SIGTERM')
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))])
      if (child.exitCode === null) child.kill('SIGKILL')
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

interface Series {
  metric: Record<string, string>
  value: [number, string]
}

async function query(prom: Prometheus, q: string): Promise<Series[]> {
  const res = await fetch(`${prom.url}/api/v1/query?query=${encodeURIComponent(q)}`)
  const body = (await res.json()) as { status: string; data?: { result: Series[] }; error?: string }
  if (body.status !== 'success') throw new Error(`query ${q}: ${body.error}`)
  return body.data!.result
}

/** The query's result as label (of `by`) → number. */
async function byLabel(prom: Prometheus, q: string, by: string): Promise<Record<string, number>> {
  return Object.fromEntries((await query(prom, q)).map((s) => [s.metric[by] ?? '', Number(s.value[1])]))
}

async function scalar(prom: Prometheus, q: string): Promise<number | undefined> {
  const r = await query(prom, q)
  return r.length ? Number(r[0]!.value[1]) : undefined
}

/** Waits until the query gives `want` (Prometheus scrapes every second); fails with what it gave last. */
async function until(prom: Prometheus, q: string, want: number): Promise<void> {
  let last: number | undefined
  for (let i = 0; i < 120; i++) {
    last = await scalar(prom, q)
    if (last === want) return
    await new Promise((r) => setTimeout(r, 500))
  }
  throw new Error(`${q} is ${last}, not ${want}, after 60 s:\n${prom.output().slice(-2000)}`)
}

interface Task {
  tool: ToolId
  score: number
  results: Record<string, unknown> & { server: { evidence: Array<{ kind: string }> } }
}

test.describe('Debian Prometheus scraping the service while Chromium and an API client use it', () => {
  test.setTimeout(240_000)
  let server: RunningServer
  let prom: Prometheus
  let trusting: Browser
  const statuses: number[] = []
  const tasks: Task[] = []
  const ids: string[] = []
  const keys: string[] = []

  test.beforeAll(async () => {
    requirePrerequisite(!existsSync(PROMETHEUS) && `${PROMETHEUS} (Debian's prometheus; tests/gate.sh installs it)`)
    server = await startServer({ METRICS_TOKEN: TOKEN, TASK_MISS_LIMIT: '2/600' })
    const port = new URL(server.baseUrl).port
    const tlsPort = new URL(server.tlsUrl!).port
    const auth = `    authorization:\n      type: Bearer\n      credentials: ${TOKEN}\n`
    prom = await startPrometheus(
      [
        'global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\n  evaluation_interval: 1s\nscrape_configs:\n',
        `  - job_name: antibot\n${auth}    static_configs:\n      - targets: ['127.0.0.1:${port}']\n`,
        `  - job_name: antibot-https\n    scheme: https\n    tls_config:\n      insecure_skip_verify: true\n${auth}    static_configs:\n      - targets: ['127.0.0.1:${tlsPort}']\n`,
        `  - job_name: antibot-no-token\n    static_configs:\n      - targets: ['127.0.0.1:${port}']\n`,
      ].join(''),
    )
    trusting = await launchTrustingChromium()
  })
  test.afterAll(async () => {
    await trusting?.close()
    await prom?.stop()
    await server?.stop()
  })

  test('the query API counts what the browser and the client did', async ({ page }) => {
    // Scraping before anything happens: rate() and p99 then see the whole session.
    await until(prom, 'up{job="antibot"}', 1)

    const key = await server.makeKey({ email: EMAIL })
    keys.push(key)
    const fetchTask = async (id: string, headers: Record<string, string>) => {
      const res = await fetch(`${server.baseUrl}/api/antibot/tasks/${id}`, { headers })
      statuses.push(res.status)
      return res
    }
    const runPage = async (p: Page, base: string, tool: ToolId) => {
      await p.goto(`${base}/tools/${tool}`)
      const id = (await p.locator('body[data-task]').getAttribute('data-task', { timeout: 60_000 }))!
      ids.push(id)
      const res = await fetchTask(id, { authorization: `Bearer ${key}` })
      expect(res.status).toBe(200)
      tasks.push({ tool, ...((await res.json()) as Omit<Task, 'tool'>) })
    }
    // Chromium as Playwright starts it (does not trust the listener's certificate): the
    // handshake is not tested; a Chromium that trusts it, over HTTP (side connection) and HTTPS.
    await runPage(page, server.baseUrl, 'tls-fingerprint')
    const context = await trusting.newContext()
    const trusted = await context.newPage()
    await runPage(trusted, server.baseUrl, 'tls-fingerprint')
    await runPage(trusted, server.baseUrl, 'bot-detector')
    await runPage(trusted, server.tlsUrl!, 'http-headers')
    await context.close()

    // The API client: no key, a well-formed unknown key, a key of a plan used up, ids that do
    // not exist until the miss limit (2 per 10 minutes here) answers 429.
    expect((await fetchTask(ids[0]!, {})).status).toBe(401)
    expect((await fetchTask(ids[0]!, { authorization: `Bearer ${key.slice(0, -4)}AAAA` })).status).toBe(401)
    const plan = await fetch(`${server.baseUrl}/api/admin/plans`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'metrics-one', monthly_limit: 1 }),
    })
    expect(plan.status).toBeLessThan(300)
    const one = await server.makeKey({ email: EMAIL, plan: 'metrics-one' })
    keys.push(one)
    expect((await fetchTask(ids[0]!, { authorization: `Bearer ${one}` })).status).toBe(200)
    expect((await fetchTask(ids[0]!, { authorization: `Bearer ${one}` })).status).toBe(403)
    const missing = [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()]
    ids.push(...missing)
    expect((await fetchTask(missing[0]!, { authorization: `Bearer ${key}` })).status).toBe(404)
    expect((await fetchTask(missing[1]!, { authorization: `Bearer ${key}` })).status).toBe(404)
    expect((await fetchTask(missing[2]!, { authorization: `Bearer ${key}` })).status).toBe(429)

    // Once Prometheus has scraped it all:
    await until(prom, 'sum(antibot_task_fetches_total{job="antibot"})', statuses.length)
    await until(prom, 'sum(antibot_tasks_created_total{job="antibot"})', tasks.length)

    expect(await scalar(prom, 'up{job="antibot"}')).toBe(1)
    expect(await scalar(prom, 'up{job="antibot-https"}')).toBe(1)
    expect(await scalar(prom, 'up{job="antibot-no-token"}')).toBe(0)
    const targets = (await (await fetch(`${prom.url}/api/v1/targets`)).json()) as { data: { activeTargets: Array<{ labels: { job: string }; health: string; lastError: string }> } }
    const noToken = targets.data.activeTargets.find((t) => t.labels.job === 'antibot-no-token')!
    expect(noToken.health).toBe('down')
    expect(noToken.lastError).toContain('401')

    // Tasks by tool and verdict, evidence by kind: what the stored tasks say.
    const want: Record<string, number> = {}
    const kinds: Record<string, number> = {}
    let withEvidence = 0
    for (const t of tasks) {
      const k = `${t.tool}/${taskVerdict(t.tool, t.results, t.score)}`
      want[k] = (want[k] ?? 0) + 1
      const seen = new Set(t.results.server.evidence.map((e) => e.kind))
      for (const kind of seen) kinds[kind] = (kinds[kind] ?? 0) + 1
      if (seen.size) withEvidence++
    }
    // The untrusting Chromium's handshake was not tested; the trusting one's was (tls, http2).
    expect(want['tls-fingerprint/untested']).toBe(1)
    expect(kinds.tls).toBeGreaterThanOrEqual(3)
    expect(kinds.http2).toBeGreaterThanOrEqual(1)
    const created = await query(prom, 'sum by (tool, verdict) (antibot_tasks_created_total{job="antibot"}) > 0')
    expect(Object.fromEntries(created.map((s) => [`${s.metric.tool}/${s.metric.verdict}`, Number(s.value[1])]))).toEqual(want)
    expect(await byLabel(prom, 'sum by (kind) (antibot_evidence_total{job="antibot"}) > 0', 'kind')).toEqual(kinds)
    expect(await byLabel(prom, 'sum by (evidence) (antibot_tasks_server_evidence_total{job="antibot"}) > 0', 'evidence')).toEqual({
      ...(withEvidence ? { with: withEvidence } : {}),
      ...(tasks.length - withEvidence ? { without: tasks.length - withEvidence } : {}),
    })

    // Fetches by status, as the client got them; the limits that answered.
    const byStatus: Record<string, number> = {}
    for (const s of statuses) byStatus[String(s)] = (byStatus[String(s)] ?? 0) + 1
    expect(byStatus).toEqual({ '200': 5, '401': 2, '403': 1, '404': 2, '429': 1 })
    expect(await byLabel(prom, 'sum by (status) (antibot_task_fetches_total{job="antibot"}) > 0', 'status')).toEqual(byStatus)
    expect(await byLabel(prom, 'sum by (limit) (antibot_limited_total{job="antibot"}) > 0', 'limit')).toEqual({ task_misses: 1, monthly_quota: 1 })

    // A p99 per route from the latency histogram: the keyed fetch's and the task POST's.
    const p99 = await byLabel(prom, 'histogram_quantile(0.99, sum by (le, route) (rate(antibot_http_request_duration_seconds_bucket{job="antibot"}[5m])))', 'route')
    for (const route of ['/api/antibot/tasks/:task_id', '/api/antibot/tasks', '/tools/:tool']) {
      expect(Number.isFinite(p99[route]), `p99 of ${route} in ${JSON.stringify(p99)}`).toBe(true)
      expect(p99[route]).toBeGreaterThan(0)
    }

    // Routes are templates: the tool pages are one route, the fetches another, whatever the ids.
    const routes = Object.keys(await byLabel(prom, 'count by (route) (antibot_http_requests_total{job="antibot"})', 'route'))
    expect(routes).toContain('/tools/:tool')
    expect(routes).toContain('/api/antibot/tasks/:task_id')
    expect(routes).toContain('/assets/*')
    for (const route of routes) expect(route === 'unmatched' || /^\/[a-z0-9/_.:*-]*$/.test(route), route).toBe(true)

    // Memory, CPU, heap, event-loop lag, the database pool.
    expect(await scalar(prom, 'process_resident_memory_bytes{job="antibot"}')).toBeGreaterThan(10_000_000)
    expect(await scalar(prom, 'process_cpu_seconds_total{job="antibot"}')).toBeGreaterThan(0)
    expect(await scalar(prom, 'nodejs_heap_size_used_bytes{job="antibot"}')).toBeGreaterThan(0)
    expect(await scalar(prom, 'nodejs_eventloop_lag_p99_seconds{job="antibot"}')).toBeGreaterThanOrEqual(0)
    expect(await scalar(prom, 'antibot_db_pool_size{job="antibot"}')).toBe(1)

    // No key, task id, client address or email in any series (label names and values; the
    // `instance` label is Prometheus's own: the scraped target's address).
    const res = await fetch(`${prom.url}/api/v1/series?match[]=${encodeURIComponent('{job=~"antibot.*"}')}`)
    const series = ((await res.json()) as { data: Array<Record<string, string>> }).data
    expect(series.length).toBeGreaterThan(100)
    const secrets = [...keys, ...ids, EMAIL, 'example.test', '127.0.0.1', '::1', TOKEN, server.adminToken]
    for (const labels of series) {
      const { instance: _, ...rest } = labels
      const text = JSON.stringify(rest)
      for (const secret of secrets) expect(text, `${secret} in ${text}`).not.toContain(secret)
    }
  })
})
