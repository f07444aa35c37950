import { describe, expect, test } from 'bun:test'
import { readTwice } from './read-twice'

describe('readTwice', () => {
  test('keeps one value when both reads agree, whatever the key order', async () => {
    let n = 0
    const read = readTwice(() => (n++ === 0 ? { a: 1, b: [1, 2] } : { b: [1, 2], a: 1 }))
    expect(await read()).toEqual({ value: { a: 1, b: [1, 2] } })
  })
  test('reports the second value when the reads differ (noise)', async () => {
    let n = 0
    const read = readTwice(async () => ({ sum: 124.04347527516074 + n++ * 1e-9 }))
    const r = await read()
    expect(r.again).toBeDefined()
    expect(r.again!.sum).not.toBe(r.value.sum)
  })
  test('lets an error of the first read through to the collector', async () => {
    const read = readTwice(() => {
      throw new Error('no canvas')
    })
    await expect(read()).rejects.toThrow('no canvas')
  })
})
