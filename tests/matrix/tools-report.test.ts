import { expect, test } from 'bun:test'
import { caughtBy, columnProblems, personProblem, toolsTable, type Cell, type Column } from './tools-report'

const cell = (tool: string, score: number | null, o: Partial<Cell> = {}): Cell => ({ tool, score, failed: [], warned: [], error: null, ...o })

test('a person fails on a failed check, a score under 80 or a missing task; warnings alone are fine', () => {
  expect(personProblem(cell('canvas-fingerprint', 95, { warned: ['canvas-noise'] }))).toBeNull()
  expect(personProblem(cell('canvas-fingerprint', 90, { failed: ['worker-canvas'] }))).toBe('failed worker-canvas')
  expect(personProblem(cell('screen-display', 79))).toBe('score 79 < 80')
  expect(personProblem(cell('dns-leak', null, { error: 'timeout' }))).toBe('no result: timeout')
})

test("a person's bot-detector task must also be human with a score of at least 90, as in the detection matrix", () => {
  expect(personProblem(cell('bot-detector', 92, { verdict: 'human', warned: ['webgl-renderer'] }))).toBeNull()
  expect(personProblem(cell('bot-detector', 85, { verdict: 'human' }))).toBe('score 85 < 90')
  expect(personProblem(cell('bot-detector', 95, { verdict: 'suspicious' }))).toBe('verdict suspicious, expected human')
  expect(personProblem(cell('bot-detector', 95))).toBe('verdict none, expected human')
  // Other tools have no verdict: the score rule alone.
  expect(personProblem(cell('screen-display', 85))).toBeNull()
})

test('a spoofer must be scored under 80 by at least five tools', () => {
  const spoofer = (scores: number[]): Column => ({ id: 'fi-windows', name: 'x', kind: 'spoofer', cells: scores.map((s, i) => cell(`t${i}`, s)) })
  expect(caughtBy(spoofer([79, 80, 10, 50, 60, 100]))).toEqual(['t0', 't2', 't3', 't4'])
  expect(columnProblems(spoofer([79, 80, 10, 50, 60, 100]))).toEqual(['fi-windows: caught by 4 tools (t0, t2, t3, t4), expected at least 5'])
  expect(columnProblems(spoofer([79, 70, 10, 50, 60, 100]))).toEqual([])
})

test('the table has one row per tool, marks problems and catches, and ends with the result per visitor', () => {
  const cols: Column[] = [
    { id: 'person', name: 'p', kind: 'person', cells: [cell('a', 100), cell('b', 70, { failed: ['x'], warned: ['y'] })] },
    { id: 'spoof', name: 's', kind: 'spoofer', cells: [cell('a', 40, { failed: ['z'] }), cell('b', 90)] },
  ]
  const lines = toolsTable(['a', 'b'], cols).split('\n')
  expect(lines).toHaveLength(5)
  expect(lines[2]).toBe('| a | **100** | **40** ⚑<br>fail: z |')
  expect(lines[3]).toBe('| b | **70** ✗<br>fail: x<br>warn: y | **90** |')
  expect(lines[4]).toBe('| **result** | 1 problem(s) | caught by 1 |')
})

test('a person behind an inspecting proxy fails where a tool named in mustFind does not warn its check', () => {
  const col: Column = { id: 'person-proxy@https', name: 'p', kind: 'person', mustFind: { 'tls-fingerprint': ['tls-interception'] }, cells: [cell('tls-fingerprint', 96, { warned: ['tls-interception'] }), cell('tls-fingerprint', 100, { how: 'run' }), cell('ip-leak', 100)] }
  expect(columnProblems(col)).toEqual(['person-proxy@https on tls-fingerprint (in /run): no tls-interception warning'])
})
