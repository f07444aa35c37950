// Property-based fuzz of the task API (fast-check), through app.handle on every test driver.
// POST bodies: arbitrary JSON, valid bodies with one thing broken, random bytes, huge and deep
// values, odd content types. GET: random and near-valid keys (one character of a real key
// changed), keys and ids percent-encoded, random ids. Properties: only the documented statuses
// (POST 201/400/413/415/422, GET 200/401/403/404, 429 where a limit is on), never 5xx, nothing
// stored on a rejection, and every 201 reads back with what was sent intact apart from what
// the server derives (checks, summary, score, server evidence) and what it drops: members the
// judging does not read are not stored, and are named in `results.dropped` (issue 34).
//
// Fast enough for every `bun test` (a few seconds a driver). The seed is fixed; a failure
// prints it with the counterexample, and FUZZ_SEED / FUZZ_RUNS change it.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { countTasks } from '../db/tasks'
import { getMonthUsage } from '../db/keys'
import { monthKey } from '../src/core/month'
import { SPEC_KEPT } from '../src/core/tools/verified'
import { buildTestApp, makeKey, specBotResults } from './support/app'
import { openTestDatabase, testDrivers, type TestDatabase } from './support/db'
import { checkProperty, fuzzSettings } from './support/fuzz'

// Opening (and dropping) a test database takes what it takes on a loaded machine: no clock of its
// own (0), so a busy machine never fails a suite before its first test (issue 57).
const HOOK_TIMEOUT_MS = 0
const FUZZ = fuzzSettings(20261121, 60)
const BASE = 'http://localhost'
const MAX_BODY = 64 * 1024
const POST_STATUSES = [201, 400, 413, 415, 422]
const GET_STATUSES = [200, 401, 403, 404]
/** What the server derives and so may differ from what was sent (spec-shaped bot-detector). */
const DERIVED = new Set(['checks', 'summary', 'server'])
/** What a spec-shaped bot-detector task keeps as sent; anything else is dropped and named. */
const KEPT = new Set<string>(SPEC_KEPT)
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'

type Built = Awaited<ReturnType<typeof buildTestApp>>
type Json = unknown

const check = <T,>(name: string, arb: fc.Arbitrary<T>, predicate: (v: T) => Promise<void>, runs = FUZZ.runs) => checkProperty(name, arb, predicate, { ...FUZZ, runs })

// --- An independent oracle for what PostgreSQL's jsonb and the depth limit accept ----------

/** Nesting depth of containers, the body being level 1 (as src/core/json-safety.ts counts). */
function depthOf(v: Json, level = 1): number {
  if (v === null || typeof v !== 'object') return 0
  const children = Array.isArray(v) ? v : Object.values(v)
  return children.reduce<number>((m, c) => Math.max(m, depthOf(c, level + 1)), level)
}
const storableString = (s: string) => !s.includes('\u0000') && s.isWellFormed()
function storable(v: Json): boolean {
  if (typeof v === 'string') return storableString(v)
  if (typeof v === 'number') return Number.isFinite(v)
  if (v === null || typeof v !== 'object') return true
  if (Array.isArray(v)) return v.every(storable)
  return Object.entries(v).every(([k, x]) => storableString(k) && storable(x))
}

// --- Arbitraries ------------------------------------------------------------------------------

const anyJson = fc.oneof(fc.jsonValue({ maxDepth: 6 }), fc.jsonValue({ maxDepth: 4, stringUnit: 'binary' }))

/** Valid spec-shaped results plus one `x_…` key holding arbitrary JSON. */
const withExtra = fc.record({ name: fc.stringMatching(/^x_[a-z0-9_]{0,12}$/), value: anyJson })

/** A container nested `levels` deep around a leaf. */
const nested = fc.record({ levels: fc.integer({ min: 1, max: 80 }), arrays: fc.boolean(), leaf: fc.jsonValue({ maxDepth: 0 }) }).map(({ levels, arrays, leaf }) => {
  let v: Json = leaf
  for (let i = 0; i < levels; i++) v = arrays ? [v] : { d: v }
  return { levels, value: v }
})

const SPEC_PATHS: Array<[string, string]> = Object.entries(specBotResults()).flatMap(([section, fields]) => Object.keys(fields).map((f) => [section, f] as [string, string]))

