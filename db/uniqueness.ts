// How identifying a browser is (issue 48): the counts behind src/core/uniqueness.ts, kept in
// PostgreSQL so that every instance sees the same figures.
//
// - Before judging, countsBefore reads in one statement every counted value's browsers, the
//   population and the combination, how many of those are the asker's own range's (the k floor
//   counts only the others: src/core/uniqueness.ts), whether this browser is counted, and its range's count
//   (and makes sure the range's row exists, so that the recording below can lock it).
// - The task's insert statement records the sighting (SIGHTING_CTES, after a CTE `t` that
//   inserted the task): nothing is counted unless the task is stored. A browser already counted
//   has its last sighting moved forward (at most hourly); a new one is added, with a count for
//   every value it has, only while its range has room: the range's row is locked first (FOR
//   UPDATE re-reads it after any concurrent writer), so the flood bound is exact across
//   connections and instances. Two stores of one new browser racing each other add it once
//   (the browser's primary key; the loser's insert does nothing, and so counts nothing).
// - Locks are taken in one order everywhere: the browser row, its range, then the counts sorted
//   by name and value; the purge takes browser rows it can (SKIP LOCKED), then ranges and
//   counts sorted: no two statements wait on each other in a circle.
// - purgeUniqueness (maintenance, hourly) deletes browsers not seen in the window and takes them
//   off the counts; counts and ranges that reach zero are deleted (skipping rows in use).

import { rawRows, type Db } from './client'
import { COMBINATION, POPULATION, type CountsBefore, type SightingKeys } from '../src/core/uniqueness'

/** What the task's insert records, with SIGHTING_PARAMS's order. */
export interface Sighting {
  tool: string
  keys: SightingKeys
  names: string[]
  values: string[]
  seen: Date
  perRange: number
}

/** The lists travel as one text each: names and hex hashes hold no commas. */
const list = (xs: string[]) => xs.join(',')

/** The sighting's parameters, in the order SIGHTING_CTES numbers them from its offset. */
export function sightingParams(s: Sighting): unknown[] {
  return [s.tool, s.keys.browser, s.keys.range, s.keys.shard, list(s.names), list(s.values), s.seen.toISOString(), s.perRange]
}

/** The CTEs that record a sighting after a CTE `t` returning the stored task; parameters from `$o+1`. */
export function sightingCtes(o: number): string {
  const p = (i: number) => `$${o + i}`
  return `
  s as (select ${p(1)}::text as tool, ${p(2)}::text as browser, ${p(3)}::text as range, ${p(4)}::int2 as shard,
               string_to_array(${p(5)}::text, ',') as names, string_to_array(${p(6)}::text, ',') as vals, ${p(7)}::timestamptz as seen
        from t),
  known as (select b.browser from uniqueness_browsers b, s where b.tool = s.tool and b.browser = s.browser),
  touch as (update uniqueness_browsers b set last_seen = s.seen from s
            where b.tool = s.tool and b.browser = s.browser and b.last_seen < s.seen - interval '1 hour' returning 1),
  rng as (select r.browsers from uniqueness_ranges r, s
          where r.tool = s.tool and r.range = s.range and not exists (select 1 from known) for update of r),
  nb as (insert into uniqueness_browsers (tool, browser, range, shard, names, vals, last_seen)
         select tool, browser, range, shard, names, vals, seen from s
         where not exists (select 1 from known) and coalesce((select browsers from rng), 0) < ${p(8)}::int
         on conflict (tool, browser) do nothing
         returning tool, range, shard, names, vals),
  nr as (insert into uniqueness_ranges (tool, range, browsers, created_at) select tool, range, 1, ${p(7)}::timestamptz from nb
         on conflict (tool, range) do update set browsers = uniqueness_ranges.browsers + 1 returning 1),
  nc as (insert into uniqueness_counts (tool, name, value, shard, browsers)
         select nb.tool, a.name, a.value, nb.shard, 1 from nb, unnest(nb.names, nb.vals) as a(name, value)
         order by a.name, a.value
         on conflict (tool, name, value, shard) do update set browsers = uniqueness_counts.browsers + 1 returning 1)`
}

export const SIGHTING_PARAM_COUNT = 8

/** Whether the statement's sighting added a new browser (the main query selects it as `added`). */
export const SIGHTING_ADDED = `(select count(*) from nb)::int as added`

export const COUNTS_BEFORE = `
  with ensure as (insert into uniqueness_ranges (tool, range, browsers, created_at)
                  values ($1::text, $5::text, 0, $6::timestamptz) on conflict do nothing)
  select a.name, coalesce(sum(c.browsers), 0)::int as browsers
  from unnest(string_to_array($2::text, ','), string_to_array($3::text, ',')) as a(name, value)
  left join uniqueness_counts c on c.tool = $1::text and c.name = a.name and c.value = a.value
  group by a.name
  union all
  select concat('~own:', a.name), count(*)::int
  from uniqueness_browsers b, unnest(b.names, b.vals) as a(name, value)
  where b.tool = $1::text and b.range = $5::text
    and (a.name, a.value) in (select * from unnest(string_to_array($2::text, ','), string_to_array($3::text, ',')))
  group by a.name
  union all
  select '~self', count(*)::int from uniqueness_browsers where tool = $1::text and browser = $4::text
  union all
  select '~range', coalesce((select browsers from uniqueness_ranges where tool = $1::text and range = $5::text), 0)`

