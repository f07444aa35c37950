import { describe, expect, test } from 'bun:test'
import type { ToolId } from '../../common/tools'
import type { TlsFingerprintSignals } from '../../common/signals/tls-fingerprint'
import type { AudioFingerprintSignals } from '../../common/signals/audio-fingerprint'
import { ok } from '../../tests/support/signals'
import { fixture } from '../evidence/fixtures/load'
import { parseH2ClientStart } from '../evidence/http2'
import { parseClientHello } from '../evidence/tls-client-hello'
import { http2Record, tlsRecord } from '../evidence/tls-records'
import { compareRuns, type ComparedSide, type ComparedTask } from './compare'
import { assembleResults } from './tools/assemble'
import type { ServerObservation } from './tools/observation'
import { chromeServer, humanChrome, playwrightHeadless, V8 } from './tools/bot-detector.fixture'
import { CHROMIUM_PERSON, CHROMIUM_UA, FIREFOX_RFP, server as canvasServer } from './tools/canvas-fingerprint.fixture'
import { desktopChrome, requestFrom, resistingFirefox } from './tools/browser-fingerprint.fixture'

let serial = 0
/** A task as the task endpoint serves it, judged from real signals, with `ruleset` set when given. */
function task(tool: ToolId, signals: unknown, server: ServerObservation, ruleset: string | null = 'r1'): ComparedTask {
  const stored = assembleResults(tool, { signals }, server)
  if (!stored.ok) throw new Error(stored.error)
  // The service stamps its own ruleset (src/core/ruleset.ts); the tests choose theirs.
  const { ruleset: _, ...rest } = stored.results
  const results = ruleset === null ? rest : { ...rest, ruleset }
  return { task_id: `00000000-0000-4000-8000-${String(++serial).padStart(12, '0')}`, tool, score: stored.score, user_agent: server.userAgent, results }
}

const run = (id: string, ...tasks: ComparedTask[]): ComparedSide => ({ id, kind: 'run', tasks })

/** A copy of the task with the given checks' verdicts replaced (and the check added when absent). */
function withVerdicts(t: ComparedTask, verdicts: Record<string, 'pass' | 'warn' | 'fail' | 'na' | null>): ComparedTask {
  const checks = (t.results.checks as Array<{ id: string; name: string; verdict: string }>).map((c) => ({ ...c }))
  for (const [id, v] of Object.entries(verdicts)) {
    const i = checks.findIndex((c) => c.id === id)
    if (v === null) checks.splice(i, 1)
    else if (i < 0) checks.push({ id, name: `Check ${id}`, verdict: v })
    else checks[i]!.verdict = v
  }
  return { ...t, results: { ...t.results, checks } }
}

const failing = (t: ComparedTask) => (t.results.checks as Array<{ id: string; verdict: string }>).filter((c) => c.verdict === 'fail').map((c) => c.id)

// tls-fingerprint with the listener's records of a captured ClientHello and HTTP/2 preface.
const CHROMIUM_156_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36'
function tlsTask(hello: string, h2: string | null): ComparedTask {
  const parsed = parseClientHello(fixture(hello))
  if (!parsed.ok) throw new Error(hello)
  const evidence: NonNullable<ServerObservation['evidence']> = [{ kind: 'tls', data: tlsRecord(parsed.value, { protocol: 'TLSv1.3', alpn: 'h2', cipher: 'TLS_AES_128_GCM_SHA256' }), observedAt: 'x' }]
  if (h2) {
    const start = parseH2ClientStart(fixture(h2))
    if (!start.ok) throw new Error(h2)
    evidence.push({ kind: 'http2', data: http2Record(start.value), observedAt: 'x' })
  }
  const signals: TlsFingerprintSignals = {
    navigator: ok({ userAgent: CHROMIUM_156_UA, platform: 'Linux x86_64' }),
    uaData: ok({ brands: [{ brand: 'Chromium', version: '156' }], mobile: false, platform: 'Linux', high: null, highError: null }),
    stack: ok({ pageProtocol: 'https:', secureContext: true, navigationProtocol: 'h2', fetchProtocol: 'h2', navigationTls: true }),
    connection: ok({ type: null, effectiveType: '4g', rtt: 50, downlink: 10, saveData: false }),
    evidence: ok({ port: 3443, nonce: 'a'.repeat(26), reached: true, ms: 30 }),
  }
  return task('tls-fingerprint', signals, { ip: '203.0.113.7', userAgent: CHROMIUM_156_UA, headers: [['user-agent', CHROMIUM_156_UA]], receivedAt: 0, nonce: 'valid', evidence })
}

