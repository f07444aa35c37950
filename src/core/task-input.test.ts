import { describe, expect, test } from 'bun:test'
import { validateTaskInput } from './task-input'

// The spec's bot-detector shape: the one results shape a client can send without the tool
// page's signals. What the server derives from it (checks, summary) is tested with the tools;
// here: what is refused, and that the task's score is the stored results.summary.score.
function botResults(score = 90) {
  return {
    summary: { total: 3, passed: 3, failed: 0, warnings: 0, score },
    leaks: { webdriver: false, selenium: false, phantomjs: false },
    navigator: { userAgent: 'UA', platform: 'Linux x86_64', language: 'en-US' },
    screen: { width: 1920, height: 1080, colorDepth: 24 },
    webgl: { vendor: 'V', renderer: 'R' },
    canvas: { hash: 'h' },
    scoring: { webdriver: 'pass', selenium: 'pass', phantomjs: 'pass' },
  }
}

// As POST /api/antibot/tasks words it (src/http/submission.ts).
const errorOf = (body: unknown) => {
  const r = validateTaskInput(body)
  if (r.ok) throw new Error(`expected a rejection of ${JSON.stringify(body)}`)
  return `Cannot create task: ${r.why}`
}

describe('validateTaskInput', () => {
  test('accepts a bot-detector submission of the spec\'s shape; the score is results.summary.score', () => {
    const r = validateTaskInput({ tool: 'bot-detector', results: botResults(73) })
    if (!r.ok) throw new Error(r.why)
    expect(r.value.tool).toBe('bot-detector')
    expect(r.value.results).toMatchObject({ leaks: botResults().leaks, navigator: botResults().navigator, canvas: { hash: 'h' } })
    expect(r.value.score).toBe((r.value.results.summary as { score: number }).score)
    expect(Number.isInteger(r.value.score) && r.value.score >= 0 && r.value.score <= 100).toBe(true)
  })

  test('accepts more keys than the spec shows', () => {
    const results = { ...botResults(), extra: { deep: [1, 2] }, webgl: { vendor: 'V', renderer: 'R', version: 'WebGL 1.0' } }
    expect(validateTaskInput({ tool: 'bot-detector', results }).ok).toBe(true)
  })

  test('accepts the submitted score bounds 0 and 100', () => {
    expect(validateTaskInput({ tool: 'bot-detector', results: botResults(0) }).ok).toBe(true)
    expect(validateTaskInput({ tool: 'bot-detector', results: botResults(100) }).ok).toBe(true)
  })

  test('refuses a top level that is not an object', () => {
    expect(errorOf([])).toBe('Cannot create task: the body must be a JSON object with "tool" and "results", got an array')
    expect(errorOf(3)).toContain('got a number')
    expect(errorOf(null)).toContain('got null')
    expect(errorOf('x')).toContain('got a string')
  })

  test('refuses an unknown top-level field', () => {
    expect(errorOf({ tool: 'bot-detector', results: botResults(), score: 5 })).toBe('Cannot create task: unknown field "score" (allowed: "tool", "results", "nonce")')
  })

  test('refuses a missing, non-string or unknown tool', () => {
    expect(errorOf({ results: botResults() })).toBe('Cannot create task: "tool" is required')
    expect(errorOf({ tool: 7, results: botResults() })).toBe('Cannot create task: "tool" must be a string, got a number')
    expect(errorOf({ tool: null, results: botResults() })).toBe('Cannot create task: "tool" must be a string, got null')
    expect(errorOf({ tool: 'Bot-Detector', results: botResults() })).toBe('Cannot create task: unknown tool "Bot-Detector"')
  })

  test('refuses missing or non-object results', () => {
    expect(errorOf({ tool: 'bot-detector' })).toBe('Cannot create task: "results" is required')
    expect(errorOf({ tool: 'bot-detector', results: [] })).toBe('Cannot create task: "results" must be an object, got an array')
    expect(errorOf({ tool: 'bot-detector', results: null })).toBe('Cannot create task: "results" must be an object, got null')
    expect(errorOf({ tool: 'bot-detector', results: 'x' })).toBe('Cannot create task: "results" must be an object, got a string')
  })

  test('names the path of a wrong-typed or missing bot-detector member', () => {
    const withLeak = { ...botResults(), leaks: { webdriver: 'no', selenium: false, phantomjs: false } }
    expect(errorOf({ tool: 'bot-detector', results: withLeak })).toMatch(/^Cannot create task: results\.leaks\.webdriver: /)
    const { canvas: _canvas, ...noCanvas } = botResults()
    expect(errorOf({ tool: 'bot-detector', results: noCanvas })).toMatch(/^Cannot create task: results\.canvas: /)
    const badScreen = { ...botResults(), screen: { width: 1920.5, height: 1080, colorDepth: 24 } }
    expect(errorOf({ tool: 'bot-detector', results: badScreen })).toMatch(/^Cannot create task: results\.screen\.width: /)
  })

  test('refuses a submitted score out of 0..100 or not an integer', () => {
    for (const score of [101, -1, 2.5]) {
      expect(errorOf({ tool: 'bot-detector', results: botResults(score) })).toMatch(/^Cannot create task: results\.summary\.score: /)
    }
  })

  test('refuses strings PostgreSQL cannot store, and too deep nesting, naming the path', () => {
    expect(errorOf({ tool: 'bot-detector', results: { ...botResults(), note: 'a\u0000' } })).toBe(
      'Cannot create task: results.note: string contains U+0000, which PostgreSQL cannot store',
    )
    let deep: unknown = {}
    for (let i = 0; i < 40; i++) deep = { a: deep }
    expect(errorOf({ tool: 'bot-detector', results: { ...botResults(), deep } })).toContain('nesting is deeper than 32 levels')
  })

  test('checks storability before anything else, so the first problem named is the real one', () => {
    expect(errorOf({ tool: 'nope\u0000', results: botResults() })).toBe('Cannot create task: tool: string contains U+0000, which PostgreSQL cannot store')
  })
})

