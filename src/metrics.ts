// The service's Prometheus metrics (issue 37), on prom-client: one registry per createMetrics()
// (src/main.ts makes the service's when METRICS_TOKEN is set; tests make their own), served as
// text by GET /metrics (src/http/metrics.ts). docs/operations.md says what each series means.
//
// Every label has a bounded set of values, and none carries an id, key, address or email: a
// route is its template ('/api/antibot/tasks/:task_id'; 'unmatched' where no route matched),
// a method one of the standard ones (else 'other'), a status the response's code, a tool one
// of the 14 ids, a verdict a word of src/core/task-verdict.ts, an evidence kind one of
// src/evidence/caps.ts, a limit a name of src/core/limits.ts (else 'other'), a database error a code.
//
// The hot path (one call per request) does no formatting: the series of a route, method and
// status is looked up in nested maps and kept, and the database's and the process's figures are
// read only when scraped. A counter's series is a tally (a number the request adds to), which a
// scrape adds to prom-client's series: prom-client's inc hashes the labels on every call, and a
// stored submission makes some twenty (docs/performance.md, issue 61).

import { collectDefaultMetrics, Counter, type CounterConfiguration, Gauge, Histogram, Registry } from 'prom-client'
import { TOOL_IDS, type ToolId } from '../common/tools'
import type { DbLoad } from '../db/client'
import { LIMITS, type OnLimited } from './core/limits'
import { taskVerdict, taskVerdicts } from './core/task-verdict'
import { EVIDENCE_KINDS } from './evidence/caps'
import { SUBMISSION_STAGES, type StageClock, type SubmissionStage } from './core/stage-clock'

export interface Metrics {
  /**
   * One HTTP request as it ended. `route`: the matched route's template (null or undefined when
   * none matched); `seconds`: from its arrival to its response.
   */
  request(route: string | null | undefined, method: string, status: number, seconds: number): void
  /** A task stored by POST /api/antibot/tasks: its tool, results and score, and the evidence it was judged with. */
  taskCreated(tool: ToolId, results: Readonly<Record<string, unknown>>, score: number, evidence: ReadonlyArray<{ kind: string }> | undefined): void
  /**
   * A report judged by POST /tools/:tool/report (issue 57): `charge` says whether it was its
   * page's own (free), charged to the client network's task budget, or unmetered (no TASK_RATE_LIMIT).
   */
  reportJudged(tool: ToolId, charge: 'own' | 'charged' | 'unmetered'): void
  /** A stored submission's stages and their seconds (src/core/stage-clock.ts). */
  submissionTimed(laps: StageClock['laps']): void
  /** A limit refused something (src/core/limits.ts). */
  limited: OnLimited
  /** The exposition text. */
  text(): Promise<string>
  /** Its Content-Type (text format 0.0.4). */
  readonly contentType: string
}

/** The keyed fetch's route: its requests are also counted by status in antibot_task_fetches_total. */
export const TASK_FETCH_ROUTE = '/api/antibot/tasks/:task_id'

/** Request durations, seconds: the service answers in milliseconds; the top buckets catch stalls. */
export const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'])
/** Statuses every fetch series starts with (at 0), so that rate() sees the first one. */
const FETCH_STATUSES = [200, 401, 403, 404, 429]

/**
 * prom-client's default metrics that are left out: nodejs_active_* do not pass `promtool check
 * metrics` (gauges named _total) and count Node's libuv handles, which Bun does not have; Bun
 * reports no heap spaces (all 0) and no GC performance entries (the histogram would stay
 * empty); process_heap_bytes is VmData, which on Bun is gigabytes of reserved address space,
 * not the heap (nodejs_heap_size_used_bytes is JavaScriptCore's heap).
 */
const LEFT_OUT = [
  'nodejs_active_handles',
  'nodejs_active_handles_total',
  'nodejs_active_requests',
  'nodejs_active_requests_total',
  'nodejs_active_resources',
  'nodejs_active_resources_total',
  'nodejs_heap_space_size_total_bytes',
  'nodejs_heap_space_size_used_bytes',
  'nodejs_heap_space_size_available_bytes',
  'nodejs_gc_duration_seconds',
  'process_heap_bytes',
]

