// Stored tasks keep only what is particular to them; a check's name, why and (default) source
// come from its definition when the task is served (src/core/check-text.ts). What a client
// fetches must be byte for byte what the full form gave, on each driver: new compact rows,
// rows stored in full before the change, and checks whose id no definition has any more.

import { describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { testDrivers } from '../tests/support/db'
import { useTestDatabase } from '../tests/support/db-suite'
import { rows, type Db } from './client'
import { getTask, insertTask, taskJson, type NewTask } from './tasks'
import { judge, playwrightHeadless, humanChrome } from '../src/core/tools/bot-detector.fixture'
import { assembleResults } from '../src/core/tools/assemble'
import { check } from '../src/core/scoring'
import { TOOL_DEFINITIONS } from '../src/core/tools/registry'
import { CONSISTENCY_VERDICTS, FIXED_DETAILS } from '../src/core/consistency'
import { detailCodes, expectations } from '../src/core/text-codes'
import { chromeServer } from '../src/core/tools/bot-detector.fixture'

const uuid = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`

/** A task as stored before check text was left out: the full results, as they are. */
async function insertFull(db: Db, task: NewTask) {
  await db.execute(sql`
    insert into tasks (id, tool, score, ip_address, user_agent, results, created_at)
    values (${task.id}::uuid, ${task.tool}, ${task.score}::int, ${task.ipAddress}, ${task.userAgent},
            ${JSON.stringify(task.results)}::jsonb, ${task.createdAt.toISOString()}::timestamptz)`)
}

async function storedText(db: Db, id: string): Promise<string> {
  const [r] = await rows<{ results: string }>(db, sql`select results::text as results from tasks where id = ${id}::uuid`)
  return r!.results
}

const task = (n: number, tool: string, results: unknown): NewTask => ({
  id: uuid(n),
  tool,
  score: 50,
  ipAddress: '192.0.2.1',
  userAgent: 'ua',
  results,
  createdAt: new Date('2026-03-04T05:06:07Z'),
})

/** Served JSON of a task with its id replaced, to compare a full and a compact row. */
const served = async (db: Db, id: string) => taskJson((await getTask(db, id))!).replace(id, 'ID')

/** Observed values that look like the text the server scans for, inside strings and nested objects. */
const OBSERVED: unknown[] = [
  null,
  { nested: [1, 'x "q" \\ \n'], id: 'webdriver-flag' },
  '\\',
  '{"id": "webdriver-flag", "points": 0, ',
  [{ id: 'webdriver-flag', points: 0, verdict: 'pass' }, '"checks": [', '}]', 'ends in a backslash \\'],
  { '': { checks: [] }, a: '\\"', checks: [{ id: 'x' }] },
]

describe.each(testDrivers())('check text on %s', (driver) => {
  let db: Db
  useTestDatabase(driver, (t) => (db = t.db))

  let n = 0
  /** Stores the results both ways and checks the served bodies are the same bytes. */
  async function sameServed(tool: string, results: unknown) {
    const full = uuid(++n)
    const compact = uuid(++n)
    await insertFull(db, { ...task(0, tool, results), id: full })
    await insertTask(db, { ...task(0, tool, results), id: compact })
    const a = await served(db, full)
    const b = await served(db, compact)
    expect(b.replace(compact, 'ID')).toBe(a.replace(full, 'ID'))
    return { fullText: await storedText(db, full), compactText: await storedText(db, compact) }
  }

  test('a judged bot-detector task is served as its full form, stored without the shared text', async () => {
    const { signals, server } = playwrightHeadless()
    const { stored } = judge(signals, server)
    const { fullText, compactText } = await sameServed('bot-detector', stored)
    const checks = (JSON.parse(compactText) as { checks: Array<Record<string, unknown>> }).checks
    expect(checks.length).toBeGreaterThan(20)
    expect(checks.every((c) => !('why' in c) && !('name' in c))).toBe(true)
    expect(compactText.length).toBeLessThan(fullText.length)
    if (driver === 'pglite') console.log(`bot-detector task (playwright headless) results: full ${Buffer.byteLength(fullText)} bytes, stored ${Buffer.byteLength(compactText)} bytes`)
    const human = judge(humanChrome()).stored
    const h = await sameServed('bot-detector', human)
    if (driver === 'pglite') console.log(`bot-detector task (human Chrome) results: full ${Buffer.byteLength(h.fullText)} bytes, stored ${Buffer.byteLength(h.compactText)} bytes`)
  })

  test('a spec-shaped bot-detector submission (scoring entries) is served as its full form', async () => {
    const r = assembleResults(
      'bot-detector',
      {
        summary: { total: 3, passed: 3, failed: 0, warnings: 0, score: 100 },
        leaks: { webdriver: true, selenium: false, phantomjs: false },
        navigator: { userAgent: 'UA', platform: 'Linux x86_64', language: 'en-US' },
        screen: { width: 1920, height: 1080, colorDepth: 24 },
        webgl: { vendor: 'v', renderer: 'r' },
        canvas: { hash: 'h' },
        scoring: { webdriver: 'fail', selenium: 'pass', phantomjs: 'warn' },
      },
      chromeServer(),
    )
    if (!r.ok) throw new Error(r.error)
    const { compactText } = await sameServed('bot-detector', r.results)
    expect(compactText).not.toContain('"why"')
  })

  test('every check of every tool, in every verdict and either source, is served as its full form', async () => {
    for (const [tool, def] of Object.entries(TOOL_DEFINITIONS)) {
      const checks = def.checks.map(([c, weight], i) =>
        check(
          { id: c.id, name: c.name, why: c.why, weight, source: i % 5 === 4 ? (c.source === 'client' ? 'server' : 'client') : c.source },
          { verdict: (['pass', 'warn', 'fail', 'na'] as const)[i % 4]!, observed: OBSERVED[i % OBSERVED.length], expected: `e${i}` },
        ),
      )
      const { compactText } = await sameServed(tool, { summary: { score: 1 }, aaa: { checks: [{ id: 'x', points: 1 }] }, checks, signals: { checks: [] } })
      expect(compactText).not.toContain('"why"')
    }
  })

  test('every constant expectation, in every verdict and either source, is stored as its code and served as its text', async () => {
    const { codeOf } = expectations()
    for (const [tool, def] of Object.entries(TOOL_DEFINITIONS)) {
      const withText = def.checks.filter(([c]) => c.expected !== undefined && codeOf.has(c.expected))
      if (!withText.length) continue
      const checks = withText.flatMap(([c, weight], i) =>
        (['pass', 'warn', 'fail', 'na'] as const).map((verdict, j) =>
          check(
            { id: c.id, name: c.name, why: c.why, weight, source: j % 2 ? (c.source === 'client' ? 'server' : 'client') : c.source },
            { verdict, observed: OBSERVED[(i + j) % OBSERVED.length], expected: c.expected! },
          ),
        ),
      )
      const { fullText, compactText } = await sameServed(tool, { checks, summary: { score: 1 } })
      const stored = (JSON.parse(compactText) as { checks: Array<Record<string, unknown>> }).checks
      expect(stored.map((c) => c.expected)).toEqual(checks.map((c) => codeOf.get(c.expected)))
      expect(compactText.length).toBeLessThan(fullText.length)
    }
  })

  test('checks it cannot give back are stored in full and served as stored', async () => {
    const [def] = TOOL_DEFINITIONS['http-headers'].checks[0]!
    const full = check({ id: def.id, name: def.name, why: def.why, source: def.source, weight: 10 }, { verdict: 'fail', observed: 1, expected: 'x' })
    const checks = [
      { ...full, why: 'a text the IP truncation changed: 192.0.2.0' },
      { ...full, id: 'no-such-check' },
      { ...full, extra: true },
      full,
    ]
    const { compactText } = await sameServed('http-headers', { checks, summary: {} })
    const stored = (JSON.parse(compactText) as { checks: Array<Record<string, unknown>> }).checks
    expect(stored.map((c) => 'why' in c)).toEqual([true, true, true, false])
    // An unknown tool keeps everything.
    expect(await sameServed('no-such-tool', { checks: [full] })).toMatchObject({ compactText: expect.stringContaining('"why"') })
  })

  test('a compact check whose id no definition has any more is served as stored', async () => {
    const results = { checks: [{ id: 'retired-check', points: 0, verdict: 'pass', expected: 'x', observed: null }], summary: { score: 100 } }
    await insertFull(db, task(900, 'bot-detector', results))
    const body = JSON.parse(taskJson((await getTask(db, uuid(900)))!)) as { results: unknown }
    expect(body.results).toEqual(results)
  })

  test('every fixed consistency detail is stored as its code and served as its text, beside odd neighbours', async () => {
    const items: Array<Record<string, unknown>> = FIXED_DETAILS.map((detail, i) => ({
      id: `item-${i}`,
      claim: OBSERVED[i % OBSERVED.length] ?? '"detail": "#00000000"',
      detail,
      sources: ['client', 'server'],
      verdict: 'unknown',
      observed: i % 2 ? { detail: FIXED_DETAILS[0], note: '#1234abcd' } : '#',
    }))
    // A detail that is not fixed, a code no table knows, and one that only looks like a code.
    items.push({ id: 'free', claim: null, detail: 'navigator.languages starts with de but the header with en.', sources: ['server', 'server'], verdict: 'contradiction', observed: '#' })
    items.push({ id: 'unknown-code', claim: null, detail: '#ffffffff', sources: ['server', 'server'], verdict: 'unknown', observed: null })
    // Codes where a client could put them: inside a string, and in a nested look-alike section.
    const code = detailCodes().codeOf.get(FIXED_DETAILS[2]!)!
    items[0]!.claim = `", "detail": "${code}`
    const results = { checks: [], summary: { score: 1 }, signals: { colour: '#abc' }, consistency: { items, contradictions: 1 }, zzzzzzzzzzzzzzzz: { consistency: { items: [{ detail: FIXED_DETAILS[1] }, { detail: code }] } } }
    const { fullText, compactText } = await sameServed('bot-detector', results)
    const id = uuid(n)
    const servedResults = (JSON.parse(taskJson((await getTask(db, id))!)) as { results: typeof results }).results
    expect(servedResults).toEqual(results)
    const stored = JSON.parse(compactText) as { consistency: { items: Array<{ detail: string }> }; zzzzzzzzzzzzzzzz: unknown }
    expect(stored.consistency.items.slice(0, FIXED_DETAILS.length).every((it) => /^#[0-9a-f]{8}$/.test(it.detail))).toBe(true)
    expect(stored.consistency.items.at(-2)!.detail).toStartWith('navigator.languages')
    expect(stored.zzzzzzzzzzzzzzzz).toEqual(results.zzzzzzzzzzzzzzzz)
    expect(compactText.length).toBeLessThan(fullText.length)
  })

  test('an item with a fixed detail is stored without its sources and verdict, in every combination, and served in full', async () => {
    const sourceLists = [['client'], ['server'], ['client', 'server'], ['server', 'server'], ['server', 'client'], ['server', 'client', 'server'], ['server', 'server', 'client'], ['client', 'client', 'client']]
    const items: Array<Record<string, unknown>> = []
    for (const [i, detail] of FIXED_DETAILS.entries()) {
      for (const [j, sources] of sourceLists.entries()) {
        for (const verdict of CONSISTENCY_VERDICTS) items.push({ id: `item-${i}-${j}`, claim: OBSERVED[(i + j) % OBSERVED.length] ?? null, detail, sources, verdict, observed: OBSERVED[j % OBSERVED.length] ?? null })
      }
    }
    const odd = [
      // Another shape keeps its members: an extra key, a missing verdict, sources of four, a verdict no item has.
      { id: 'extra', claim: null, detail: FIXED_DETAILS[0], sources: ['client', 'server'], verdict: 'unknown', observed: null, note: 1 },
      { id: 'no-verdict', claim: null, detail: FIXED_DETAILS[0], sources: ['client', 'server'], observed: null },
      { id: 'four', claim: null, detail: FIXED_DETAILS[0], sources: ['server', 'client', 'client', 'server'], verdict: 'unknown', observed: null },
      { id: 'odd-verdict', claim: null, detail: FIXED_DETAILS[0], sources: ['server'], verdict: 'maybe', observed: null },
      { id: 'joined', claim: null, detail: FIXED_DETAILS[0], sources: ['client,server'], verdict: 'unknown', observed: null },
    ]
    const results = { consistency: { items: [...items, ...odd], contradictions: 0 }, checks: [] }
    const { compactText } = await sameServed('bot-detector', results)
    const stored = (JSON.parse(compactText) as { consistency: { items: Array<Record<string, unknown>> } }).consistency.items
    for (const it of stored.slice(0, items.length)) {
      expect(Object.keys(it).sort()).toEqual(['claim', 'detail', 'id', 'observed'])
      expect(it.detail).toMatch(/^#[0-9a-f]{8}$/)
    }
    for (const it of stored.slice(items.length)) {
      expect(it.detail).toBe(detailCodes().codeOf.get(FIXED_DETAILS[0]!)!)
      expect('sources' in it).toBe(true)
    }
    // Distinct combinations, distinct codes.
    expect(new Set(stored.slice(0, items.length).map((it) => it.detail)).size).toBe(items.length)
  })

  test('items stored with a code of the text alone (before item codes) are served in full', async () => {
    const { codeOf } = detailCodes()
    const full = FIXED_DETAILS.map((detail, i) => ({ id: `item-${i}`, claim: null, detail, sources: ['server', 'client'], verdict: 'consistent', observed: OBSERVED[i % OBSERVED.length] ?? null }))
    const earlier = full.map((it) => ({ ...it, detail: codeOf.get(it.detail)! }))
    await insertFull(db, task(950, 'bot-detector', { consistency: { items: earlier, contradictions: 0 } }))
    const body = JSON.parse(taskJson((await getTask(db, uuid(950)))!)) as { results: unknown }
    expect(body.results).toEqual({ consistency: { items: full, contradictions: 0 } })
    await insertFull(db, task(951, 'bot-detector', { consistency: { items: full, contradictions: 0 } }))
    expect(await served(db, uuid(950))).toBe((await served(db, uuid(951))).replace(uuid(951), uuid(950)))
  })

  test('results without checks, or with checks of an unexpected shape, are served as stored', async () => {
    for (const [i, results] of [{ summary: {} }, { checks: [] }, { checks: [1, 'a'] }, { checks: {} }, { checks: [{ name: 'n' }] }].entries()) {
      await insertFull(db, task(1000 + i, 'bot-detector', results))
      const t = (await getTask(db, uuid(1000 + i)))!
      expect(taskJson(t)).toContain(`"results":${t.results},`)
    }
  })
})