/** A valid body with exactly one thing broken or changed. */
const nearValid = fc.oneof(
  fc.record({ kind: fc.constant('replace' as const), path: fc.constantFrom(...SPEC_PATHS), value: anyJson }),
  fc.record({ kind: fc.constant('delete' as const), path: fc.constantFrom(...SPEC_PATHS) }),
  fc.record({ kind: fc.constant('section' as const), section: fc.constantFrom(...Object.keys(specBotResults())), value: anyJson }),
  fc.record({ kind: fc.constant('topField' as const), name: fc.string({ maxLength: 10 }).filter((n) => n !== 'tool' && n !== 'results'), value: anyJson }),
  fc.record({ kind: fc.constant('tool' as const), tool: fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom('bot-detector', 'Bot-Detector', 'ip-leak', ' bot-detector', 'bot-detector ')) }),
)

function applyNearValid(m: typeof nearValid extends fc.Arbitrary<infer T> ? T : never): Record<string, Json> {
  const results = specBotResults() as unknown as Record<string, Record<string, Json>>
  const body: Record<string, Json> = { tool: 'bot-detector', results }
  switch (m.kind) {
    case 'replace':
      results[m.path[0]]![m.path[1]] = m.value
      break
    case 'delete':
      delete results[m.path[0]]![m.path[1]]
      break
    case 'section':
      results[m.section] = m.value as Record<string, Json>
      break
    case 'topField':
      // defineProperty: a "__proto__" name must become a key, not the prototype.
      Object.defineProperty(body, m.name, { value: m.value, enumerable: true, writable: true, configurable: true })
      break
    case 'tool':
      body.tool = m.tool
      break
  }
  return body
}

