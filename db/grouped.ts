// Statements grouped when calls come faster than the database answers them: the service's two
// hot paths (the task insert, the keyed fetch) each run at most `maxInFlight` statements at a
// time, and the calls that arrive meanwhile wait for the next statement, which serves all of
// them at once. When calls come one at a time, each runs at once, alone; under load, PostgreSQL
// parses, plans and commits once for many calls, and the service sends and reads one message
// instead of many (docs/performance.md has the figures).
//
// While a statement runs, another starts only once `minGroup` calls wait for it: a statement
// costs PostgreSQL about as much for one row as for several (measured on this project's machine:
// ~110 µs of its CPU for an insert of one task, ~45 µs a task in fours, ~25 in sixteens), so
// under load the calls are better served in a few full statements than in many small ones. When
// nothing runs, the first call goes at once, so a lone call never waits.

import { isDatabaseUnavailable } from './unavailable'

export interface Pending<I, O> {
  item: I
  resolve(value: O): void
  reject(error: unknown): void
}

export interface GroupOptions<I> {
  /**
   * Statements running at once (default 4: PostgreSQL works on two groups per core of this
   * project's machine while the service reads the others' answers); the rest of the pool (10)
   * stays free for everything else.
   */
  maxInFlight?: number
  /** Calls in one group at most (default 64). */
  maxGroup?: number
  /**
   * Calls that must wait before a statement starts beside one already running (default 8; when
   * none runs, any call starts one at once).
   */
  minGroup?: number
  /** Whether `item` may join a group that starts with `first` (default: always). */
  joins?: (first: I, item: I) => boolean
  /** The size of an item, and the most a group may hold: an item over it still goes alone. */
  size?: (item: I) => number
  maxSize?: number
  /** Told the size of every group started (tests, and anyone who wants to watch). */
  onGroup?: (size: number) => void
}

/**
 * A function of one item that runs `run` on groups of waiting items. `run` settles every pending
 * call of its group; a call it leaves unsettled, or a throw, rejects the calls left (a promise
 * settled once stays as it was, so this touches only those).
 * Items that may not join a group (`joins`, or past the group's size) keep their place in line.
 */
export function grouped<I, O>(run: (group: Array<Pending<I, O>>) => Promise<void>, options: GroupOptions<I> = {}): (item: I) => Promise<O> {
  const maxInFlight = options.maxInFlight ?? 4
  const maxGroup = options.maxGroup ?? 64
  const minGroup = Math.min(options.minGroup ?? 8, maxGroup)
  const maxSize = options.maxSize ?? Number.POSITIVE_INFINITY
  const { joins, size } = options
  let waiting: Array<Pending<I, O>> = []
  let inFlight = 0
  const take = (): Array<Pending<I, O>> => {
    const first = waiting[0]!.item
    if (!joins && !size && waiting.length <= maxGroup) {
      const all = waiting
      waiting = []
      return all
    }
    const group: Array<Pending<I, O>> = []
    const rest: Array<Pending<I, O>> = []
    let total = 0
    let full = false
    for (const p of waiting) {
      // An item that may not join stays in line for a later group; once the group is full,
      // every item after it does (so the line keeps its order).
      if (full || (group.length > 0 && joins && !joins(first, p.item))) {
        rest.push(p)
        continue
      }
      const s = size ? size(p.item) : 0
      if (group.length > 0 && (group.length >= maxGroup || total + s > maxSize)) {
        full = true
        rest.push(p)
        continue
      }
      group.push(p)
      total += s
    }
    waiting = rest
    return group
  }
  const next = () => {
    while (inFlight < maxInFlight && waiting.length > 0 && (inFlight === 0 || waiting.length >= minGroup)) {
      const group = take()
      inFlight++
      options.onGroup?.(group.length)
      run(group)
        .then(() => {
          // A call `run` left unsettled would hang its request: it gets an error instead (made
          // only for such a call: an Error's stack costs microseconds, every call of every group).
          for (const p of group) if (!settled.has(p)) p.reject(new Error('a grouped statement gave no answer for this call'))
        })
        .catch((e: unknown) => {
          for (const p of group) p.reject(e)
        })
        .finally(() => {
          inFlight--
          next()
        })
    }
  }
  // The calls settled so far: `run` may settle a call it was given, or the grouping does.
  const settled = new WeakSet<Pending<I, O>>()
  return (item) =>
    new Promise<O>((resolve, reject) => {
      const p: Pending<I, O> = {
        item,
        resolve: (value) => {
          settled.add(p)
          resolve(value)
        },
        reject: (error) => {
          settled.add(p)
          reject(error)
        },
      }
      waiting.push(p)
      next()
    })
}

/**
 * `grouped` for a database statement. A call alone runs `one`. A group runs `many`, which
 * answers the calls it can and returns those to be run alone instead (in order, one after
 * another: each then sees what those before it did). When `many` throws — before answering any
 * call — an unreachable database fails every call of the group (its statement did nothing), and
 * any other error runs each call alone, so a call the database refuses fails alone.
 */
export function groupedStatements<I, O>(
  one: (item: I) => Promise<O>,
  many: (group: Array<Pending<I, O>>) => Promise<Array<Pending<I, O>>>,
  options: GroupOptions<I> = {},
): (item: I) => Promise<O> {
  const alone = (p: Pending<I, O>) => one(p.item).then(p.resolve, p.reject)
  return grouped<I, O>(async (group) => {
    if (group.length === 1) return alone(group[0]!)
    let again: Array<Pending<I, O>>
    try {
      again = await many(group)
    } catch (e) {
      if (isDatabaseUnavailable(e)) for (const p of group) p.reject(e)
      else await Promise.all(group.map(alone))
      return
    }
    for (const p of again) await alone(p)
  }, options)
}

/** A statement text per group size, built the first time a size comes. */
export function textPerSize(build: (n: number) => string): (n: number) => string {
  const texts: string[] = []
  return (n) => (texts[n] ??= build(n))
}
