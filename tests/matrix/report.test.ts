import { describe, expect, test } from 'bun:test'
import { markdownTable, rowProblem, type Row } from './report'

const row = (o: Partial<Row>): Row => ({
  client: 'Playwright',
  expected: 'bot',
  verdict: 'bot',
  score: 0,
  frameworks: ['playwright', 'headless'],
  mustName: [],
  taskId: 'a',
  seconds: 1,
  error: null,
  findings: [],
  ...o,
})

describe('rowProblem', () => {
  test('fails a person behind an inspecting proxy whose task does not warn tls-interception', () => {
    const proxied = { expected: 'human' as const, verdict: 'human', score: 96, mustFind: ['tls-interception'] }
    expect(rowProblem(row({ ...proxied, findings: ['tls-interception (warn)'] }))).toBeNull()
    expect(rowProblem(row({ ...proxied, findings: ['tls-fingerprint (warn)'] }))).toBe('no tls-interception finding')
  })
  test('passes a bot judged bot with a score of 40 or less', () => {
    expect(rowProblem(row({ score: 40 }))).toBeNull()
  })
  test('fails a bot judged suspicious or human, or scored above 40', () => {
    expect(rowProblem(row({ verdict: 'suspicious', score: 60 }))).toBe('verdict suspicious, expected bot')
    expect(rowProblem(row({ verdict: 'bot', score: 41 }))).toBe('score 41, expected ≤ 40')
  })
  test('passes a person judged human with 90 or more, fails anything less', () => {
    expect(rowProblem(row({ expected: 'human', verdict: 'human', score: 90 }))).toBeNull()
    expect(rowProblem(row({ expected: 'human', verdict: 'human', score: 89 }))).toBe('score 89, expected ≥ 90')
    expect(rowProblem(row({ expected: 'human', verdict: 'suspicious', score: 95 }))).toBe('verdict suspicious, expected human')
  })
  test('fails a person judged human with 90 or more when any check failed; warnings alone pass', () => {
    const person = { expected: 'human' as const, verdict: 'human', score: 95 }
    expect(rowProblem(row({ ...person, findings: ['default-viewport (warn)'] }))).toBeNull()
    expect(rowProblem(row({ ...person, findings: ['navigation-rate-limit (fail)', 'gpu (warn)', 'cdp-runtime (fail)'] }))).toBe('failed navigation-rate-limit, cdp-runtime')
  })
  test('fails a client that produced no task, and one whose framework was not named', () => {
    expect(rowProblem(row({ verdict: null, score: null, error: 'timed out' }))).toBe('no result: timed out')
    expect(rowProblem(row({ mustName: ['phantomjs'] }))).toBe('frameworks do not name phantomjs')
  })
})

test('markdownTable has one row per client with its failed and warned checks, marks failures and escapes pipes', () => {
  const table = markdownTable([row({ transport: 'https' }), row({ client: 'a | b', transport: 'http', expected: 'human', verdict: 'bot', score: 10, frameworks: [], findings: ['webdriver (fail)', 'gpu (warn)'] })])
  const lines = table.split('\n')
  expect(lines).toHaveLength(4)
  expect(lines[2]).toBe('| Playwright | https | bot | bot | 0 | playwright, headless | — | ✓ |')
  expect(lines[3]).toBe('| a \\| b | http | human | bot | 10 | — | webdriver (fail), gpu (warn) | ✗ verdict bot, expected human |')
})


test('markdownTable marks a row whose input could not be judged on a loaded machine with ?, not ✗', () => {
  const [, , line] = markdownTable([row({ verdict: 'human', score: 100, inconclusive: 'its input could not be judged in 3 attempts on this loaded machine' })]).split('\n')
  expect(line).toEndWith('| ? its input could not be judged in 3 attempts on this loaded machine |')
})
