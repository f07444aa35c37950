// "Requests per day" for the current month, as a small inline SVG drawn on the server. The
// geometry comes from src/core/chart.ts; this file only writes it out. The chart is an image
// named by its <title> and described by the summary printed under it; each bar has a tooltip.

import { dailyBarChart } from '../core/chart'
import { dayOfMonth, daysInMonth } from '../core/month'

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December']
const SIZE = { width: 640, height: 150 }

export function monthTitle(now: Date): string {
  return `${MONTHS[now.getUTCMonth()]} ${now.getUTCFullYear()}`
}

const requests = (n: number) => `${n} ${n === 1 ? 'request' : 'requests'}`

export function usageSummary(daily: readonly number[], now: Date): string {
  const total = daily.reduce((a, b) => a + b, 0)
  if (total === 0) return `No requests counted yet in ${monthTitle(now)}.`
  let busiest = 0
  daily.forEach((n, i) => {
    if (n > daily[busiest]!) busiest = i
  })
  return `${requests(total)} in ${monthTitle(now)}; the busiest day was ${busiest + 1} ${MONTHS[now.getUTCMonth()]} with ${requests(daily[busiest]!)}.`
}

export function UsageChart(props: { daily: readonly number[]; now: Date }): JSX.Element {
  const { now } = props
  const days = daysInMonth(now)
  const today = dayOfMonth(now)
  const chart = dailyBarChart(props.daily, days, SIZE)
  const month = MONTHS[now.getUTCMonth()]!
  const summary = usageSummary(props.daily.slice(0, days), now)
  return (
    <figure class="usage-chart">
      <svg
        viewBox={`0 0 ${chart.width} ${chart.height}`}
        width={String(chart.width)}
        height={String(chart.height)}
        role="img"
        aria-labelledby="usage-chart-title"
        aria-describedby="usage-chart-caption"
        xmlns="http://www.w3.org/2000/svg"
      >
        <title id="usage-chart-title" safe>
          {`Requests per day, ${monthTitle(now)}`}
        </title>
        {chart.gridlines.map((g) => (
          <>
            <line class="grid" x1={String(chart.plot.left)} x2={String(chart.plot.right)} y1={String(g.y)} y2={String(g.y)} />
            <text class="axis" x={String(chart.plot.left - 6)} y={String(g.y + 4)} text-anchor="end">
              {g.value}
            </text>
          </>
        ))}
        {chart.bars.map((b) => (
          <rect class={b.day === today ? 'day today' : b.day > today ? 'day future' : 'day'} x={String(b.x)} y={String(b.y)} width={String(b.width)} height={String(b.height)}>
            <title safe>{`${b.day} ${month}: ${requests(b.value)}`}</title>
          </rect>
        ))}
        {chart.bars
          .filter((b) => b.day === today)
          .map((b) => (
            <rect class="today-mark" x={String(b.x)} y={String(chart.plot.bottom + 1)} width={String(b.width)} height="3" />
          ))}
        {chart.dayLabels.map((l) => (
          <text class="axis" x={String(l.x)} y={String(chart.height - 4)} text-anchor="middle">
            {l.day}
          </text>
        ))}
      </svg>
      <figcaption class="muted" id="usage-chart-caption" safe>
        {`${summary} Days are UTC; today is underlined.`}
      </figcaption>
    </figure>
  )
}