function audioTask(sum: number): ComparedTask {
  const s: AudioFingerprintSignals = {
    audio: ok({ value: { sum, copySum: sum, reduction: -20.538286209106445 } }),
    knownAnswer: ok({ samples: 512, wrong: 0, maxDelta: 0 }),
    context: ok({ sampleRate: 48000, maxChannelCount: 2, baseLatency: 0.01, state: 'suspended' }),
    engine: ok(V8),
  }
  return task('audio-fingerprint', s, requestFrom())
}

const human = () => task('bot-detector', humanChrome(), chromeServer())
const headless = () => {
  const h = playwrightHeadless()
  return task('bot-detector', h.signals, h.server)
}

describe('compareRuns', () => {
  test('two runs of one browser: nothing changed, one ruleset, no identity change', () => {
    const a = [human(), task('canvas-fingerprint', CHROMIUM_PERSON, canvasServer(CHROMIUM_UA)), tlsTask('tls-chromium-ip.hex', 'h2-chromium.hex')]
    const b = a.map((t) => ({ ...t, task_id: `${t.task_id.slice(0, -1)}f` }))
    const c = compareRuns(run('base', ...a), run('head', ...b))
    expect(c.base).toEqual({ id: 'base', kind: 'run' })
    expect(c.head).toEqual({ id: 'head', kind: 'run' })
    expect(c.same_ruleset).toBe(true)
    expect(c.identity).toEqual([])
    expect([c.changed, c.new_failures, c.fixed_failures, c.new_warnings]).toEqual([0, 0, 0, 0])
    // The registry's order, whatever the order of the tasks.
    expect(c.tools.map((t) => t.tool)).toEqual(['bot-detector', 'canvas-fingerprint', 'tls-fingerprint'])
    expect(c.tools[0]).toEqual({
      tool: 'bot-detector',
      base_task_id: a[0]!.task_id,
      head_task_id: b[0]!.task_id,
      base: { score: a[0]!.score, verdict: 'human' },
      head: { score: a[0]!.score, verdict: 'human' },
      ruleset: { base: 'r1', head: 'r1', same: true },
      changed: [],
      new_failures: [],
      fixed_failures: [],
      new_warnings: [],
    })
  })

  test("a person's Chrome, then Playwright's headless Chromium: the verdict, the new failures and the user agent", () => {
    const base = human()
    const head = headless()
    const c = compareRuns(run('base', base), run('head', head))
    const tool = c.tools[0]!
    expect(tool.base!.verdict).toBe('human')
    expect(tool.head!.verdict).toBe('bot')
    const fresh = failing(head).filter((id) => !failing(base).includes(id))
    expect(fresh.length).toBeGreaterThan(0)
    expect(tool.new_failures.map((f) => f.id)).toEqual(fresh)
    expect(tool.new_failures.every((f) => f.name !== f.id && f.name.length > 0)).toBe(true)
    for (const ch of tool.changed) expect(ch.base).not.toBe(ch.head)
    expect(tool.changed.filter((ch) => ch.head === 'fail').map((ch) => ch.id)).toEqual(fresh)
    expect(c.new_failures).toBe(fresh.length)
    expect(c.changed).toBe(tool.changed.length)
    expect(c.identity.find((i) => i.id === 'user_agent')).toEqual({ id: 'user_agent', name: 'User agent', tool: 'bot-detector', base: base.user_agent, head: head.user_agent })

    // The other way round, the same failures are fixed.
    const back = compareRuns(run('head', head), run('base', base))
    expect(back.tools[0]!.fixed_failures.map((f) => f.id)).toEqual(fresh)
    expect(back.new_failures).toBe(failing(base).filter((id) => !failing(head).includes(id)).length)
  })

  test('a warning is not a failure: pass→warn is a new warning, fail→warn a fixed failure, warn→fail a new failure', () => {
    const base = withVerdicts(human(), { 'webdriver-flag': 'fail', 'headless-ua': 'warn' })
    const head = withVerdicts(human(), { 'webdriver-flag': 'warn', 'headless-ua': 'fail', 'automation-globals': 'warn' })
    const t = compareRuns(run('b', base), run('h', head)).tools[0]!
    expect(t.new_failures.map((f) => f.id)).toEqual(['headless-ua'])
    expect(t.fixed_failures.map((f) => f.id)).toEqual(['webdriver-flag'])
    expect(t.new_warnings.map((f) => f.id)).toEqual(['automation-globals'])
    expect(t.changed.map((ch) => [ch.id, ch.base, ch.head])).toEqual([
      ['webdriver-flag', 'fail', 'warn'],
      ['automation-globals', 'pass', 'warn'],
      ['headless-ua', 'warn', 'fail'],
    ])
  })

  test('a check on one side only: null there; a failing one is new, an `na` one no change', () => {
    const base = withVerdicts(human(), { 'webdriver-flag': null })
    const head = withVerdicts(human(), { 'brand-new': 'fail', 'also-new': 'na' })
    const t = compareRuns(run('b', base), run('h', head)).tools[0]!
    // The head's order (webdriver-flag is among its checks, the new ones at the end).
    expect(t.changed).toEqual([
      { id: 'webdriver-flag', name: expect.any(String), base: null, head: 'pass' },
      { id: 'brand-new', name: 'Check brand-new', base: null, head: 'fail' },
    ])
    expect(t.new_failures).toEqual([{ id: 'brand-new', name: 'Check brand-new' }])
  })

  test('identity: JA4 and HTTP/2 fingerprint, visitor id, canvas hash and audio sum that changed; a missing member is null', () => {
    const base = run(
      'b',
      tlsTask('tls-chromium-ip.hex', 'h2-chromium.hex'),
      task('browser-fingerprint', desktopChrome(), requestFrom()),
      task('canvas-fingerprint', CHROMIUM_PERSON, canvasServer(CHROMIUM_UA)),
      audioTask(124.04347527516074),
    )
    const head = run(
      'h',
      tlsTask('tls-curl-ip.hex', null),
      task('browser-fingerprint', resistingFirefox(), requestFrom()),
      task('canvas-fingerprint', FIREFOX_RFP, canvasServer(CHROMIUM_UA)),
      audioTask(124.04347776696522),
    )
    const c = compareRuns(base, head)
    const by = Object.fromEntries(c.identity.map((i) => [i.id, i]))
    expect(Object.keys(by).sort()).toEqual(['audio_sum', 'canvas_hash', 'http2', 'ja4', 'visitor_id'])
    expect(by.ja4!.tool).toBe('tls-fingerprint')
    expect(by.ja4!.base).toMatch(/^t13i/)
    expect(by.ja4!.head).toMatch(/^t1/)
    expect(by.ja4!.head).not.toBe(by.ja4!.base)
    // curl's preface was not captured: no HTTP/2 fingerprint on the head.
    expect(by.http2!.base).toMatch(/\|/)
    expect(by.http2!.head).toBeNull()
    expect(by.visitor_id!.tool).toBe('browser-fingerprint')
    expect(typeof by.visitor_id!.base).toBe('string')
    // resistFingerprinting noises the canvas: no hash.
    expect(by.canvas_hash).toEqual({ id: 'canvas_hash', name: 'Canvas hash', tool: 'canvas-fingerprint', base: '99d52eea63c94bf5', head: null })
    expect(by.audio_sum).toEqual({ id: 'audio_sum', name: 'Audio fingerprint (sum)', tool: 'audio-fingerprint', base: '124.04347527516074', head: '124.04347776696522' })
  })

  test('identity readers tolerate results without the sections', () => {
    const bare = (tool: ToolId, id: string): ComparedTask => ({ task_id: id, tool, score: 100, user_agent: 'UA', results: { checks: 'not a list', tls: null, canvas: 'x' } })
    const c = compareRuns(run('b', bare('tls-fingerprint', 'x1'), bare('canvas-fingerprint', 'x2')), run('h', bare('tls-fingerprint', 'y1'), bare('canvas-fingerprint', 'y2')))
    expect(c.identity).toEqual([])
    expect(c.tools.map((t) => t.changed)).toEqual([[], []])
  })

  test('rulesets: the same on every common tool, different on one, missing on one side, or no common tool', () => {
    const same = compareRuns(run('b', task('bot-detector', humanChrome(), chromeServer(), 'r1')), run('h', task('bot-detector', humanChrome(), chromeServer(), 'r1')))
    expect(same.same_ruleset).toBe(true)

    const a = [task('bot-detector', humanChrome(), chromeServer(), 'r1'), audioTask(124.04347527516074)]
    const differ = compareRuns(run('b', ...a), run('h', task('bot-detector', humanChrome(), chromeServer(), 'r1'), { ...audioTask(124.04347527516074), results: { ...a[1]!.results, ruleset: 'r2' } }))
    expect(differ.same_ruleset).toBe(false)
    expect(differ.tools.map((t) => t.ruleset)).toEqual([
      { base: 'r1', head: 'r1', same: true },
      { base: 'r1', head: 'r2', same: false },
    ])

    const missing = compareRuns(run('b', task('bot-detector', humanChrome(), chromeServer(), null)), run('h', task('bot-detector', humanChrome(), chromeServer(), 'r1')))
    expect(missing.same_ruleset).toBe(false)
    expect(missing.tools[0]!.ruleset).toEqual({ base: null, head: 'r1', same: false })
    const neither = compareRuns(run('b', task('bot-detector', humanChrome(), chromeServer(), null)), run('h', task('bot-detector', humanChrome(), chromeServer(), null)))
    expect(neither.same_ruleset).toBe(false)

    const apart = compareRuns(run('b', human()), run('h', audioTask(124.04347527516074)))
    expect(apart.same_ruleset).toBe(false)
  })

  test('a tool on one side only is listed with the other side null, and its failures are neither new nor fixed', () => {
    const bot = headless()
    const canvas = task('canvas-fingerprint', FIREFOX_RFP, canvasServer(CHROMIUM_UA))
    const c = compareRuns(run('b', human()), run('h', bot, canvas))
    expect(c.tools.map((t) => t.tool)).toEqual(['bot-detector', 'canvas-fingerprint'])
    expect(c.tools[1]).toEqual({
      tool: 'canvas-fingerprint',
      base_task_id: null,
      head_task_id: canvas.task_id,
      base: null,
      head: { score: canvas.score, verdict: expect.any(String) },
      ruleset: { base: null, head: 'r1', same: false },
      changed: [],
      new_failures: [],
      fixed_failures: [],
      new_warnings: [],
    })
    expect(c.new_failures).toBe(c.tools[0]!.new_failures.length)
    // Identity is read only from tools on both sides.
    expect(c.identity.map((i) => i.id)).toEqual(['user_agent'])
    // bot-detector is on both sides; its ruleset matches, canvas-fingerprint's has no partner.
    expect(c.same_ruleset).toBe(true)
  })

  test('task against task, and a task against a run', () => {
    const base = human()
    const head = headless()
    const c = compareRuns({ id: base.task_id, kind: 'task', tasks: [base] }, { id: head.task_id, kind: 'task', tasks: [head] })
    expect(c.base).toEqual({ id: base.task_id, kind: 'task' })
    expect(c.head).toEqual({ id: head.task_id, kind: 'task' })
    expect(c.tools).toHaveLength(1)
    expect(c.tools[0]!.base_task_id).toBe(base.task_id)
    expect(c.new_failures).toBeGreaterThan(0)

    const mixed = compareRuns({ id: base.task_id, kind: 'task', tasks: [base] }, run('h', head, audioTask(124.04347527516074)))
    expect(mixed.tools.map((t) => [t.tool, t.base_task_id === null, t.head_task_id === null])).toEqual([
      ['bot-detector', false, false],
      ['audio-fingerprint', true, false],
    ])
  })

  test('an untested task is called untested', () => {
    const untested = tlsTask('tls-chromium-ip.hex', 'h2-chromium.hex')
    const c = compareRuns(run('b', untested), run('h', { ...untested, results: { ...untested.results, tested: false } }))
    expect(c.tools[0]!.base!.verdict).toBe('ordinary')
    expect(c.tools[0]!.head!.verdict).toBe('untested')
  })

  test('the result is plain JSON', () => {
    const c = compareRuns(run('b', human()), run('h', headless()))
    expect(JSON.parse(JSON.stringify(c))).toEqual(c)
  })
})
