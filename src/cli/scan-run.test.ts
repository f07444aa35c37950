import { describe, expect, test } from 'bun:test'
import type { ToolId } from '../../common/tools'
import { compareRuns } from '../core/compare'
import { assembleResults } from '../core/tools/assemble'
import type { ServerObservation } from '../core/tools/observation'
import { chromeServer, humanChrome, playwrightHeadless } from '../core/tools/bot-detector.fixture'
import { CHROMIUM_PERSON, CHROMIUM_UA, FIREFOX_RFP, server as canvasServer } from '../core/tools/canvas-fingerprint.fixture'
import { EXIT } from './scan-args'
import { exitFor, judgeExpectation, parseComparison, parseRun, problemsOf, renderReport, runReport, type RunBody, type RunTask } from './scan-run'

let serial = 0
function task(tool: ToolId, signals: unknown, server: ServerObservation): RunTask {
  const stored = assembleResults(tool, { signals }, server)
  if (!stored.ok) throw new Error(stored.error)
  const id = `00000000-0000-4000-8000-${String(++serial).padStart(12, '0')}`
  return { task_id: id, tool, score: stored.score, ip_address: server.ip, user_agent: server.userAgent, results: { ...stored.results, ruleset: `r1-${tool.length.toString(16).padStart(16, '0')}` }, created_at: '2026-12-01T10:00:00+00:00' }
}

const human = () => task('bot-detector', humanChrome(), chromeServer())
const headless = () => {
  const h = playwrightHeadless()
  return task('bot-detector', h.signals, h.server)
}

function run(id: string, tasks: RunTask[], complete = true): RunBody {
  return { run_id: id, created_at: '2026-12-01T10:00:00+00:00', complete, tools: ['bot-detector', 'canvas-fingerprint', 'dns-leak'], tasks }
}

const RUN_A = 'aaaaaaaa-0000-4000-8000-000000000001'
const RUN_B = 'bbbbbbbb-0000-4000-8000-000000000002'

describe('judgeExpectation', () => {
  test("bot-detector's verdict decides: a person's Chrome is human, Playwright's headless Chromium a bot", () => {
    const h = human()
    expect(judgeExpectation(run(RUN_A, [h]), 'human')).toEqual({ expected: 'human', verdict: 'human', task_id: h.task_id, met: true })
    expect(judgeExpectation(run(RUN_A, [h]), 'bot').met).toBe(false)
    expect(judgeExpectation(run(RUN_A, [headless()]), 'bot')).toMatchObject({ verdict: 'bot', met: true })
    expect(judgeExpectation(run(RUN_A, [headless()]), 'human').met).toBe(false)
  })
  test('suspicious and untested meet neither expectation', () => {
    const h = human()
    const suspicious = { ...h, results: { ...h.results, verdict: 'suspicious' } }
    const untested = { ...h, results: { ...h.results, tested: false } }
    for (const t of [suspicious, untested]) for (const e of ['human', 'bot'] as const) expect(judgeExpectation(run(RUN_A, [t]), e).met).toBe(false)
    expect(judgeExpectation(run(RUN_A, [suspicious]), 'human').verdict).toBe('suspicious')
    expect(judgeExpectation(run(RUN_A, [untested]), 'human').verdict).toBe('untested')
  })
  test("other tools' failures do not matter; a run without bot-detector meets nothing", () => {
    const rfp = task('canvas-fingerprint', FIREFOX_RFP, canvasServer(CHROMIUM_UA))
    expect(judgeExpectation(run(RUN_A, [human(), rfp]), 'human').met).toBe(true)
    expect(judgeExpectation(run(RUN_A, [rfp]), 'human')).toEqual({ expected: 'human', verdict: null, task_id: null, met: false })
  })
})

