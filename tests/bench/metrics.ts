// What the metrics cost (issue 37), measured without the noise of a whole server: the CPU time
// of the calls a request makes (src/metrics.ts `request`, and `taskCreated` for a stored task),
// and of a scrape (GET /metrics renders the whole registry), on the service's own registry
// after a realistic spread of series. `bun tests/bench/metrics.ts [--calls 2000000]`.
// The whole-server figures are the HTTP benchmark's (--metrics 1 / --metrics 0, docs/performance.md).

import { cpuUsage } from 'node:process'
import { TOOL_IDS } from '../../common/tools'
import { createMetrics } from '../../src/metrics'

const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? Number(process.argv[i + 1]) : dflt
}
const CALLS = arg('calls', 2_000_000)

/** CPU nanoseconds (user + system) per call of `f`, over `n` calls. */
function cpuNs(n: number, f: (i: number) => void): number {
  const t0 = cpuUsage()
  for (let i = 0; i < n; i++) f(i)
  const t = cpuUsage(t0)
  return ((t.user + t.system) * 1000) / n
}

const m = createMetrics({ db: () => ({ size: 10, inFlight: 3, errors: new Map([['57014', 2]]) }) })
// The series a running instance has: every route the app serves, a few statuses each.
const routes = ['/', '/tools/:tool', '/assets/*', '/api/antibot/tasks', '/api/antibot/tasks/:task_id', '/healthz', '/docs', '/openapi.json', '/dashboard', '/login', '/signup', '/metrics', 'unmatched']
for (const r of routes) for (const s of [200, 304, 401, 403, 404, 429, 503]) m.request(r, 'GET', s, 0.002)
const items = [{ kind: 'tls' }, { kind: 'http2' }, { kind: 'rtt-not-a-kind' }]

for (let round = 1; round <= 3; round++) {
  const get = cpuNs(CALLS, (i) => m.request('/api/antibot/tasks/:task_id', 'GET', i & 7 ? 200 : 404, 0.0005 + (i & 15) * 0.0004))
  const post = cpuNs(CALLS, () => m.request('/api/antibot/tasks', 'POST', 201, 0.003))
  const task = cpuNs(CALLS / 4, (i) => m.taskCreated(TOOL_IDS[i % TOOL_IDS.length]!, { tested: true, verdict: 'human' }, 90, items))
  console.log(`round ${round}: request() ${get.toFixed(0)} ns (keyed GET), ${post.toFixed(0)} ns (POST); taskCreated() ${task.toFixed(0)} ns`)
}
const scrapes: number[] = []
let bytes = 0
for (let i = 0; i < 50; i++) {
  const t0 = cpuUsage()
  bytes = (await m.text()).length
  const t = cpuUsage(t0)
  scrapes.push((t.user + t.system) / 1000)
}
scrapes.sort((a, b) => a - b)
console.log(`a scrape: ${scrapes[25]!.toFixed(2)} ms CPU (median of 50), ${bytes.toLocaleString('en')} bytes of text`)
