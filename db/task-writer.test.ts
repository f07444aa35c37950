// taskWriter (db/tasks.ts), on each driver: tasks submitted while an insert runs are stored
// together in one statement, each exactly once with its own fields; a task the database refuses
// fails alone and the rest of its group is stored; the group limits hold; and when the database
// is unreachable every task of the group gets the error and nothing is tried again. And
// grouped() itself never leaves a call hanging.

import { describe, expect, test } from 'bun:test'
import { testDrivers } from '../tests/support/db'
import { useTestDatabase } from '../tests/support/db-suite'
import type { Db } from './client'
import { grouped } from './grouped'
import { countTasks, getTask, taskWriter, type NewTask } from './tasks'

let n = 0
const uuid = () => `00000000-0000-4000-8000-${(++n).toString(16).padStart(12, '0')}`

function task(i: number, over: Partial<NewTask> = {}): NewTask {
  return {
    id: uuid(),
    tool: 'ip-leak',
    score: i % 101,
    ipAddress: `192.0.2.${i % 256}`,
    userAgent: `UA "${i}" \\ ü`,
    results: { i, text: `a'b"c\\d\n${i}`, list: [i, null, { deep: true }] },
    createdAt: new Date(Date.UTC(2026, 10, 25, 12, 0, i % 60)),
    fingerprint: i % 2 ? `fp-${i}` : null,
    ...over,
  }
}

describe.each(testDrivers())('taskWriter on %s', (driver) => {
  let db: Db
  useTestDatabase(driver, (t) => (db = t.db))

  test('tasks submitted while an insert runs go in one statement, each stored once with its own fields', async () => {
    const groups: number[] = []
    const writer = taskWriter(db, { maxInFlight: 1, onGroup: (size) => groups.push(size) })
    const before = await countTasks(db)
    const tasks = Array.from({ length: 40 }, (_, i) => task(i))
    await Promise.all(tasks.map((t) => writer.insert(t)))
    // The first goes alone at once; the other 39 waited for it and go together.
    expect(groups).toEqual([1, 39])
    expect(await countTasks(db)).toBe(before + 40)
    for (const t of tasks) {
      const stored = await getTask(db, t.id)
      expect(stored).toEqual({
        task_id: t.id,
        tool: t.tool,
        score: t.score,
        ip_address: t.ipAddress,
        user_agent: t.userAgent,
        results: expect.any(String),
        created_at: t.createdAt.toISOString().replace(/\.\d{3}Z$/, '+00:00'),
      })
      expect(JSON.parse(stored!.results)).toEqual(t.results)
    }
  })

  test('one at a time, every task is inserted at once, alone', async () => {
    const groups: number[] = []
    const writer = taskWriter(db, { onGroup: (size) => groups.push(size) })
    for (let i = 0; i < 5; i++) await writer.insert(task(i))
    expect(groups).toEqual([1, 1, 1, 1, 1])
  })

  test('a task the database refuses fails alone; the rest of its group is stored once each', async () => {
    const groups: number[] = []
    const writer = taskWriter(db, { maxInFlight: 1, onGroup: (size) => groups.push(size) })
    const before = await countTasks(db)
    const good = Array.from({ length: 9 }, (_, i) => task(i))
    // Outside the table's score range (tasks_score_range): PostgreSQL refuses the row.
    const bad = task(99, { score: 101 })
    const all = [good[0]!, ...good.slice(1, 5), bad, ...good.slice(5)]
    const settled = await Promise.allSettled(all.map((t) => writer.insert(t)))
    expect(settled.map((s) => s.status)).toEqual(all.map((t) => (t === bad ? 'rejected' : 'fulfilled')))
    expect(String((settled[5] as PromiseRejectedResult).reason)).toContain('tasks_score_range')
    expect(groups).toEqual([1, 9])
    expect(await countTasks(db)).toBe(before + 9)
    for (const t of good) expect((await getTask(db, t.id))?.score).toBe(t.score)
    expect(await getTask(db, bad.id)).toBeNull()
  })

  test('a group holds at most maxGroup tasks and maxSize characters of results (a larger task goes alone)', async () => {
    const groups: number[] = []
    const writer = taskWriter(db, { maxInFlight: 1, maxGroup: 5, onGroup: (size) => groups.push(size) })
    await Promise.all(Array.from({ length: 13 }, (_, i) => writer.insert(task(i))))
    expect(groups).toEqual([1, 5, 5, 2])

    const sized: number[] = []
    const small = (i: number) => task(i, { results: { pad: 'x'.repeat(80) } })
    const big = task(7, { results: { pad: 'y'.repeat(500) } })
    const capped = taskWriter(db, { maxInFlight: 1, maxSize: 300, onGroup: (size) => sized.push(size) })
    // About 90 characters each: three fit in 300, a fourth does not; the big one is over the cap alone.
    await Promise.all([small(0), small(1), small(2), small(3), small(4), big, small(5)].map((t) => capped.insert(t)))
    expect(sized).toEqual([1, 3, 1, 1, 1])
  })
})

describe('taskWriter when the database is unreachable', () => {
  test('every task of the group gets the error; nothing is tried again', async () => {
    let statements = 0
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })
    // rawRows's PGlite branch: an object with query().
    const db = { $client: { query: async () => { statements++; throw refused } } } as unknown as Db
    const writer = taskWriter(db, { maxInFlight: 1 })
    const settled = await Promise.allSettled(Array.from({ length: 6 }, (_, i) => writer.insert(task(i))))
    expect(settled.every((s) => s.status === 'rejected' && s.reason === refused)).toBe(true)
    // One alone, then the five that waited in one statement: two statements, no retries.
    expect(statements).toBe(2)
  })
})

describe('grouped', () => {
  test('a call its group leaves unanswered is rejected, not left hanging; the answered ones keep their answer', async () => {
    const call = grouped<number, number>(async (group) => {
      for (const p of group) if (p.item % 2 === 0) p.resolve(p.item * 10)
    })
    const settled = await Promise.allSettled([0, 1, 2, 3].map((i) => call(i)))
    expect(settled.map((s) => (s.status === 'fulfilled' ? s.value : 'rejected'))).toEqual([0, 'rejected', 20, 'rejected'])
  })
})
