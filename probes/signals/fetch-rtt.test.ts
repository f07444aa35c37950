import { describe, expect, test } from 'bun:test'
import { median } from './fetch-rtt'

describe('median', () => {
  test('takes the middle of an odd count and the mean of the middle pair otherwise', () => {
    expect(median([5, 1, 3])).toBe(3)
    expect(median([4, 1, 3, 2])).toBe(2.5)
  })
  test('ignores one outlier that a mean would not', () => {
    expect(median([2, 2.1, 1.9, 2, 250])).toBe(2)
  })
  test('is null for no samples', () => {
    expect(median([])).toBeNull()
  })
})
