import { describe, expect, test } from 'bun:test'
import { EXIT, exitForStatus, parseScanArgs } from './scan-args'

describe('parseScanArgs', () => {
  test('takes the tool and defaults to a 30000 ms wait on the local service', () => {
    const r = parseScanArgs(['bot-detector'], {})
    expect(r).toEqual({ ok: true, options: { tool: 'bot-detector', baseUrl: 'http://127.0.0.1:3000', key: undefined, timeoutMs: 30000, headed: false } })
  })
  test('reads options, and the key and URL from the environment when not given', () => {
    const r = parseScanArgs(['ip-leak', '--timeout', '5000', '--headed'], { ANTIBOT_API_KEY: 'ab_x', ANTIBOT_URL: 'http://h:1/' })
    expect(r.ok && r.options).toEqual({ tool: 'ip-leak', baseUrl: 'http://h:1', key: 'ab_x', timeoutMs: 5000, headed: true })
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
})

describe('exitForStatus', () => {
  test('maps 200, 401, 403, 404 and anything else to distinct exit codes', () => {
    expect([200, 401, 403, 404, 500].map(exitForStatus)).toEqual([EXIT.ok, EXIT.unauthorized, EXIT.forbidden, EXIT.notFound, EXIT.failure])
  })
})
