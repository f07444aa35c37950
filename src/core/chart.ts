// Geometry of the dashboard's "requests per day" bar chart: numbers only, so the SVG markup in
// src/pages/usage-chart.tsx has nothing to compute and the arithmetic is tested here.

export interface ChartSize {
  width: number
  height: number
}

export interface Bar {
  /** 1-based day of the month. */
  day: number
  value: number
  x: number
  y: number
  width: number
  height: number
}

export interface BarChart extends ChartSize {
  /** Top of the value axis: a round number at or above the largest value. */
  max: number
  plot: { left: number; top: number; right: number; bottom: number }
  bars: Bar[]
  /** Horizontal guide lines with their values, bottom first. */
  gridlines: Array<{ value: number; y: number }>
  /** Days that get a label under the axis: the 1st and every 5th. */
  dayLabels: Array<{ day: number; x: number }>
}

const AXIS_LEFT = 34
const AXIS_BOTTOM = 18
const PAD_TOP = 8
const PAD_RIGHT = 4
const BAR_FILL = 0.7

const round = (n: number) => Math.round(n * 100) / 100

/** The smallest of 1, 2, 5, 10, 20, 50, … that is at least n (1 for n ≤ 1). */
export function niceCeiling(n: number): number {
  if (!(n > 1)) return 1
  const power = 10 ** Math.floor(Math.log10(n))
  for (const step of [1, 2, 5, 10]) {
    if (step * power >= n) return step * power
  }
  return 10 * power
}

/** Adds per-key daily counts into one list of `days` totals; missing days count 0. */
export function sumByDay(lists: ReadonlyArray<readonly number[]>, days: number): number[] {
  const total = Array<number>(days).fill(0)
  for (const list of lists) {
    for (let d = 0; d < days; d++) total[d]! += list[d] ?? 0
  }
  return total
}

export function dailyBarChart(daily: readonly number[], days: number, size: ChartSize): BarChart {
  const plot = { left: AXIS_LEFT, top: PAD_TOP, right: size.width - PAD_RIGHT, bottom: size.height - AXIS_BOTTOM }
  const plotHeight = plot.bottom - plot.top
  const slot = (plot.right - plot.left) / days
  const values = Array.from({ length: days }, (_, i) => Math.max(0, daily[i] ?? 0))
  const max = niceCeiling(Math.max(0, ...values))
  const bars = values.map((value, i) => {
    // A day with any use stays visible next to a day with thousands.
    const h = value === 0 ? 0 : Math.max(1, (value / max) * plotHeight)
    return {
      day: i + 1,
      value,
      x: round(plot.left + i * slot + (slot * (1 - BAR_FILL)) / 2),
      y: round(plot.bottom - h),
      width: round(slot * BAR_FILL),
      height: round(h),
    }
  })
  const gridValues = max >= 2 ? [0, max / 2, max] : [0, max]
  const gridlines = gridValues.map((value) => ({ value, y: round(plot.bottom - (value / max) * plotHeight) }))
  const dayLabels = bars
    .filter((b) => b.day === 1 || b.day % 5 === 0)
    .map((b) => ({ day: b.day, x: round(b.x + b.width / 2) }))
  return { ...size, max, plot, bars, gridlines, dayLabels }
}
