// The run modes of `npm run scan` as a CI job runs them (`--run <id>`: no browser), against a
// stand-in for the service's run and compare endpoints that serves fixture tasks and answers
// comparisons with compareRuns: what is printed and which exit code comes out.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { fileURLToPath } from 'node:url'
import type { ToolId } from '../../common/tools'
import { compareRuns } from '../core/compare'
import { assembleResults } from '../core/tools/assemble'
import type { ServerObservation } from '../core/tools/observation'
import { chromeServer, humanChrome, playwrightHeadless } from '../core/tools/bot-detector.fixture'
import type { RunBody, RunTask } from './scan-run'

const KEY = 'ab_ci_key'
const HUMAN = '11111111-1111-4111-8111-111111111111'
const HUMAN_AGAIN = '22222222-2222-4222-8222-222222222222'
const HEADLESS = '33333333-3333-4333-8333-333333333333'
const PARTIAL = '44444444-4444-4444-8444-444444444444'
const NOWHERE = '55555555-5555-4555-8555-555555555555'

let serial = 0
function task(tool: ToolId, signals: unknown, server: ServerObservation): RunTask {
  const stored = assembleResults(tool, { signals }, server)
  if (!stored.ok) throw new Error(stored.error)
  return { task_id: `00000000-0000-4000-8000-${String(++serial).padStart(12, '0')}`, tool, score: stored.score, ip_address: server.ip, user_agent: server.userAgent, results: stored.results, created_at: '2026-12-01T10:00:00+00:00' }
}
const run = (id: string, tasks: RunTask[], complete = true): RunBody => ({ run_id: id, created_at: '2026-12-01T10:00:00+00:00', complete, tools: ['bot-detector'], tasks })
const headless = playwrightHeadless()
const RUNS = new Map<string, RunBody>([
  [HUMAN, run(HUMAN, [task('bot-detector', humanChrome(), chromeServer())])],
  [HUMAN_AGAIN, run(HUMAN_AGAIN, [task('bot-detector', humanChrome(), chromeServer())])],
  [HEADLESS, run(HEADLESS, [task('bot-detector', headless.signals, headless.server)])],
  [PARTIAL, { ...run(PARTIAL, [], false), tools: ['bot-detector'] }],
])

const json = (status: number, body: unknown) => Response.json(body, { status })
let server: ReturnType<typeof Bun.serve>

beforeAll(() => {
  server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch(req) {
      const url = new URL(req.url)
      if (req.headers.get('authorization') !== `Bearer ${KEY}`) return json(401, { error: 'Valid API key required.' })
      const runPath = /^\/api\/antibot\/runs\/([^/]+)$/.exec(url.pathname)
      if (runPath) {
        const r = RUNS.get(runPath[1]!)
        return r ? json(200, r) : json(404, { error: 'Task not found.' })
      }
      if (url.pathname === '/api/antibot/compare') {
        const base = RUNS.get(url.searchParams.get('base') ?? '')
        const head = RUNS.get(url.searchParams.get('head') ?? '')
        if (!base || !head) return json(404, { error: 'Task not found.' })
        return json(200, compareRuns({ id: base.run_id, kind: 'run', tasks: base.tasks }, { id: head.run_id, kind: 'run', tasks: head.tasks }))
      }
      return json(404, { error: 'Not found.' })
    },
  })
})
afterAll(() => server.stop(true))

const SCAN = fileURLToPath(new URL('./scan.ts', import.meta.url))

async function scan(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const child = Bun.spawn([process.execPath, SCAN, '--base-url', `http://127.0.0.1:${server.port}`, ...args], { stdout: 'pipe', stderr: 'pipe', env: { PATH: process.env.PATH ?? '' } })
  const [out, err, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited])
  return { code, out, err }
}

describe('npm run scan -- --run <id>', () => {
  test('a human run expected human, against a human baseline: a table, exit 0', async () => {
    const r = await scan('--run', HUMAN, '--key', KEY, '--expect', 'human', '--baseline', HUMAN_AGAIN)
    expect(r.err).toBe('')
    expect(r.out).toContain(`Run ${HUMAN}`)
    expect(r.out).toMatch(/\nbot-detector +\d+ +human +0 +0 +0 +-\n/)
    expect(r.out).toContain('Result: ok')
    expect(r.code).toBe(0)
  })

  test('a headless run expected human: exit 7; against the human baseline it is also a regression, and --json lists both', async () => {
    expect((await scan('--run', HEADLESS, '--key', KEY, '--expect', 'human')).code).toBe(7)
    expect((await scan('--run', HEADLESS, '--key', KEY, '--baseline', HUMAN)).code).toBe(8)
    const r = await scan('--run', HEADLESS, '--key', KEY, '--expect', 'human', '--baseline', HUMAN, '--json')
    expect(r.code).toBe(7)
    const report = JSON.parse(r.out)
    expect(report).toMatchObject({ ok: false, exit_code: 7, problems: ['expectation', 'regression'], expectation: { expected: 'human', verdict: 'bot', met: false }, run: { run_id: HEADLESS } })
    expect(report.comparison.new_failures).toBeGreaterThan(0)
    // Expected to be a bot, and it is.
    expect((await scan('--run', HEADLESS, '--key', KEY, '--expect', 'bot')).code).toBe(0)
  })

  test('an incomplete run: exit 9', async () => {
    const r = await scan('--run', PARTIAL, '--key', KEY, '--expect', 'human')
    expect(r.out).toContain('NOT complete')
    expect(r.code).toBe(9)
  })

  test("the API's refusals keep the tool mode's codes: 401 is 4, an unknown run or baseline 6", async () => {
    const bad = await scan('--run', HUMAN, '--key', 'ab_wrong')
    expect(bad.code).toBe(4)
    expect(bad.err).toContain(`GET /api/antibot/runs/${HUMAN} answered 401: Valid API key required.`)
    expect((await scan('--run', NOWHERE, '--key', KEY)).code).toBe(6)
    const base = await scan('--run', HUMAN, '--key', KEY, '--baseline', NOWHERE)
    expect(base.code).toBe(6)
    expect(base.err).toContain(`GET /api/antibot/compare?base=${NOWHERE}&head=${HUMAN} answered 404: Task not found.`)
  })

  test('usage errors are 2', async () => {
    expect((await scan('--run', HUMAN)).code).toBe(2)
  })
})
