// Geometry of the small line plots in the reports (audio-fingerprint's signal, envelope and
// spectrum): values to SVG polyline points in a box. Numbers only; src/pages/pictures writes
// the markup.

export interface PlotBox {
  width: number
  height: number
  /** Value at the bottom and at the top of the box. */
  min: number
  max: number
}

const r = (n: number) => Math.round(n * 10) / 10

/** Y of a value in the box, clamped to it. */
export function yOf(v: number, box: PlotBox): number {
  const t = box.max === box.min ? 0.5 : (Math.min(box.max, Math.max(box.min, v)) - box.min) / (box.max - box.min)
  return r(box.height - t * box.height)
}

/** "x,y x,y …": the values spread evenly from the left edge to the right one. */
export function polylinePoints(values: readonly number[], box: PlotBox): string {
  if (!values.length) return ''
  const dx = values.length > 1 ? box.width / (values.length - 1) : 0
  return values.map((v, i) => `${r(i * dx)},${yOf(v, box)}`).join(' ')
}
