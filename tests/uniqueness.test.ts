// How identifying a browser is (issue 48) over HTTP, on every test driver: a seeded population
// of known distribution (screen-display submissions from distinct networks) gives exact shares,
// bits and one-in-N; values fewer than 5 browsers have are never counted exactly; one browser
// reloading counts once; one range flooding fabricated screens adds at most the flood bound;
// two instances on one database count every browser exactly once; the purge takes browsers out
// of the window; IP_TRUNCATE's networks are what a browser is counted by; the page's report
// shows what the stored task was given; with the reference population (issue 59) a new
// instance's first visit has its figures from the dataset, and the k-floor probe learns nothing.
// Client addresses come from X-Forwarded-For, believed from the test's own socket (127.0.0.1).

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { rows, type Db } from '../db/client'
import { getTask } from '../db/tasks'
import { purgeUniqueness, sightingParams } from '../db/uniqueness'
import { INSERT_TASK_WITH_SIGHTING } from '../db/tasks'
import postgres from 'postgres'
import { parseTrustedProxies } from '../src/core/ip'
import { loadReferencePopulation } from '../src/reference-population'
import type { Uniqueness } from '../src/core/uniqueness'
import { chromium156, CHROMIUM_156_SERVER } from '../src/core/tools/screen-display.fixture'
import { ok } from './support/signals'
import { buildTestApp, fixedClock } from './support/app'
import { openTestDatabase, testDrivers, type TestDatabase } from './support/db'

// Opening (and dropping) a test database takes what it takes on a loaded machine: no clock of its
// own (0), so a busy machine never fails a suite before its first test (issue 57).
const HOOK_TIMEOUT_MS = 0
const UA = CHROMIUM_156_SERVER.userAgent

/** A Chromium whose screen is `w`×`h` (and its available area the same). */
function screenBody(w: number, h: number, dpr = 1) {
  const s = chromium156()
  s.screen = ok({ width: w, height: h, availWidth: w, availHeight: h, colorDepth: 24, pixelDepth: 24, orientation: 'landscape-primary' })
  s.window = ok({ screenX: 0, screenY: 0, innerWidth: Math.min(945, w), outerWidth: Math.min(945, w), innerHeight: Math.min(700, h), outerHeight: Math.min(800, h), devicePixelRatio: dpr })
  return { tool: 'screen-display', results: { signals: s } }
}

type App = Awaited<ReturnType<typeof buildTestApp>>['app']

/** The app listening on loopback (X-Forwarded-For is believed from a socket's peer only). */
function listening(app: App): App {
  app.listen({ port: 0, hostname: '127.0.0.1' })
  return app
}
const base = (app: App) => `http://127.0.0.1:${app.server!.port}`