describe.each(testDrivers())('fuzz of the task API on %s', (driver) => {
  let tdb: TestDatabase
  let built: Built
  let key: string
  let keyId: string
  let served = 0

  beforeAll(async () => {
    tdb = await openTestDatabase(driver)
    // A miss limit out of reach: the GET properties ask for many ids that do not exist.
    built = await buildTestApp(tdb.db, { taskMissLimit: { max: 1_000_000, windowSeconds: 60 } })
    ;({ key, id: keyId } = await makeKey(tdb.db, { plan: 'business' }))
  }, HOOK_TIMEOUT_MS)
  afterAll(async () => {
    await tdb?.destroy()
  }, HOOK_TIMEOUT_MS)

  const post = (body: BodyInit, contentType: string | null = 'application/json') =>
    built.app.handle(new Request(`${BASE}/api/antibot/tasks`, { method: 'POST', headers: contentType === null ? {} : { 'content-type': contentType }, body }))
  const get = (path: string, headers: Record<string, string> = {}) => built.app.handle(new Request(`${BASE}${path}`, { headers }))

  /**
   * Sends a body and checks the invariants: a documented status, a JSON {"error"} on refusal
   * and no new row; on 201, the task reads back with everything sent intact.
   */
  async function submit(body: BodyInit, contentType: string | null = 'application/json'): Promise<number> {
    const before = await countTasks(tdb.db)
    const res = await post(body, contentType)
    const text = await res.text()
    expect({ status: res.status, documented: POST_STATUSES.includes(res.status), text: text.slice(0, 300) }).toMatchObject({ documented: true })
    const parsed = JSON.parse(text) as Record<string, Json>
    if (res.status !== 201) {
      expect(Object.keys(parsed)).toEqual(['error'])
      expect(parsed.error as string).toStartWith('Cannot create task: ')
      expect(await countTasks(tdb.db)).toBe(before)
      return res.status
    }
    expect(await countTasks(tdb.db)).toBe(before + 1)
    const sent = JSON.parse(typeof body === 'string' ? body : new TextDecoder().decode(body as Uint8Array)) as { tool: string; results: Record<string, Json> }
    const back = await get(`/api/antibot/tasks/${parsed.task_id as string}`, { authorization: `Bearer ${key}` })
    expect(back.status).toBe(200)
    served++
    const task = (await back.json()) as { task_id: string; tool: string; score: number; results: Record<string, Json> }
    expect(task.task_id).toBe(parsed.task_id as string)
    expect(task.tool).toBe(sent.tool)
    expect(task.score).toBe((task.results.summary as { score: number }).score)
    const dropped = (task.results.dropped ?? []) as string[]
    for (const [k, v] of Object.entries(sent.results)) {
      if (DERIVED.has(k)) continue
      if (sent.tool === 'bot-detector' && KEPT.has(k)) expect({ k, v: task.results[k] }).toEqual({ k, v })
      else expect({ k, dropped: dropped.includes(k), kept: Object.hasOwn(task.results, k) }).toEqual({ k, dropped: true, kept: false })
    }
    return 201
  }

  test('arbitrary JSON as the whole body', async () => {
    await check('arbitrary JSON body', anyJson, async (v) => {
      await submit(JSON.stringify(v))
    })
  })

  test('valid bodies with one field broken, deleted, replaced or added', async () => {
    await check('near-valid body', nearValid, async (m) => {
      const body = applyNearValid(m)
      const status = await submit(JSON.stringify(body))
      if (m.kind === 'topField' || m.kind === 'delete') expect(status).toBe(422)
      if (m.kind === 'tool') expect(status).toBe(m.tool === 'bot-detector' ? 201 : 422)
      if (m.kind === 'replace' || m.kind === 'section') expect([201, 422]).toContain(status)
    })
  })

  test('valid bodies with an extra results entry of arbitrary JSON: accepted exactly when storable, the entry dropped and named', async () => {
    await check('extra results entry', withExtra, async ({ name, value }) => {
      const text = JSON.stringify({ tool: 'bot-detector', results: { ...specBotResults(), [name]: value } })
      const expected = Buffer.byteLength(text) > MAX_BODY ? 413 : storable(value) && depthOf(value, 3) <= 32 ? 201 : 422
      expect(await submit(text)).toBe(expected)
    })
  })

  test('deep values: accepted up to 32 levels, refused beyond', async () => {
    await check('deep value', nested, async ({ levels, value }) => {
      const text = JSON.stringify({ tool: 'bot-detector', results: { ...specBotResults(), x_deep: value } })
      // The body is level 1, results level 2, so the outermost added container is level 3.
      expect(await submit(text)).toBe(2 + levels <= 32 ? 201 : 422)
    })
  })

  test('huge strings around the 64 KiB limit', async () => {
    await check('huge value', fc.record({ size: fc.integer({ min: 60_000, max: 70_000 }), char: fc.constantFrom('a', 'é', '😀', '\\', '"') }), async ({ size, char }) => {
      const base = JSON.stringify({ tool: 'bot-detector', results: { ...specBotResults(), x_big: '' } })
      const text = base.replace('"x_big":""', `"x_big":${JSON.stringify(char.repeat(Math.floor(size / Buffer.byteLength(JSON.stringify(char).slice(1, -1)))))}`)
      expect(await submit(text)).toBe(Buffer.byteLength(text) > MAX_BODY ? 413 : 201)
    }, Math.max(10, Math.floor(FUZZ.runs / 4)))
  })

  test('random bytes, as JSON and under other content types', async () => {
    const contentTypes = fc.constantFrom('application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON', 'text/plain', 'application/x-www-form-urlencoded', 'application/jsonp', '', null)
    await check('random bytes', fc.record({ bytes: fc.uint8Array({ maxLength: 512 }), type: contentTypes }), async ({ bytes, type }) => {
      const status = await submit(bytes, type)
      const isJson = type !== null && type.split(';')[0]!.trim().toLowerCase() === 'application/json'
      if (!isJson) expect(status).toBe(415)
      else expect([400, 422]).toContain(status)
    })
  })

  describe('GET', () => {
    let taskId: string
    let exhausted: string
    let inactive: string

    beforeAll(async () => {
      const res = await post(JSON.stringify({ tool: 'bot-detector', results: specBotResults() }))
      taskId = ((await res.json()) as { task_id: string }).task_id
      exhausted = (await makeKey(tdb.db, { limit: 0 })).key
      inactive = (await makeKey(tdb.db, { limit: 10, status: 'inactive' })).key
    }, HOOK_TIMEOUT_MS)

    async function expectStatus(res: Response, allowed: number[]): Promise<number> {
      const text = await res.text()
      expect({ status: res.status, allowed: [...GET_STATUSES, 429].includes(res.status) && allowed.includes(res.status), text: text.slice(0, 200) }).toMatchObject({ allowed: true })
      const body = JSON.parse(text) as Record<string, Json>
      if (res.status !== 200) expect(Object.keys(body)).toEqual(['error'])
      return res.status
    }

    const headerSafe = (s: string) => /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/.test(s)

    test('random keys, in the header or the query, get 401', async () => {
      const arb = fc.record({
        s: fc.oneof(fc.string({ maxLength: 60 }), fc.string({ maxLength: 60, unit: 'binary' }), fc.stringMatching(/^ab_[0-9A-Za-z]{38}$/)),
        via: fc.constantFrom('header', 'query'),
      })
      await check('random key', arb, async ({ s, via }) => {
        if (via === 'header' && !headerSafe(s)) return
        if (via === 'query' && !s.isWellFormed()) return
        const res = via === 'header' ? await get(`/api/antibot/tasks/${taskId}`, { authorization: `Bearer ${s}` }) : await get(`/api/antibot/tasks/${taskId}?apikey=${encodeURIComponent(s)}`)
        expect(await expectStatus(res, [401])).toBe(401)
      })
    })

    test('a real key with one character changed gets 401; percent-encoded it still works', async () => {
      const arb = fc.record({ index: fc.integer({ min: 3, max: key.length - 1 }), shift: fc.integer({ min: 1, max: 61 }), encodeAll: fc.boolean() })
      await check('near-valid key', arb, async ({ index, shift, encodeAll }) => {
        const ch = ALPHABET[(ALPHABET.indexOf(key[index]!) + shift) % 62]!
        const flipped = key.slice(0, index) + ch + key.slice(index + 1)
        const enc = (s: string) => (encodeAll ? [...s].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join('') : s)
        expect(await expectStatus(await get(`/api/antibot/tasks/${taskId}?apikey=${enc(flipped)}`), [401])).toBe(401)
        expect(await expectStatus(await get(`/api/antibot/tasks/${taskId}`, { authorization: `Bearer ${flipped}` }), [401])).toBe(401)
        expect(await expectStatus(await get(`/api/antibot/tasks/${taskId}?apikey=${enc(key)}`), [200])).toBe(200)
        served++
      })
    })

    test('ids: random, percent-encoded, case-changed and broken; 200 only for the task, 403 before 404 for unusable keys', async () => {
      const hex = fc.constantFrom(...'0123456789abcdefABCDEF')
      const segment = fc.oneof(
        fc.string({ maxLength: 40 }).map(encodeURIComponent),
        fc.string({ maxLength: 40, unit: 'binary' }).filter((s) => s.isWellFormed()).map(encodeURIComponent),
        fc.constant(null).map(() => taskId),
        fc.constant(null).map(() => taskId.toUpperCase()),
        fc.constant(null).map(() => [...taskId].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('')),
        fc.uuid().map((u) => u),
        fc.array(fc.oneof(fc.tuple(hex, hex).map(([a, b]) => `%${a}${b}`), fc.constantFrom('%', '%z', '%zz', '%0', '%00', '%2F', '%25', '-', 'a', '.', '..')), { maxLength: 12 }).map((p) => p.join('')),
      )
      await check('ids', fc.record({ segment, who: fc.constantFrom('key', 'key', 'exhausted', 'inactive') }), async ({ segment, who }) => {
        const k = who === 'key' ? key : who === 'exhausted' ? exhausted : inactive
        let decoded: string | null
        try {
          decoded = decodeURIComponent(segment)
        } catch {
          decoded = null
        }
        const isTask = decoded !== null && decoded.toLowerCase() === taskId
        const res = await get(`/api/antibot/tasks/${segment}`, { authorization: `Bearer ${k}` })
        // '', '.', '..' or an encoded '/' are other paths: a 404 of the router, also documented.
        const expected = who !== 'key' ? [403, 404] : isTask ? [200] : [404]
        const status = await expectStatus(res, expected)
        if (status === 200) served++
      })
    })

    test('every 200 was counted once, nothing else was', async () => {
      expect((await getMonthUsage(tdb.db, keyId, monthKey(built.clock()))).count).toBe(served)
    })
  })

  test('with a submission limit on, the only new status is 429', async () => {
    const limited = await buildTestApp(tdb.db, { taskRateLimit: { max: 5, windowSeconds: 3600 } })
    const before = await countTasks(tdb.db)
    let created = 0
    await check('rate-limited body', fc.oneof(anyJson.map((v) => JSON.stringify(v)), fc.constant(JSON.stringify({ tool: 'bot-detector', results: specBotResults() }))), async (text) => {
      const res = await limited.app.handle(new Request(`${BASE}/api/antibot/tasks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: text }))
      expect([...POST_STATUSES, 429]).toContain(res.status)
      if (res.status === 429) expect(res.headers.get('retry-after')).toMatch(/^\d+$/)
      if (res.status === 201) created++
      await res.body?.cancel()
    }, 30)
    expect(created).toBeLessThanOrEqual(5)
    expect(await countTasks(tdb.db)).toBe(before + created)
  })
})