type HistogramChild = ReturnType<Histogram<string>['labels']>

/** One series of a tallied counter: what requests added since the last scrape. */
interface Tally {
  n: number
}

/**
 * A counter whose series are tallies: `series(...labels)` makes one (shown at 0 from then on),
 * and each scrape adds what the tallies hold to prom-client's series and sets them back to 0.
 */
function talliedCounter(config: Omit<CounterConfiguration<string>, 'collect'>): (...labels: string[]) => Tally {
  const tallies: Array<{ tally: Tally; inc: (n: number) => void }> = []
  const counter = new Counter({
    ...config,
    collect() {
      for (const { tally, inc } of tallies) {
        if (tally.n === 0) continue
        inc(tally.n)
        tally.n = 0
      }
    },
  })
  return (...labels) => {
    const child = counter.labels(...labels)
    child.inc(0)
    const tally = { n: 0 }
    tallies.push({ tally, inc: (n) => child.inc(n) })
    return tally
  }
}

/** A bounded set of series made when first used, looked up by one key. */
function seriesBy<K, T>(make: (key: K) => T): (key: K) => T {
  const made = new Map<K, T>()
  return (key) => {
    let s = made.get(key)
    if (s === undefined) {
      s = make(key)
      made.set(key, s)
    }
    return s
  }
}

interface RouteSeries {
  duration: HistogramChild
  /** method → status → the request counter's tally. */
  counts: Map<string, Map<number, Tally>>
}

