import { describe, expect, test } from 'bun:test'
import { EXIT, exitForStatus, parseScanArgs } from './scan-args'

const RUN = '0b6f3c2e-8f4a-4d2b-9c1e-5a7d9e0f1b2c'
const BASE = '9d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6'

describe('parseScanArgs', () => {
  test('takes the tool and defaults to a 30000 ms wait on the local service', () => {
    const r = parseScanArgs(['bot-detector'], {})
    expect(r).toEqual({ ok: true, options: { mode: 'tool', tool: 'bot-detector', baseUrl: 'http://127.0.0.1:3000', key: undefined, timeoutMs: 30000, headed: false } })
  })
  test('reads options, and the key and URL from the environment when not given', () => {
    const r = parseScanArgs(['ip-leak', '--timeout', '5000', '--headed'], { ANTIBOT_API_KEY: 'ab_x', ANTIBOT_URL: 'http://h:1/' })
    expect(r.ok && r.options).toEqual({ mode: 'tool', tool: 'ip-leak', baseUrl: 'http://h:1', key: 'ab_x', timeoutMs: 5000, headed: true })
  })
  test('an explicit --key wins over the environment', () => {
    const r = parseScanArgs(['ip-leak', '--key', 'ab_y'], { ANTIBOT_API_KEY: 'ab_x' })
    expect(r.ok && r.options.key).toBe('ab_y')
  })
  test('refuses an unknown tool, a missing tool, a bad timeout, a bad URL and unknown options', () => {
    expect(parseScanArgs(['nope'], {})).toEqual({ ok: false, error: "unknown tool 'nope'" })
    expect(parseScanArgs([], {}).ok).toBe(false)
    expect(parseScanArgs(['ip-leak', '--timeout', '-1'], {}).ok).toBe(false)
    expect(parseScanArgs(['ip-leak', '--timeout'], {})).toEqual({ ok: false, error: '--timeout needs a value' })
    expect(parseScanArgs(['ip-leak', '--base-url', 'ftp://x'], {}).ok).toBe(false)
    expect(parseScanArgs(['ip-leak', '--frobnicate'], {})).toEqual({ ok: false, error: 'unknown option --frobnicate' })
  })
  test('refuses the run options with a tool', () => {
    expect(parseScanArgs(['ip-leak', '--expect', 'human', '--json'], {})).toEqual({ ok: false, error: "--expect, --json: only with 'run' or --run RUN_ID, which judge a run" })
  })
})

describe('parseScanArgs: run modes', () => {
  test('`run` opens /run and waits 60000 ms by default; the key may be left out (only the run id is printed then)', () => {
    expect(parseScanArgs(['run'], {})).toEqual({
      ok: true,
      options: { mode: 'run', runId: null, expect: null, baseline: null, json: false, baseUrl: 'http://127.0.0.1:3000', key: undefined, timeoutMs: 60000, headed: false },
    })
  })
  test('`run` with every option', () => {
    const r = parseScanArgs(['run', '--key', 'ab_k', '--expect', 'bot', '--baseline', BASE, '--json', '--timeout', '90000', '--headed', '--base-url', 'https://a.example/'], {})
    expect(r.ok && r.options).toEqual({ mode: 'run', runId: null, expect: 'bot', baseline: BASE, json: true, baseUrl: 'https://a.example', key: 'ab_k', timeoutMs: 90000, headed: true })
  })
  test('--run judges a stored run: a UUID and a key, no browser options', () => {
    const r = parseScanArgs(['--run', RUN, '--expect', 'human'], { ANTIBOT_API_KEY: 'ab_k' })
    expect(r.ok && r.options).toMatchObject({ mode: 'run', runId: RUN, expect: 'human', baseline: null, json: false, key: 'ab_k' })
    expect(parseScanArgs(['--run', RUN], {})).toEqual({ ok: false, error: '--run needs an API key (--key or ANTIBOT_API_KEY) to read the run' })
    expect(parseScanArgs(['--run', 'abc', '--key', 'k'], {})).toEqual({ ok: false, error: "--run must be a run id (a UUID, as <body data-run> gives it), got 'abc'" })
    expect(parseScanArgs(['--run'], {})).toEqual({ ok: false, error: '--run needs a value' })
    expect(parseScanArgs(['--run', RUN, '--key', 'k', '--headed'], {}).ok).toBe(false)
    expect(parseScanArgs(['--run', RUN, '--key', 'k', '--timeout', '5'], {}).ok).toBe(false)
    expect(parseScanArgs(['run', '--run', RUN, '--key', 'k'], {}).ok).toBe(false)
    expect(parseScanArgs(['ip-leak', '--run', RUN, '--key', 'k'], {}).ok).toBe(false)
  })
  test('refuses an expectation other than human or bot, a baseline that is not an id, and judging without a key', () => {
    expect(parseScanArgs(['run', '--key', 'k', '--expect', 'suspicious'], {})).toEqual({ ok: false, error: "--expect must be human, bot or signed-agent, got 'suspicious'" })
    expect(parseScanArgs(['run', '--key', 'k', '--baseline', 'last'], {})).toEqual({ ok: false, error: "--baseline must be a run id or a task id (a UUID), got 'last'" })
    expect(parseScanArgs(['run', '--expect', 'human'], {}).ok).toBe(false)
    expect(parseScanArgs(['run', '--baseline', BASE], {}).ok).toBe(false)
  })
})

describe('exitForStatus', () => {
  test('maps 200, 401, 403, 404 and anything else to distinct exit codes', () => {
    expect([200, 401, 403, 404, 500].map(exitForStatus)).toEqual([EXIT.ok, EXIT.unauthorized, EXIT.forbidden, EXIT.notFound, EXIT.failure])
  })
  test('the exit codes are distinct, and the tool mode keeps 0 to 6', () => {
    expect(Object.values(EXIT)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
    expect([EXIT.expectation, EXIT.regression, EXIT.incomplete]).toEqual([7, 8, 9])
  })
})