/** The counts a submission is judged against: one statement, whatever the number of attributes. */
export async function countsBefore(db: Db, args: { tool: string; keys: SightingKeys; names: string[]; values: string[]; now: Date }): Promise<CountsBefore> {
  const found = await rawRows<{ name: string; browsers: number }>(db, COUNTS_BEFORE, [
    args.tool,
    list(args.names),
    list(args.values),
    args.keys.browser,
    args.keys.range,
    args.now.toISOString(),
  ])
  const browsers: Record<string, number> = { [POPULATION]: 0, [COMBINATION]: 0 }
  const ownRange: Record<string, number> = {}
  let counted = false
  let rangeBrowsers = 0
  for (const r of found) {
    if (r.name === '~self') counted = Number(r.browsers) > 0
    else if (r.name === '~range') rangeBrowsers = Number(r.browsers)
    else if (r.name.startsWith('~own:')) ownRange[r.name.slice(5)] = Number(r.browsers)
    else browsers[r.name] = Number(r.browsers)
  }
  return { browsers, ownRange, counted, rangeBrowsers }
}

/** The uniqueness a stored task was given, by the page nonce that stored it (the page's report). */
export async function storedUniqueness(db: Db, nonce: string): Promise<unknown> {
  const [row] = await rawRows<{ u: string | null }>(
    db,
    `select (t.results -> 'uniqueness')::text as u from page_nonces n join tasks t on t.id = n.task_id where n.nonce = $1::text`,
    [nonce],
  )
  return row?.u ? JSON.parse(row.u) : undefined
}

export const PURGE = `
  with gone as (
    delete from uniqueness_browsers b
    where (b.tool, b.browser) in (select tool, browser from uniqueness_browsers where last_seen < $1::timestamptz
                                  order by last_seen limit $2::int for update skip locked)
    returning b.tool, b.range, b.shard, b.names, b.vals),
  dr as (insert into uniqueness_ranges (tool, range, browsers, created_at)
         select tool, range, -count(*)::int, $1::timestamptz from gone group by tool, range order by tool, range
         on conflict (tool, range) do update set browsers = uniqueness_ranges.browsers + excluded.browsers
         returning 1),
  dc as (insert into uniqueness_counts (tool, name, value, shard, browsers)
         select g.tool, a.name, a.value, g.shard, -count(*)::int
         from gone g, unnest(g.names, g.vals) as a(name, value)
         where (select count(*) from dr) >= 0
         group by 1, 2, 3, 4 order by 1, 2, 3, 4
         on conflict (tool, name, value, shard) do update set browsers = uniqueness_counts.browsers + excluded.browsers
         returning tool, name, value, shard, browsers)
  select (select count(*) from gone)::int as browsers,
         coalesce((select string_agg(concat_ws(',', tool, name, value, shard), ';') from dc where browsers <= 0), '') as zero`

export const DELETE_ZERO_COUNTS = `
  delete from uniqueness_counts c
  where (c.tool, c.name, c.value, c.shard) in (
    select c2.tool, c2.name, c2.value, c2.shard from uniqueness_counts c2,
      (select split_part(z, ',', 1) as tool, split_part(z, ',', 2) as name, split_part(z, ',', 3) as value, split_part(z, ',', 4)::int2 as shard
       from unnest(string_to_array($1::text, ';')) as z) k
    where c2.tool = k.tool and c2.name = k.name and c2.value = k.value and c2.shard = k.shard and c2.browsers <= 0
    for update of c2 skip locked)`

export const DELETE_EMPTY_RANGES = `
  delete from uniqueness_ranges r
  where (r.tool, r.range) in (select tool, range from uniqueness_ranges where browsers <= 0 and created_at < $1::timestamptz
                              order by created_at limit $2::int for update skip locked)
    and r.browsers <= 0`

/**
 * Deletes the browsers last seen before `before` and takes them off the counts, in batches;
 * then the counts that reached zero, and ranges without browsers created before `before`.
 * Returns the browsers deleted.
 */
export async function purgeUniqueness(db: Db, before: Date, o: { batchSize?: number | undefined; pause?: () => Promise<void> } = {}): Promise<number> {
  const batch = o.batchSize ?? 1000
  let total = 0
  for (;;) {
    const [row] = await rawRows<{ browsers: number; zero: string }>(db, PURGE, [before.toISOString(), batch])
    const n = Number(row?.browsers ?? 0)
    total += n
    if (row?.zero) await rawRows(db, DELETE_ZERO_COUNTS, [row.zero])
    if (n < batch) break
    await o.pause?.()
  }
  for (;;) {
    const gone = await rawRows<{ one: number }>(db, `${DELETE_EMPTY_RANGES} returning 1 as one`, [before.toISOString(), batch])
    if (gone.length < batch) break
  }
  return total
}