async function post(app: App, ip: string, body: unknown): Promise<{ id: string; u: Uniqueness }> {
  const res = await fetch(`${base(app)}/api/antibot/tasks`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': ip, 'user-agent': UA }, body: JSON.stringify(body) })
  expect(res.status).toBe(201)
  const id = ((await res.json()) as { task_id: string }).task_id
  return { id, u: (await storedUniqueness(app, id)) as Uniqueness }
}

let dbOf: (app: App) => Db
async function storedUniqueness(app: App, id: string): Promise<unknown> {
  return (JSON.parse((await getTask(dbOf(app), id))!.results) as { uniqueness: unknown }).uniqueness
}

const attribute = (u: Uniqueness, name: string) => u.attributes.find((a) => a.name === name)!

/** Every browser its own /24, so that the flood bound never applies to the seeded population. */
const ipOf = (n: number) => `10.${Math.floor(n / 250)}.${n % 250}.7`

describe.each(testDrivers())('uniqueness over HTTP on %s', (driver) => {
  let tdb: TestDatabase
  let app: App
  const clock = fixedClock('2026-11-20T12:00:00Z')
  const trustedProxies = parseTrustedProxies('127.0.0.1')

  beforeAll(async () => {
    tdb = await openTestDatabase(driver)
    app = listening((await buildTestApp(tdb.db, { trustedProxies, clock, uniqueness: { windowDays: 90, perRange: 4 } })).app)
    dbOf = () => tdb.db
  }, HOOK_TIMEOUT_MS)
  afterAll(async () => {
    await app?.stop()
    await tdb?.destroy()
  }, HOOK_TIMEOUT_MS)

  const count = async (table: string) => (await rows<{ n: number }>(tdb.db, sql.raw(`select count(*)::int as n from ${table}`)))[0]!.n

  test('a seeded population of known distribution: exact shares, bits and one in N; fewer than 5 is never a count', async () => {
    // 120 browsers: 60 at 1920×1080, 30 at 1366×768, 26 at 1536×864, 4 at 2560×1440.
    const plan: Array<[number, number, number]> = [
      [60, 1920, 1080],
      [30, 1366, 768],
      [26, 1536, 864],
      [4, 2560, 1440],
    ]
    let n = 0
    for (const [times, w, h] of plan) for (let i = 0; i < times; i++) await post(app, ipOf(n++), screenBody(w, h))
    expect(await count('uniqueness_browsers')).toBe(120)

    // A new browser at 1366×768: 31 of 121 browsers, its own included.
    const { u } = await post(app, ipOf(n++), screenBody(1366, 768))
    expect(u.population).toBe(121)
    expect(u.browser).toBe('new')
    expect(u.meaningful).toBe(true)
    expect(attribute(u, 'screen.size')).toMatchObject({ browsers: 31, rare: false, share: Number((31 / 121).toFixed(6)), oneIn: Number((121 / 31).toFixed(2)), bits: Number(Math.log2(121 / 31).toFixed(3)) })
    // Every screen-display value but the size is the same for all: no information.
    expect(attribute(u, 'colorGamut')).toMatchObject({ browsers: 121, share: 1, oneIn: 1, bits: 0 })
    // The whole combination: the size and available area decide it here.
    expect(u.fingerprint).toMatchObject({ browsers: 31, rare: false })
    // Rarest first.
    expect(u.attributes[0]!.bits).toBeGreaterThanOrEqual(u.attributes.at(-1)!.bits)

    // 2560×1440: 5 browsers with this one, an exact count; 3840×2160: only this one, "fewer than 5".
    const five = await post(app, ipOf(n++), screenBody(2560, 1440))
    expect(attribute(five.u, 'screen.size')).toMatchObject({ browsers: 5, rare: false, share: Number((5 / 122).toFixed(6)) })
    const one = await post(app, ipOf(n++), screenBody(3840, 2160))
    const rare = attribute(one.u, 'screen.size')
    expect(rare).toMatchObject({ browsers: null, rare: true, share: Number((4 / 123).toFixed(6)), oneIn: Number((123 / 4).toFixed(2)), bits: Number(Math.log2(123 / 4).toFixed(3)) })
    expect(one.u.fingerprint).toMatchObject({ browsers: null, rare: true })
    // A second and a third browser at 3840×2160 see the same bound: nothing tells them apart from the first.
    const two = await post(app, ipOf(n++), screenBody(3840, 2160))
    expect(attribute(two.u, 'screen.size')).toMatchObject({ browsers: null, rare: true })
  })

  test('one browser reloading 100 times counts once; the task is stored every time', async () => {
    const before = await count('uniqueness_browsers')
    const tasks = await count('tasks')
    const body = screenBody(1280, 1024)
    const first = await post(app, '192.0.2.50', body)
    expect(first.u.browser).toBe('new')
    for (let i = 0; i < 99; i++) {
      clock.set(new Date(clock().getTime() + 60_000))
      const again = await post(app, '192.0.2.50', body)
      expect(again.u.browser).toBe('seen before')
      expect(again.u.population).toBe(first.u.population)
    }
    expect(await count('uniqueness_browsers')).toBe(before + 1)
    expect(await count('tasks')).toBe(tasks + 100)
  })

  test('one range posting 40 fabricated screens adds at most 4 browsers; others’ figures move by at most the bound', async () => {
    const watcher = await post(app, '203.0.113.200', screenBody(1920, 1080))
    const before = watcher.u
    let last: Uniqueness | undefined
    for (let i = 0; i < 40; i++) last = (await post(app, `198.51.100.${i + 1}`, screenBody(1000 + i, 700 + i))).u
    expect(last!.browser).toBe('not counted: its range is full')
    // The flooder still sees itself in its own figures.
    expect(attribute(last!, 'screen.size')).toMatchObject({ rare: true })
    const after = (await post(app, '203.0.113.200', screenBody(1920, 1080))).u
    expect(after.population).toBe(before.population + 4)
    const was = attribute(before, 'screen.size').share
    const now = attribute(after, 'screen.size').share
    expect(Math.abs(now - was)).toBeLessThanOrEqual(4 / (before.population + 4))
    // An IPv6 range (/48): its /64s share one bound.
    for (let i = 0; i < 10; i++) await post(app, `2001:db8:77:${i}::1`, screenBody(1100 + i, 800))
    const v6 = (await post(app, '203.0.113.200', screenBody(1920, 1080))).u
    expect(v6.population).toBe(after.population + 4)
  })

  test("the k floor counts only other ranges: one /24's own browsers and a probe get the same figures whether or not another range's browser has the value", async () => {
    // Each world: a browser of another /24 (with the probed screen, or with another), then four
    // browsers of the asker's /24 carrying the probed screen (pixel ratios varied, so each is a
    // new browser: the range's whole flood bound), then the probe from the same /24.
    const world = async (probed: [number, number], other: [number, number], asker: string, elsewhere: string) => {
      await post(app, elsewhere, screenBody(...other))
      for (let i = 1; i <= 4; i++) expect((await post(app, `${asker}.${i}`, screenBody(...probed, 1 + i / 4))).u.browser).toBe('new')
      const { u } = await post(app, `${asker}.9`, screenBody(...probed, 3))
      const size = attribute(u, 'screen.size')
      return { browsers: size.browsers, rare: size.rare, bound: size.share === Number((4 / u.population).toFixed(6)), fingerprint: u.fingerprint.rare }
    }
    const someone = await world([3001, 1999], [3001, 1999], '100.70.1', '100.80.1.9')
    const nobody = await world([3003, 1997], [3005, 1995], '100.70.2', '100.80.2.9')
    expect(someone).toEqual({ browsers: null, rare: true, bound: true, fingerprint: true })
    expect(nobody).toEqual(someone)
    // Four browsers of other ranges and the submitter reach the floor: the count is exact (the
    // asker's range's four included, the probe that was not counted left out).
    for (let i = 0; i < 3; i++) await post(app, `100.80.${10 + i}.9`, screenBody(3001, 1999))
    const reached = await post(app, '100.70.3.9', screenBody(3001, 1999, 2))
    expect(attribute(reached.u, 'screen.size')).toMatchObject({ browsers: 9, rare: false })
  })

  test('two instances on one database, racing: every browser counted once, the same browser from both once', async () => {
    const other = listening((await buildTestApp(tdb.db, { trustedProxies, clock, uniqueness: { windowDays: 90, perRange: 4 } })).app)
    const before = await count('uniqueness_browsers')
    const sizeBefore = (await rows<{ n: number }>(tdb.db, sql`select coalesce(sum(browsers), 0)::int as n from uniqueness_counts where tool = 'screen-display' and name = '*'`))[0]!.n
    const jobs: Array<Promise<unknown>> = []
    for (let i = 0; i < 30; i++) {
      const body = screenBody(1440, 900 + (i % 3))
      jobs.push(post(i % 2 ? app : other, `172.16.${i}.9`, body))
      // The same browser from both instances at once.
      jobs.push(post(i % 2 ? other : app, `172.16.${i}.9`, body))
    }
    // And one range's 20 new browsers, half through each instance at once: the flood bound holds.
    for (let i = 0; i < 20; i++) jobs.push(post(i % 2 ? app : other, `100.64.9.${i + 1}`, screenBody(700 + i, 500)))
    await Promise.all(jobs)
    await other.stop()
    expect(await count('uniqueness_browsers')).toBe(before + 30 + 4)
    const [pop] = await rows<{ n: number }>(tdb.db, sql`select sum(browsers)::int as n from uniqueness_counts where tool = 'screen-display' and name = '*'`)
    expect(pop!.n).toBe(sizeBefore + 30 + 4)
    // Every count equals the browsers that have the value.
    const drift = await rows<{ n: number }>(
      tdb.db,
      sql`select count(*)::int as n from (
            select c.tool, c.name, c.value, sum(c.browsers) as counted,
                   (select count(*) from uniqueness_browsers b where b.tool = c.tool and (c.name, c.value) in (select * from unnest(b.names, b.vals))) as actual
            from uniqueness_counts c group by c.tool, c.name, c.value) x where counted <> actual`,
    )
    expect(drift[0]!.n).toBe(0)
    const ranges = await rows<{ n: number }>(
      tdb.db,
      sql`select count(*)::int as n from uniqueness_ranges r where r.browsers <> (select count(*) from uniqueness_browsers b where b.tool = r.tool and b.range = r.range)`,
    )
    expect(ranges[0]!.n).toBe(0)
  })

  test('the flood bound under a held lock: a range at 3 of 4, two new browsers stored at once, one counted', async () => {
    if (!tdb.url) return // PostgreSQL only: PGlite has one connection, nothing runs at once.
    const a = postgres(tdb.url, { max: 1, onnotice: () => {} })
    const b = postgres(tdb.url, { max: 1, onnotice: () => {} })
    try {
      const range = 'held-range'
      await a.unsafe(`insert into uniqueness_ranges (tool, range, browsers, created_at) values ('screen-display', '${range}', 3, now())`)
      const params = (browser: string) => {
        const row = [crypto.randomUUID(), 'screen-display', 90, '198.18.0.1', 'UA', '{}', new Date().toISOString(), null]
        return [...row, ...sightingParams({ tool: 'screen-display', keys: { browser, range, shard: 1 }, names: ['*', '#'], values: ['*', browser], seen: new Date(), perRange: 4 })]
      }
      // A stores its browser and holds its transaction open; B's statement must wait on the range's row.
      await a.unsafe('begin')
      const [first] = await a.unsafe(INSERT_TASK_WITH_SIGHTING, params('held-1') as never[])
      let bDone = false
      const second = b.unsafe(INSERT_TASK_WITH_SIGHTING, params('held-2') as never[]).then((r) => {
        bDone = true
        return r[0]
      })
      await Bun.sleep(200)
      expect(bDone).toBe(false)
      await a.unsafe('commit')
      expect([first!.stored, first!.added, (await second)!.stored, (await second)!.added]).toEqual([1, 1, 1, 0])
      const [r] = await a.unsafe(`select browsers from uniqueness_ranges where range = '${range}'`)
      expect(r!.browsers).toBe(4)
    } finally {
      await a.end()
      await b.end()
    }
  })

  test('the page report shows the figures its stored task was given', async () => {
    const page = await (await fetch(`${base(app)}/tools/screen-display`, { headers: { 'x-forwarded-for': '192.0.2.99', 'user-agent': UA } })).text()
    const nonce = /data-nonce="([a-z2-7]{26})"/.exec(page)![1]!
    const body = { ...screenBody(3000, 2000), nonce }
    const stored = await post(app, '192.0.2.99', body)
    // Others arrive between the store and the report: the report still shows the stored figures.
    await post(app, '192.0.2.150', screenBody(800, 600))
    const res = await fetch(`${base(app)}/tools/screen-display/report`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': '192.0.2.99', 'user-agent': UA }, body: JSON.stringify(body) })
    const html = await res.text()
    expect(res.status).toBe(200)
    expect(html).toContain(`data-population="${stored.u.population}"`)
    expect(html).toContain('How identifying this browser is')
    expect(html).toMatch(/<tr data-attribute="screen.size" data-rare="true" data-source="instance">[\s\S]*?fewer than 5[\s\S]*?this service&#x27;s \d+ browsers<\/td>/)
  })

  test('the purge takes browsers not seen for the window out of every count', async () => {
    clock.set(new Date(clock().getTime() + 30 * 86_400_000))
    await post(app, '192.0.2.50', screenBody(1280, 1024)) // seen again: stays
    const purged = await purgeUniqueness(tdb.db, new Date(clock().getTime() - 10 * 86_400_000), { batchSize: 7 })
    expect(purged).toBeGreaterThan(100)
    expect(await count('uniqueness_browsers')).toBe(1)
    const [c] = await rows<{ n: number; neg: number }>(tdb.db, sql`select count(*)::int as n, count(*) filter (where browsers <= 0)::int as neg from uniqueness_counts`)
    // What is left: the one browser's population, combination and 7 attributes, one row each.
    expect(c).toEqual({ n: 9, neg: 0 })
    const next = (await post(app, '192.0.2.51', screenBody(1280, 1024))).u
    expect([next.population, next.fingerprint.browsers, next.meaningful]).toEqual([2, null, false])
  })
})

describe.each(testDrivers())('uniqueness under IP_TRUNCATE on %s', (driver) => {
  let tdb: TestDatabase
  beforeAll(async () => {
    tdb = await openTestDatabase(driver)
    dbOf = () => tdb.db
  }, HOOK_TIMEOUT_MS)
  afterAll(async () => {
    await tdb?.destroy()
  }, HOOK_TIMEOUT_MS)

  test('a browser is counted by the network the task stores (its /24), and nothing but hashes is kept', async () => {
    const app = listening((await buildTestApp(tdb.db, { trustedProxies: parseTrustedProxies('127.0.0.1'), ipTruncate: true })).app)
    const a = await post(app, '198.51.100.7', screenBody(1920, 1080))
    const b = await post(app, '198.51.100.99', screenBody(1920, 1080))
    await app.stop()
    expect([a.u.browser, b.u.browser, b.u.population]).toEqual(['new', 'seen before', 1])
    const stored = await rows<{ row: string }>(tdb.db, sql`select row_to_json(b)::text as row from uniqueness_browsers b`)
    expect(stored).toHaveLength(1)
    expect(stored[0]!.row).not.toContain('198.51.100')
    expect(stored[0]!.row).not.toContain('1920')
  })
})

describe.each(testDrivers())('uniqueness with the reference population (issue 59) on %s', (driver) => {
  let tdb: TestDatabase
  let app: App
  const reference = loadReferencePopulation()
  beforeAll(async () => {
    tdb = await openTestDatabase(driver)
    app = listening((await buildTestApp(tdb.db, { trustedProxies: parseTrustedProxies('127.0.0.1'), clock: fixedClock('2026-11-20T12:00:00Z'), uniqueness: { windowDays: 90, perRange: 4, reference } })).app)
    dbOf = () => tdb.db
  }, HOOK_TIMEOUT_MS)
  afterAll(async () => {
    await app?.stop()
    await tdb?.destroy()
  }, HOOK_TIMEOUT_MS)

  test("a new instance's first visit: bits and one in N from the dataset, named, and the report says so; what it lacks says so", async () => {
    const page = await (await fetch(`${base(app)}/tools/screen-display`, { headers: { 'x-forwarded-for': '192.0.2.10', 'user-agent': UA } })).text()
    const nonce = /data-nonce="([a-z2-7]{26})"/.exec(page)![1]!
    const body = { ...screenBody(1920, 1080), nonce }
    const { u } = await post(app, '192.0.2.10', body)
    expect([u.population, u.meaningful]).toEqual([1, false])
    expect(u.reference).toMatchObject({ name: 'fingerprint-generator', version: '2.1.88', date: '2026-05-04', fingerprints: 14192, instanceWeight: 0 })
    const size = attribute(u, 'screen.size')
    expect(size).toMatchObject({ source: 'reference', inReference: true, bound: false, browsers: null })
    expect(size.share).toBeGreaterThan(0.1)
    expect(size.share).toBeLessThan(0.5)
    expect(size.bits).toBe(Number((-Math.log2(size.referenceShare!)).toFixed(3)))
    // The whole fingerprint's one in N from the dataset, within what it covers.
    expect(u.fingerprint).toMatchObject({ source: 'reference', inReference: true, bound: false })
    expect(u.fingerprint.covered).toEqual(expect.arrayContaining(['screen.size', 'screen.available', 'screen.colorDepth', 'devicePixelRatio']))
    expect(u.fingerprint.oneIn).toBeGreaterThan(size.oneIn)
    // The dataset has no colour gamut: this instance's one browser alone, and it says so.
    expect(attribute(u, 'colorGamut')).toMatchObject({ source: 'instance', inReference: false, referenceShare: null, bound: true })
    // The person reads where each figure comes from.
    const res = await fetch(`${base(app)}/tools/screen-display/report`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': '192.0.2.10', 'user-agent': UA }, body: JSON.stringify(body) })
    const html = await res.text()
    expect(res.status).toBe(200)
    expect(html).toContain('Among the 14,192 real browsers of the fingerprint-generator 2.1.88 dataset (2026-05-04)')
    expect(html).toMatch(/<tr data-attribute="screen.size" data-rare="true" data-source="reference">[\s\S]*?fingerprint-generator \(14,192 real browsers\)/)
    expect(html).toMatch(/<tr data-attribute="colorGamut" data-rare="true" data-source="instance">[\s\S]*?not in the dataset/)
    expect(html).toContain('not yet meaningful')
  })

  test('the k-floor probe from one /24 gets the same figures whether or not another range has the value', async () => {
    const world = async (probed: [number, number], other: [number, number], asker: string, elsewhere: string) => {
      await post(app, elsewhere, screenBody(...other))
      for (let i = 1; i <= 4; i++) await post(app, `${asker}.${i}`, screenBody(...probed, 1 + i / 4))
      const { u } = await post(app, `${asker}.9`, screenBody(...probed, 3))
      const { name, label, shown, ...size } = attribute(u, 'screen.size')
      return { size, fingerprint: u.fingerprint }
    }
    const someone = await world([3001, 1999], [3001, 1999], '100.70.1', '100.80.1.9')
    const nobody = await world([3003, 1997], [3005, 1995], '100.70.2', '100.80.2.9')
    expect(someone.size).toMatchObject({ browsers: null, rare: true, source: 'reference', bound: true })
    expect(nobody).toEqual(someone)
  })
})