describe('--expect signed-agent (issue 60)', () => {
  const conformance = { form: 'legacy' as const, covered: ['"@authority"', '"signature-agent"'], missing: [], nonce: true }
  const signedBy = (agent: NonNullable<ServerObservation['agent']>) => task('bot-detector', humanChrome(), { ...chromeServer(), agent })
  test("met when bot-detector's request carried a verified signature, whatever the verdict; said in the table", () => {
    const t = signedBy({ state: 'verified', agent: 'Test Agent', directory: 'https://agent.example/.well-known/http-message-signatures-directory', keyid: 'k', conformance })
    const e = judgeExpectation(run(RUN_A, [t]), 'signed-agent')
    expect(e).toEqual({ expected: 'signed-agent', verdict: 'bot', task_id: t.task_id, met: true, agent: { state: 'verified', agent: 'Test Agent', reason: null } })
    expect(renderReport(runReport(run(RUN_A, [t]), e, null))).toContain('Expected signed-agent: signed by Test Agent (verified)')
  })
  test('an invalid signature, or none, is not met, and says why', () => {
    const bad = signedBy({ state: 'invalid', code: 'expired', reason: 'the signature expired 60 s ago', agent: 'agent.example', conformance })
    const e = judgeExpectation(run(RUN_A, [bad]), 'signed-agent')
    expect(e).toMatchObject({ met: false, agent: { state: 'invalid' } })
    expect(renderReport(runReport(run(RUN_A, [bad]), e, null))).toContain('expected signed-agent, its agent signature is invalid: the signature expired 60 s ago')
    expect(judgeExpectation(run(RUN_A, [human()]), 'signed-agent')).toMatchObject({ met: false, agent: null })
  })
})

describe('problems and the exit code', () => {
  const missed = { expected: 'human' as const, verdict: 'bot' as const, task_id: null, met: false }
  const met = { ...missed, verdict: 'human' as const, met: true }
  test('none: exit 0', () => {
    expect(problemsOf({ complete: true }, met, { new_failures: 0 })).toEqual([])
    expect(problemsOf({ complete: true }, null, null)).toEqual([])
    expect(exitFor([])).toBe(EXIT.ok)
  })
  test('each alone has its own code', () => {
    expect(exitFor(problemsOf({ complete: false }, null, null))).toBe(9)
    expect(exitFor(problemsOf({ complete: true }, missed, null))).toBe(7)
    expect(exitFor(problemsOf({ complete: true }, null, { new_failures: 2 }))).toBe(8)
  })
  test('several: incomplete first, then the expectation, then the regression; all are listed', () => {
    expect(problemsOf({ complete: false }, missed, { new_failures: 1 })).toEqual(['incomplete', 'expectation', 'regression'])
    expect(exitFor(['incomplete', 'expectation', 'regression'])).toBe(EXIT.incomplete)
    expect(exitFor(problemsOf({ complete: true }, missed, { new_failures: 1 }))).toBe(EXIT.expectation)
    expect(exitFor(problemsOf({ complete: false }, met, { new_failures: 1 }))).toBe(EXIT.incomplete)
  })
})

describe('runReport', () => {
  test('the --json object: run, then comparison and expectation only when asked, ok, exit_code, problems', () => {
    const r = run(RUN_A, [human()])
    expect(runReport(r, null, null)).toEqual({ run: r, ok: true, exit_code: 0, problems: [] })
    const exp = judgeExpectation(r, 'bot')
    const cmp = compareRuns({ id: RUN_B, kind: 'run', tasks: [human()] }, { id: RUN_A, kind: 'run', tasks: r.tasks })
    const report = runReport(r, exp, cmp)
    expect(Object.keys(report)).toEqual(['run', 'comparison', 'expectation', 'ok', 'exit_code', 'problems'])
    expect(report).toMatchObject({ ok: false, exit_code: 7, problems: ['expectation'] })
  })
})

