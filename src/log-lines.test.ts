import { describe, expect, test } from 'bun:test'
import { gatheredLines } from './log-lines'

const turn = () => new Promise((r) => setImmediate(r))

describe('gathered log lines', () => {
  test('lines of one event-loop turn go out in one write, in order, one line each', async () => {
    const writes: string[] = []
    const out = gatheredLines((c) => writes.push(c))
    out.line('a')
    out.line('b')
    expect(writes).toEqual([])
    await turn()
    expect(writes).toEqual(['a\nb\n'])
    out.line('c')
    await turn()
    expect(writes).toEqual(['a\nb\n', 'c\n'])
    await turn()
    expect(writes).toHaveLength(2)
  })

  test('past the size bound the lines are written at once', () => {
    const writes: string[] = []
    const out = gatheredLines((c) => writes.push(c), 10)
    out.line('12345')
    expect(writes).toEqual([])
    out.line('67890')
    expect(writes).toEqual(['12345\n67890\n'])
  })

  test('take hands over what is left and nothing is written twice', async () => {
    const writes: string[] = []
    const out = gatheredLines((c) => writes.push(c))
    out.line('last')
    expect(out.take()).toBe('last\n')
    await turn()
    expect(writes).toEqual([])
    out.flush()
    expect(writes).toEqual([])
  })
})