describe('the page nonce', () => {
  test('is accepted beside tool and results and handed on, never stored inside results', () => {
    const r = validateTaskInput({ tool: 'bot-detector', results: botResults(), nonce: 'abcdefghijklmnopqrstuvwxyz' })
    expect(r.ok && r.value.nonce).toBe('abcdefghijklmnopqrstuvwxyz')
    expect(r.ok && 'nonce' in r.value.results).toBe(false)
  })
  test('must be a string', () => {
    expect(errorOf({ tool: 'bot-detector', results: botResults(), nonce: 5 })).toBe('Cannot create task: "nonce" must be a string, got a number')
  })
  test('a submission is verified only when the server found its nonce valid and judged it itself', () => {
    const base = { ip: '203.0.113.9', userAgent: 'x', headers: [], receivedAt: 0 }
    const nonce = 'abcdefghijklmnopqrstuvwxyz'
    const unverified = validateTaskInput({ tool: 'http-headers', results: {} }, base)
    const verified = validateTaskInput({ tool: 'http-headers', results: {}, nonce }, { ...base, nonce: 'valid' })
    expect(unverified.ok && unverified.value.results.verified).toBe(false)
    expect(unverified.ok && unverified.value.results.unverified).toMatchObject({ code: 'nonce-missing' })
    expect(verified.ok && verified.value.results.verified).toBe(true)
    expect(verified.ok && 'unverified' in verified.value.results).toBe(false)
    // The spec's body is scored from its own entries: its live nonce does not make it the service's.
    const spec = validateTaskInput({ tool: 'bot-detector', results: botResults(), nonce }, { ...base, nonce: 'valid' })
    expect(spec.ok && spec.value.results.verified).toBe(false)
    expect(spec.ok && spec.value.results.unverified).toMatchObject({ code: 'client-scored' })
  })
})
