import { describe, expect, test } from 'bun:test'
import { dailyBarChart, niceCeiling, sumByDay } from './chart'

const size = { width: 640, height: 160 }

describe('niceCeiling', () => {
  test('rounds up to 1, 2 or 5 times a power of ten', () => {
    expect([0, 1, 2, 3, 6, 10, 11, 23, 51, 999, 1000, 1001].map(niceCeiling)).toEqual([1, 1, 2, 5, 10, 10, 20, 50, 100, 1000, 1000, 2000])
  })

  test('treats negative and non-numbers as an empty chart', () => {
    expect(niceCeiling(-5)).toBe(1)
    expect(niceCeiling(Number.NaN)).toBe(1)
  })
})

describe('sumByDay', () => {
  test('adds the keys day by day', () => {
    expect(sumByDay([[1, 0, 2], [0, 3]], 4)).toEqual([1, 3, 2, 0])
  })

  test('has one entry per day even with no keys', () => {
    expect(sumByDay([], 30)).toEqual(Array(30).fill(0))
  })

  test('ignores counts beyond the month', () => {
    expect(sumByDay([[1, 1, 1, 1]], 2)).toEqual([1, 1])
  })
})

describe('dailyBarChart', () => {
  test('has one bar per day of the month', () => {
    expect(dailyBarChart([], 30, size).bars.map((b) => b.day)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1))
    expect(dailyBarChart([], 28, size).bars).toHaveLength(28)
  })

  test('an empty month draws no bar above the axis', () => {
    const c = dailyBarChart([], 31, size)
    expect(c.max).toBe(1)
    for (const b of c.bars) {
      expect(b.height).toBe(0)
      expect(b.y).toBe(c.plot.bottom)
    }
  })

  test('a bar at the top of the scale fills the plot height', () => {
    const c = dailyBarChart([5, 10], 30, size)
    expect(c.max).toBe(10)
    const [half, full] = c.bars
    expect(full!.y).toBe(c.plot.top)
    expect(full!.height).toBe(c.plot.bottom - c.plot.top)
    expect(half!.height).toBeCloseTo((c.plot.bottom - c.plot.top) / 2, 1)
  })

  test('a day with one use next to a busy day stays visible', () => {
    const c = dailyBarChart([1, 100000], 30, size)
    expect(c.bars[0]!.height).toBeGreaterThanOrEqual(1)
  })

  test('bars sit inside the plot, left to right, without overlapping', () => {
    const c = dailyBarChart([3, 1, 4, 1, 5, 9, 2, 6], 31, size)
    let lastRight = c.plot.left
    for (const b of c.bars) {
      expect(b.x).toBeGreaterThanOrEqual(lastRight)
      expect(b.y).toBeGreaterThanOrEqual(c.plot.top)
      expect(b.y + b.height).toBeCloseTo(c.plot.bottom, 1)
      lastRight = b.x + b.width
    }
    expect(lastRight).toBeLessThanOrEqual(c.plot.right)
  })

  test('gridlines mark zero, half and the top of the scale', () => {
    const c = dailyBarChart([7], 30, size)
    expect(c.gridlines.map((g) => g.value)).toEqual([0, 5, 10])
    expect(c.gridlines[0]!.y).toBe(c.plot.bottom)
    expect(c.gridlines[2]!.y).toBe(c.plot.top)
  })

  test('labels the 1st and every 5th day under its bar', () => {
    const c = dailyBarChart([], 31, size)
    expect(c.dayLabels.map((l) => l.day)).toEqual([1, 5, 10, 15, 20, 25, 30])
    const bar5 = c.bars[4]!
    expect(c.dayLabels[1]!.x).toBeCloseTo(bar5.x + bar5.width / 2, 1)
  })
})
