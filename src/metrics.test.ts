import { describe, expect, test } from 'bun:test'
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { samples, value } from '../tests/support/exposition'
import { requirePrerequisite } from '../tests/support/prerequisites'
import { LIMITS } from './core/limits'
import { createMetrics, TASK_FETCH_ROUTE } from './metrics'

const PROMTOOL = '/usr/bin/promtool'

describe('createMetrics', () => {
  test('each call has a registry of its own', async () => {
    const a = createMetrics()
    const b = createMetrics()
    a.request('/healthz', 'GET', 200, 0.001)
    expect(value(await a.text(), 'antibot_http_requests_total', { route: '/healthz' })).toBe(1)
    expect(value(await b.text(), 'antibot_http_requests_total', { route: '/healthz' })).toBeUndefined()
  })

  test('requests: counted by route template, method and status, timed by route; an unmatched route and an odd method get fixed words', async () => {
    const m = createMetrics()
    m.request('/tools/:tool', 'GET', 200, 0.003)
    m.request('/tools/:tool', 'GET', 200, 0.2)
    m.request('/tools/:tool', 'GET', 404, 0.001)
    m.request(null, 'GET', 404, 0.001)
    m.request(undefined, 'PROPFIND', 404, 0.001)
    const text = await m.text()
    expect(value(text, 'antibot_http_requests_total', { route: '/tools/:tool', method: 'GET', status: '200' })).toBe(2)
    expect(value(text, 'antibot_http_requests_total', { route: '/tools/:tool', method: 'GET', status: '404' })).toBe(1)
    expect(value(text, 'antibot_http_requests_total', { route: 'unmatched', method: 'GET', status: '404' })).toBe(1)
    expect(value(text, 'antibot_http_requests_total', { route: 'unmatched', method: 'other', status: '404' })).toBe(1)
    expect(value(text, 'antibot_http_request_duration_seconds_count', { route: '/tools/:tool' })).toBe(3)
    expect(value(text, 'antibot_http_request_duration_seconds_bucket', { route: '/tools/:tool', le: '0.005' })).toBe(2)
    expect(value(text, 'antibot_http_request_duration_seconds_bucket', { route: '/tools/:tool', le: '+Inf' })).toBe(3)
    expect(value(text, 'antibot_http_request_duration_seconds_sum', { route: '/tools/:tool' })).toBeCloseTo(0.204, 6)
  })


  test('counts kept between scrapes are added once: each scrape shows every request so far, a scrape alone adds nothing', async () => {
    const m = createMetrics()
    const stages = (text: string) => [value(text, 'antibot_submission_stage_runs_total', { stage: 'read' }), value(text, 'antibot_submission_stage_seconds_total', { stage: 'read' })]
    m.request('/healthz', 'GET', 200, 0.001)
    m.submissionTimed([['read', 0.25]])
    const first = await m.text()
    expect(value(first, 'antibot_http_requests_total', { route: '/healthz', method: 'GET', status: '200' })).toBe(1)
    expect(stages(first)).toEqual([1, 0.25])
    const again = await m.text()
    expect(value(again, 'antibot_http_requests_total', { route: '/healthz', method: 'GET', status: '200' })).toBe(1)
    expect(stages(again)).toEqual([1, 0.25])
    m.request('/healthz', 'GET', 200, 0.001)
    m.request('/healthz', 'GET', 200, 0.001)
    m.submissionTimed([['read', 0.5]])
    m.limited('monthly_quota')
    const later = await m.text()
    expect(value(later, 'antibot_http_requests_total', { route: '/healthz', method: 'GET', status: '200' })).toBe(3)
    expect(stages(later)).toEqual([2, 0.75])
    expect(value(later, 'antibot_limited_total', { limit: 'monthly_quota' })).toBe(1)
  })
  test('keyed fetches are counted by status too; the statuses a client meets start at 0', async () => {
    const m = createMetrics()
    const before = await m.text()
    for (const status of ['200', '401', '403', '404', '429']) expect(value(before, 'antibot_task_fetches_total', { status })).toBe(0)
    m.request(TASK_FETCH_ROUTE, 'GET', 200, 0.002)
    m.request(TASK_FETCH_ROUTE, 'GET', 200, 0.002)
    m.request(TASK_FETCH_ROUTE, 'GET', 503, 0.002)
    m.request('/api/antibot/tasks', 'POST', 201, 0.002)
    const text = await m.text()
    expect(value(text, 'antibot_task_fetches_total', { status: '200' })).toBe(2)
    expect(value(text, 'antibot_task_fetches_total', { status: '503' })).toBe(1)
    expect(value(text, 'antibot_task_fetches_total', { status: '201' })).toBeUndefined()
  })

  test('tasks: by tool and headline; evidence by kind once per task, and tasks with and without any', async () => {
    const m = createMetrics()
    m.taskCreated('bot-detector', { tested: true, verdict: 'human' }, 100, [{ kind: 'tls' }, { kind: 'http2' }, { kind: 'tls' }])
    m.taskCreated('tls-fingerprint', { tested: false }, 70, [])
    m.taskCreated('dns-leak', { tested: true }, 55, [{ kind: 'dns' }, { kind: 'dns' }, { kind: 'made-up' }])
    m.taskCreated('ip-leak', {}, 100, undefined)
    const text = await m.text()
    expect(value(text, 'antibot_tasks_created_total', { tool: 'bot-detector', verdict: 'human' })).toBe(1)
    expect(value(text, 'antibot_tasks_created_total', { tool: 'bot-detector', verdict: 'bot' })).toBe(0)
    expect(value(text, 'antibot_tasks_created_total', { tool: 'tls-fingerprint', verdict: 'untested' })).toBe(1)
    expect(value(text, 'antibot_tasks_created_total', { tool: 'dns-leak', verdict: 'suspicious' })).toBe(1)
    expect(value(text, 'antibot_tasks_created_total', { tool: 'ip-leak', verdict: 'ordinary' })).toBe(1)
    expect(value(text, 'antibot_evidence_total', { kind: 'tls' })).toBe(1)
    expect(value(text, 'antibot_evidence_total', { kind: 'http2' })).toBe(1)
    expect(value(text, 'antibot_evidence_total', { kind: 'dns' })).toBe(1)
    expect(value(text, 'antibot_evidence_total', { kind: 'stun' })).toBe(0)
    expect(value(text, 'antibot_evidence_total', { kind: 'made-up' })).toBeUndefined()
    expect(value(text, 'antibot_tasks_server_evidence_total', { evidence: 'with' })).toBe(2)
    expect(value(text, 'antibot_tasks_server_evidence_total', { evidence: 'without' })).toBe(2)
  })

  test('limits: every one is listed from the start, and counted per refusal; a name not listed is counted as other', async () => {
    const m = createMetrics()
    m.limited('task_misses')
    m.limited('task_misses')
    m.limited('h2_resets')
    m.limited('user@example.test')
    const text = await m.text()
    for (const limit of LIMITS) expect(value(text, 'antibot_limited_total', { limit })).toBe(limit === 'task_misses' ? 2 : limit === 'h2_resets' ? 1 : 0)
    expect(value(text, 'antibot_limited_total', { limit: 'other' })).toBe(1)
    expect(text).not.toContain('example.test')
  })

  test("the database's pool and failed statements are read from its load at the scrape", async () => {
    const load = { size: 4, inFlight: 0, errors: new Map<string, number>() }
    const m = createMetrics({ db: () => load })
    expect(value(await m.text(), 'antibot_db_pool_in_use')).toBe(0)
    load.inFlight = 6
    load.errors.set('57014', 3)
    const text = await m.text()
    expect(value(text, 'antibot_db_pool_size')).toBe(4)
    expect(value(text, 'antibot_db_pool_in_use')).toBe(4)
    expect(value(text, 'antibot_db_pool_waiting')).toBe(2)
    expect(value(text, 'antibot_db_statement_errors_total', { code: '57014' })).toBe(3)
    load.errors.set('57014', 5)
    expect(value(await m.text(), 'antibot_db_statement_errors_total', { code: '57014' })).toBe(5)
  })

  test("the process's memory, CPU, heap and event-loop lag are exported; what Bun cannot fill is left out", async () => {
    const all = samples(await createMetrics().text())
    const names = new Set(all.map((s) => s.name))
    for (const name of ['process_resident_memory_bytes', 'process_cpu_seconds_total', 'nodejs_heap_size_used_bytes', 'nodejs_heap_size_total_bytes', 'nodejs_eventloop_lag_seconds', 'nodejs_eventloop_lag_p99_seconds']) {
      expect(names.has(name), name).toBe(true)
    }
    expect(value(all, 'process_resident_memory_bytes')).toBeGreaterThan(0)
    expect(value(all, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0)
    for (const name of names) expect(name).not.toMatch(/^nodejs_(active_|heap_space_|gc_)|^process_heap_bytes$/)
  })

  test('the exposition passes promtool check metrics (names, types, help, no lint problems)', async () => {
    requirePrerequisite(!existsSync(PROMTOOL) && `${PROMTOOL} (Debian's prometheus; tests/gate.sh installs it)`)
    const m = createMetrics({ db: () => ({ size: 1, inFlight: 0, errors: new Map([['22012', 1]]) }) })
    m.request('/api/antibot/tasks', 'POST', 201, 0.004)
    m.request(TASK_FETCH_ROUTE, 'GET', 200, 0.002)
    m.taskCreated('bot-detector', { verdict: 'bot' }, 10, [{ kind: 'stun' }])
    m.limited('login')
    const r = spawnSync(PROMTOOL, ['check', 'metrics'], { input: await m.text(), encoding: 'utf8' })
    expect({ status: r.status, out: `${r.stdout}${r.stderr}` }).toEqual({ status: 0, out: '' })
  })
})