describe('renderReport', () => {
  test('a table of the run: score, verdict and failed checks per tool, tools not stored marked', () => {
    const h = human()
    const text = renderReport(runReport(run(RUN_A, [h, task('canvas-fingerprint', CHROMIUM_PERSON, canvasServer(CHROMIUM_UA))], false), judgeExpectation(run(RUN_A, [h]), 'human'), null))
    const lines = text.split('\n')
    expect(lines[0]).toBe(`Run ${RUN_A}, 2026-12-01T10:00:00+00:00: NOT complete, 2 of 3 tools stored`)
    expect(lines[2]).toMatch(/^TOOL +SCORE +VERDICT +FAILED$/)
    expect(lines[3]).toMatch(new RegExp(`^bot-detector +${h.score} +human +0$`))
    expect(lines[4]).toMatch(/^canvas-fingerprint +\d+ +\w+ +\d+$/)
    expect(lines[5]).toMatch(/^dns-leak +- +not stored +-$/)
    expect(text).toContain('Expected human: bot-detector says human\n')
    expect(lines.at(-1)).toBe('Result: FAILED, exit 9: the run is not complete (2 of 3 tools stored)')
  })
  test('with a baseline: changes, fixed and new failures per tool, identity changes, and the result', () => {
    const base = [human(), task('canvas-fingerprint', CHROMIUM_PERSON, canvasServer(CHROMIUM_UA))]
    const head = [headless(), task('canvas-fingerprint', FIREFOX_RFP, canvasServer(CHROMIUM_UA))]
    const cmp = compareRuns({ id: RUN_B, kind: 'run', tasks: base }, { id: RUN_A, kind: 'run', tasks: head })
    const r = run(RUN_A, head)
    const text = renderReport(runReport(r, judgeExpectation(r, 'human'), cmp))
    expect(text).toContain(`Compared with run ${RUN_B}: judged under the same rulesets`)
    expect(text).toMatch(/TOOL +SCORE +VERDICT +FAILED +CHANGED +FIXED +NEW FAILURES\n/)
    const botRow = text.split('\n').find((l) => l.startsWith('bot-detector'))!
    expect(botRow).toContain(cmp.tools[0]!.new_failures.map((f) => f.id).join(', '))
    expect(text).toContain(`Against the baseline: ${cmp.new_failures} new failures,`)
    expect(text).toContain('  User agent (bot-detector): ')
    expect(text).toContain('  Canvas hash (canvas-fingerprint): 99d52eea63c94bf5 -> (none)')
    expect(text).toContain('Expected human: bot-detector says bot (not met)')
    expect(text.split('\n').at(-1)).toBe(`Result: FAILED, exit 7: expected human, bot-detector says bot; ${cmp.new_failures} new failures against the baseline`)
  })
  test('a run that meets everything ends in ok', () => {
    const r = run(RUN_A, [human()])
    r.tools = ['bot-detector']
    const cmp = compareRuns({ id: RUN_B, kind: 'run', tasks: [human()] }, { id: RUN_A, kind: 'run', tasks: r.tasks })
    const text = renderReport(runReport(r, judgeExpectation(r, 'human'), cmp))
    expect(text).toContain('Identity: unchanged')
    expect(text.split('\n').at(-1)).toBe('Result: ok')
  })
})

describe('parseRun and parseComparison', () => {
  test("take the endpoints' answers and refuse what is not one, saying why", () => {
    const r = run(RUN_A, [human()])
    expect(parseRun(JSON.parse(JSON.stringify(r)))).toEqual(r)
    expect(() => parseRun({ error: 'x' })).toThrow('Cannot read the run: it has no run_id')
    expect(() => parseRun({ ...r, tasks: [{ task_id: 'x' }] })).toThrow('Cannot read the run: its task 0 is not a task')
    expect(() => parseRun([])).toThrow('it is not an object')
    const cmp = compareRuns({ id: RUN_B, kind: 'run', tasks: r.tasks }, { id: RUN_A, kind: 'run', tasks: r.tasks })
    expect(parseComparison(JSON.parse(JSON.stringify(cmp)))).toEqual(cmp)
    expect(() => parseComparison({ tools: [] })).toThrow('Cannot read the comparison')
  })
})
