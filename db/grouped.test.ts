import { describe, expect, test } from 'bun:test'
import { grouped, type Pending } from './grouped'

/** A `grouped` whose statements finish when the test says so; records every group's items. */
function controlled(options: Parameters<typeof grouped<number, number>>[1] = {}) {
  const groups: number[][] = []
  const finish: Array<() => void> = []
  const call = grouped<number, number>(
    (group: Array<Pending<number, number>>) =>
      new Promise<void>((done) => {
        groups.push(group.map((p) => p.item))
        finish.push(() => {
          for (const p of group) p.resolve(p.item * 10)
          done()
        })
      }),
    options,
  )
  return { call, groups, finish }
}

const turn = () => new Promise((r) => setTimeout(r, 0))

describe('grouped statements', () => {
  test('a lone call starts at once', async () => {
    const { call, groups, finish } = controlled()
    const answer = call(1)
    expect(groups).toEqual([[1]])
    finish[0]!()
    expect(await answer).toBe(10)
  })

  test('while a statement runs, another starts only once minGroup calls wait', async () => {
    const { call, groups, finish } = controlled({ maxInFlight: 4, minGroup: 8 })
    const answers = [call(0)]
    for (let i = 1; i <= 7; i++) answers.push(call(i))
    // Seven wait: fewer than eight, so no second statement beside the first.
    expect(groups).toEqual([[0]])
    answers.push(call(8))
    expect(groups).toEqual([[0], [1, 2, 3, 4, 5, 6, 7, 8]])
    for (let i = 9; i <= 11; i++) answers.push(call(i))
    // The first statement ends; the second still runs and only three wait: they keep waiting.
    finish[0]!()
    await turn()
    expect(groups.length).toBe(2)
    // Nothing runs any more: the three go at once.
    finish[1]!()
    await turn()
    expect(groups).toEqual([[0], [1, 2, 3, 4, 5, 6, 7, 8], [9, 10, 11]])
    finish[2]!()
    expect(await Promise.all(answers)).toEqual(Array.from({ length: 12 }, (_, i) => i * 10))
  })

  test('minGroup 1 starts a statement for every call while fewer than maxInFlight run', () => {
    const { call, groups } = controlled({ maxInFlight: 3, minGroup: 1 })
    for (let i = 0; i < 5; i++) void call(i)
    expect(groups).toEqual([[0], [1], [2]])
  })

  test('minGroup is at most maxGroup: full groups always start', () => {
    const { call, groups } = controlled({ maxInFlight: 2, maxGroup: 4, minGroup: 8 })
    for (let i = 0; i < 5; i++) void call(i)
    expect(groups).toEqual([[0], [1, 2, 3, 4]])
  })
})
