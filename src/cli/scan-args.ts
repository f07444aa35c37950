// Argument parsing and exit codes of the sample client (src/cli/scan.ts), kept pure for tests.

import { isToolId, TOOL_IDS, type ToolId } from '../../common/tools'
import { isUuid } from '../core/ids'

interface CommonOptions {
  baseUrl: string
  key: string | undefined
  timeoutMs: number
  headed: boolean
}

/** `scan <tool>`: open one tool page, print its task. */
export interface ToolScanOptions extends CommonOptions {
  mode: 'tool'
  tool: ToolId
}

/** `scan run` (runId null: open /run first) or `scan --run <id>` (a run someone else made). */
export interface RunScanOptions extends CommonOptions {
  mode: 'run'
  runId: string | null
  expect: Expectation | null
  baseline: string | null
  json: boolean
}

export type ScanOptions = ToolScanOptions | RunScanOptions

export const EXPECTATIONS = ['human', 'bot', 'signed-agent'] as const
export type Expectation = (typeof EXPECTATIONS)[number]

/**
 * 0–6 are the tool mode's and keep their meaning. 7–9 are the run modes' verdicts on a run
 * that was read: when several apply, the first of incomplete, expectation, regression
 * (src/cli/scan-run.ts exitFor; docs/ci.md).
 */
export const EXIT = { ok: 0, failure: 1, usage: 2, timeout: 3, unauthorized: 4, forbidden: 5, notFound: 6, expectation: 7, regression: 8, incomplete: 9 } as const

export const TOOL_TIMEOUT_MS = 30_000
export const RUN_TIMEOUT_MS = 60_000

export const USAGE = `Usage: npm run scan -- <tool> [--base-url URL] [--key KEY] [--timeout MS] [--headed]
       npm run scan -- run [--key KEY] [--expect human|bot|signed-agent] [--baseline ID] [--json] [--base-url URL] [--timeout MS] [--headed]
       npm run scan -- --run RUN_ID --key KEY [--expect human|bot|signed-agent] [--baseline ID] [--json] [--base-url URL]

<tool>: opens /tools/<tool> in Chromium, waits for <body data-task> (up to 30000 ms), fetches the
task with the API key and prints it as JSON.
run: opens /run in Chromium, which runs every tool, waits for <body data-run> (up to 60000 ms),
then judges the run as --run does.
--run RUN_ID: judges a run your own automation made, without a browser: fetches
GET /api/antibot/runs/RUN_ID and prints a table of its tools (--json: one JSON object).
  --expect human|bot  exit 7 unless bot-detector's verdict is that word (suspicious meets neither)
  --expect signed-agent  exit 7 unless bot-detector's request carried a verified Web Bot Auth signature
  --baseline ID       compare with an earlier run (or task) id; exit 8 when a check fails now
                      that did not fail then
The run is exit 9 when not every tool's task is stored. docs/ci.md has the exit codes and a CI example.
The key may also come from ANTIBOT_API_KEY, the base URL from ANTIBOT_URL.
Tools: ${TOOL_IDS.join(', ')}`

type Parsed = { ok: true; options: ScanOptions } | { ok: false; error: string }

export function parseScanArgs(argv: readonly string[], env: Record<string, string | undefined>): Parsed {
  let target: string | undefined
  let runId: string | undefined
  let baseUrl = env.ANTIBOT_URL ?? 'http://127.0.0.1:3000'
  let key = env.ANTIBOT_API_KEY
  let timeoutMs: number | undefined
  let headed = false
  let expect: string | undefined
  let baseline: string | undefined
  let json = false
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!
    const value = () => {
      const v = argv[++i]
      if (v === undefined || v.startsWith('--')) throw new Error(`${a} needs a value`)
      return v
    }
    try {
      if (a === '--base-url') baseUrl = value()
      else if (a === '--key') key = value()
      else if (a === '--timeout') {
        const v = value()
        timeoutMs = Number(v)
        if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) return { ok: false, error: `--timeout must be a positive whole number of milliseconds, got '${v}'` }
      } else if (a === '--headed') headed = true
      else if (a === '--run') runId = value()
      else if (a === '--expect') expect = value()
      else if (a === '--baseline') baseline = value()
      else if (a === '--json') json = true
      else if (a === '--help' || a === '-h') return { ok: false, error: '' }
      else if (a.startsWith('--')) return { ok: false, error: `unknown option ${a}` }
      else if (target === undefined) target = a
      else return { ok: false, error: `unexpected argument '${a}'` }
    } catch (e) {
      return { ok: false, error: (e as Error).message }
    }
  }
  try {
    const u = new URL(baseUrl)
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error()
  } catch {
    return { ok: false, error: `--base-url must be an http(s) URL, got '${baseUrl}'` }
  }
  const common = { baseUrl: baseUrl.replace(/\/+$/, ''), key, headed }

  if (target !== 'run' && runId === undefined) {
    const runOnly = [expect !== undefined && '--expect', baseline !== undefined && '--baseline', json && '--json'].filter(Boolean)
    if (runOnly.length) return { ok: false, error: `${runOnly.join(', ')}: only with 'run' or --run RUN_ID, which judge a run` }
    if (!target) return { ok: false, error: "which tool? give one of the tool identifiers, 'run', or --run RUN_ID" }
    if (!isToolId(target)) return { ok: false, error: `unknown tool '${target}'` }
    return { ok: true, options: { mode: 'tool', tool: target, ...common, timeoutMs: timeoutMs ?? TOOL_TIMEOUT_MS } }
  }

  if (runId !== undefined) {
    if (target !== undefined) return { ok: false, error: `--run judges a stored run: give no tool or 'run' with it (got '${target}')` }
    if (!isUuid(runId)) return { ok: false, error: `--run must be a run id (a UUID, as <body data-run> gives it), got '${runId}'` }
    // No browser opens: the options that drive one have nothing to do.
    if (headed) return { ok: false, error: '--headed opens a browser; --run judges a stored run without one' }
    if (timeoutMs !== undefined) return { ok: false, error: '--timeout is the wait for the page; --run judges a stored run without opening one' }
    if (!key) return { ok: false, error: '--run needs an API key (--key or ANTIBOT_API_KEY) to read the run' }
  }
  if (expect !== undefined && !(EXPECTATIONS as readonly string[]).includes(expect)) return { ok: false, error: `--expect must be human, bot or signed-agent, got '${expect}'` }
  if (baseline !== undefined && !isUuid(baseline)) return { ok: false, error: `--baseline must be a run id or a task id (a UUID), got '${baseline}'` }
  if (!key && (expect !== undefined || baseline !== undefined)) return { ok: false, error: '--expect and --baseline read the run with an API key: give --key or set ANTIBOT_API_KEY' }
  return {
    ok: true,
    options: {
      mode: 'run',
      runId: runId ?? null,
      expect: (expect as Expectation | undefined) ?? null,
      baseline: baseline ?? null,
      json,
      ...common,
      timeoutMs: timeoutMs ?? RUN_TIMEOUT_MS,
    },
  }
}

/** The exit code for the API's answer to the fetch. */
export function exitForStatus(status: number): number {
  if (status === 200) return EXIT.ok
  if (status === 401) return EXIT.unauthorized
  if (status === 403) return EXIT.forbidden
  if (status === 404) return EXIT.notFound
  return EXIT.failure
}