export function createMetrics(opts: { db?: () => DbLoad } = {}): Metrics {
  const registry = new Registry()
  const registers = [registry]
  collectDefaultMetrics({ register: registry })
  for (const name of LEFT_OUT) registry.removeSingleMetric(name)

  const requests = talliedCounter({ name: 'antibot_http_requests_total', help: 'HTTP requests answered, by route template, method and status.', labelNames: ['route', 'method', 'status'], registers })
  const durations = new Histogram({
    name: 'antibot_http_request_duration_seconds',
    help: 'Time from a request’s arrival to its response, by route template.',
    labelNames: ['route'],
    buckets: DURATION_BUCKETS,
    registers,
  })
  const created = talliedCounter({ name: 'antibot_tasks_created_total', help: 'Tasks stored, by tool and the headline of their report (src/core/task-verdict.ts).', labelNames: ['tool', 'verdict'], registers })
  const fetches = talliedCounter({ name: 'antibot_task_fetches_total', help: 'Keyed fetches of a task (GET /api/antibot/tasks/{id}), by status.', labelNames: ['status'], registers })
  const evidence = talliedCounter({ name: 'antibot_evidence_total', help: 'Tasks stored with server evidence of this kind (the listeners’, or a trusted proxy’s headers).', labelNames: ['kind'], registers })
  const judged = talliedCounter({ name: 'antibot_tasks_server_evidence_total', help: 'Tasks stored, by whether they were judged with any server evidence (with) or none (without).', labelNames: ['evidence'], registers })
  const reports = talliedCounter({ name: 'antibot_reports_judged_total', help: 'Reports judged by POST /tools/:tool/report, by tool and charge: own (the page’s one report after storing its task, free), charged (to the network’s task budget), unmetered (no TASK_RATE_LIMIT).', labelNames: ['tool', 'charge'], registers })
  const stageSeconds = talliedCounter({ name: 'antibot_submission_stage_seconds_total', help: 'Seconds spent in each stage of the stored task submissions (POST /api/antibot/tasks; src/core/stage-clock.ts).', labelNames: ['stage'], registers })
  const stageRuns = talliedCounter({ name: 'antibot_submission_stage_runs_total', help: 'Stored task submissions that ran this stage: its average is seconds_total over runs_total.', labelNames: ['stage'], registers })
  const limited = talliedCounter({ name: 'antibot_limited_total', help: 'Refusals by a limit: a 429 (403 for the monthly quota), or a connection closed.', labelNames: ['limit'], registers })

  // The series known in advance start at 0 (a tally's series is shown from when it is made).
  const createdSeries = seriesBy((key: string) => created(...(key.split('\0') as [string, string])))
  for (const tool of TOOL_IDS) for (const verdict of taskVerdicts(tool)) createdSeries(`${tool}\0${verdict}`)
  const fetchByStatus = seriesBy((status: number) => fetches(String(status)))
  for (const status of FETCH_STATUSES) fetchByStatus(status)
  const reportSeries = seriesBy((key: string) => reports(...(key.split('\0') as [string, string])))
  for (const tool of TOOL_IDS) for (const charge of ['own', 'charged', 'unmetered']) reportSeries(`${tool}\0${charge}`)
  const withEvidence = judged('with')
  const withoutEvidence = judged('without')
  const limitTallies = new Map<string, Tally>([...LIMITS, 'other'].map((limit) => [limit, limited(limit)]))
  const otherLimit = limitTallies.get('other')!
  const stageTallies = new Map<SubmissionStage, { seconds: Tally; runs: Tally }>(SUBMISSION_STAGES.map((stage) => [stage, { seconds: stageSeconds(stage), runs: stageRuns(stage) }]))
  const evidenceTallies = EVIDENCE_KINDS.map((kind) => evidence(kind))
  const evidenceIndex = new Map<string, number>(EVIDENCE_KINDS.map((kind, i) => [kind, i]))

  if (opts.db) {
    const db = opts.db
    new Gauge({
      name: 'antibot_db_pool_size',
      help: 'Database connections the pool may open (DB_POOL_SIZE; 1 for the embedded PGlite, one session).',
      registers,
      collect() {
        this.set(db().size)
      },
    })
    new Gauge({
      name: 'antibot_db_pool_in_use',
      help: 'Database connections busy with a statement or a transaction, at the scrape.',
      registers,
      collect() {
        const l = db()
        this.set(Math.min(l.inFlight, l.size))
      },
    })
    new Gauge({
      name: 'antibot_db_pool_waiting',
      help: 'Statements waiting for a connection (beyond the pool’s size), at the scrape.',
      registers,
      collect() {
        const l = db()
        this.set(Math.max(0, l.inFlight - l.size))
      },
    })
    new Counter({
      name: 'antibot_db_statement_errors_total',
      help: 'Database statements that failed, by SQLSTATE or the driver’s connection error code.',
      labelNames: ['code'],
      registers,
      collect() {
        this.reset()
        for (const [code, n] of db().errors) this.labels(code).inc(n)
      },
    })
  }

  const routes = new Map<string, RouteSeries>()
  const routeSeries = (route: string): RouteSeries => {
    let series = routes.get(route)
    if (!series) {
      series = { duration: durations.labels(route), counts: new Map() }
      routes.set(route, series)
    }
    return series
  }

  return {
    request(route, rawMethod, status, seconds) {
      const template = route || 'unmatched'
      const method = METHODS.has(rawMethod) ? rawMethod : 'other'
      const series = routeSeries(template)
      series.duration.observe(seconds)
      let byStatus = series.counts.get(method)
      if (!byStatus) {
        byStatus = new Map()
        series.counts.set(method, byStatus)
      }
      let count = byStatus.get(status)
      if (!count) {
        count = requests(template, method, String(status))
        byStatus.set(status, count)
      }
      count.n++
      if (template === TASK_FETCH_ROUTE && method === 'GET') fetchByStatus(status).n++
    },
    taskCreated(tool, results, score, items) {
      createdSeries(`${tool}\0${taskVerdict(tool, results, score)}`).n++
      // Each kind once per task, however many items it has.
      let seen = 0
      for (const item of items ?? []) {
        const i = evidenceIndex.get(item.kind)
        if (i === undefined || seen & (1 << i)) continue
        seen |= 1 << i
        evidenceTallies[i]!.n++
      }
      ;(seen ? withEvidence : withoutEvidence).n++
    },
    submissionTimed(laps) {
      for (const [stage, seconds] of laps) {
        const c = stageTallies.get(stage)!
        c.seconds.n += seconds
        c.runs.n++
      }
    },
    reportJudged(tool, charge) {
      reportSeries(`${tool}\0${charge}`).n++
    },
    limited(limit) {
      ;(limitTallies.get(limit) ?? otherLimit).n++
    },
    text: () => registry.metrics(),
    contentType: registry.contentType,
  }
}
