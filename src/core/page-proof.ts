// The server's side of the page proof (common/page-proof.ts, issue 56): lays the challenge of a
// page load's nonce out with its own model of the CSS it uses, and compares what the page sent.
// The model covers exactly the generator's grammar: block flow with sibling margins collapsing
// (container padding keeps them from collapsing through an edge), widths in px, %, calc() and
// max-width under both box-sizing values; flex rows (no wrap, no shrink) growing or justified and
// aligned; grids of px and minmax(0, fr) tracks with gaps, items placed row by row, stretched or
// justified; absolute boxes against their positioned container's padding box; relative shifts
// and transforms (translate, quarter and half turns, scale) of a box's bounding rectangle.

import { proofChallenge, PROOF_VERSION, type Challenge, type Container, type Leaf, type Width } from '../../common/page-proof'
import type { ProofState } from './tools/observation'

type Rect = [number, number, number, number]

/** A box within this many CSS px (each of x, y, width, height) is where the engine put it: rounding and sub-pixel layout units. */
export const PROOF_TOLERANCE_PX = 1
/** Boxes per ten that may be off and the answer still hold: an engine's quirk in one feature must not fail a person. */
const OFF_PER_TEN = 1

function widthOf(w: Width | null, containerWidth: number): number | null {
  if (w === null) return null
  if ('px' in w) return w.px
  const pct = (containerWidth * w.pct) / 100
  return 'minus' in w ? pct - w.minus : pct
}

/** A leaf's border-box width in block flow or an absolute box (null width: the container's width less margins). */
function blockWidth(box: Leaf | Container, containerWidth: number): number {
  const [, mr, , ml] = box.margin
  const [, pr, , pl] = box.padding
  if (box.kind !== 'leaf' || box.width === null) return Math.max(pl + pr, containerWidth - ml - mr)
  let width = widthOf(box.width, containerWidth)!
  if (box.maxWidth !== null) width = Math.min(width, box.maxWidth)
  width = Math.max(0, width)
  return box.borderBox ? Math.max(width, pl + pr) : width + pl + pr
}

const leafHeight = (l: Leaf) => (l.borderBox ? Math.max(l.height, l.padding[0] + l.padding[2]) : l.height + l.padding[0] + l.padding[2])

/** Lays a challenge out; each box's [x, y, width, height] (relative to the root's border box) in document order, the root left out. */
export function layOut(ch: Challenge): Rect[] {
  const rects: Rect[] = []
  /** Reserves a box's place in document order; its rectangle is filled in when known. */
  const slot = () => rects.push([0, 0, 0, 0]) - 1
  const put = (i: number, box: Leaf | Container, r: Rect) => {
    rects[i] = box.kind === 'leaf' ? visual(box, r) : r
  }

  /** Lays out a container whose border box starts at (x, y) with this border width; returns its border height. */
  function container(c: Container, x: number, y: number, borderWidth: number): number {
    const [pt, pr, pb, pl] = c.padding
    const cx = x + pl
    const cy = y + pt
    const cw = borderWidth - pl - pr
    const contentHeight = c.kind === 'flex' ? flex(c, cx, cy, cw) : c.kind === 'grid' ? grid(c, cx, cy, cw) : flow(c, cx, cy, cw)
    const height = (c.height ?? contentHeight) + pt + pb
    for (const [i, child] of c.children.entries()) {
      if (child.kind === 'leaf' && child.abs) absolute(child, absSlots.get(c)!.get(i)!, x, y, borderWidth, height)
    }
    return height
  }

  const absSlots = new Map<Container, Map<number, number>>()

  function absolute(l: Leaf, i: number, x: number, y: number, width: number, height: number) {
    const a = l.abs!
    const w = blockWidth(l, width)
    const h = leafHeight(l)
    const left = a.left !== null ? x + a.left : x + width - (a.right ?? 0) - w
    const top = a.top !== null ? y + a.top : y + height - (a.bottom ?? 0) - h
    put(i, l, [left, top, w, h])
  }

  function flow(c: Container, cx: number, cy: number, cw: number): number {
    let cursor = cy
    let previousBottom: number | null = null
    const abs = new Map<number, number>()
    absSlots.set(c, abs)
    for (const [index, child] of c.children.entries()) {
      const i = slot()
      if (child.kind === 'leaf' && child.abs) {
        abs.set(index, i)
        continue
      }
      const [mt, , mb, ml] = child.margin
      // Adjacent vertical margins of siblings collapse to the larger (all are ≥ 0 here).
      const y = previousBottom === null ? cursor + mt : cursor + Math.max(previousBottom, mt)
      const x = cx + ml
      const w = blockWidth(child, cw)
      const h = child.kind === 'leaf' ? leafHeight(child) : container(child, x, y, w)
      put(i, child, [x, y, w, h])
      cursor = y + h
      previousBottom = mb
    }
    return previousBottom === null ? 0 : cursor + previousBottom - cy
  }

  function flex(c: Container, cx: number, cy: number, cw: number): number {
    absSlots.set(c, new Map())
    const items = c.children as Leaf[]
    const slots = items.map(() => slot())
    const base = items.map((l) => (l.flex?.basis ?? 0) + l.padding[1] + l.padding[3])
    const used = items.reduce((sum, l, k) => sum + base[k]! + l.margin[1] + l.margin[3], 0)
    const free = cw - used
    const grow = items.reduce((sum, l) => sum + (l.flex?.grow ?? 0), 0)
    const widths = grow > 0 && free > 0 ? items.map((l, k) => base[k]! + (free * (l.flex?.grow ?? 0)) / grow) : base
    const spare = grow > 0 ? 0 : Math.max(0, free)
    const start = c.justify === 'center' ? spare / 2 : c.justify === 'flex-end' ? spare : 0
    const between = c.justify === 'space-between' && items.length > 1 ? spare / (items.length - 1) : 0
    const heights = items.map(leafHeight)
    const line = Math.max(0, ...items.map((l, k) => heights[k]! + l.margin[0] + l.margin[2]))
    let cursor = cx + (c.justify === 'space-between' ? 0 : start)
    for (const [k, l] of items.entries()) {
      const x = cursor + l.margin[3]
      const h = heights[k]!
      const y = c.align === 'flex-start' ? cy + l.margin[0] : c.align === 'flex-end' ? cy + line - l.margin[2] - h : cy + (line - (h + l.margin[0] + l.margin[2])) / 2 + l.margin[0]
      put(slots[k]!, l, [x, y, widths[k]!, h])
      cursor = x + widths[k]! + l.margin[1] + between
    }
    return line
  }

  function grid(c: Container, cx: number, cy: number, cw: number): number {
    absSlots.set(c, new Map())
    const items = c.children as Leaf[]
    const slots = items.map(() => slot())
    const n = c.columns.length
    const [rowGap, columnGap] = c.gap
    const fixed = c.columns.reduce((s, t) => s + ('px' in t ? t.px : 0), 0)
    const frs = c.columns.reduce((s, t) => s + ('fr' in t ? t.fr : 0), 0)
    const free = Math.max(0, cw - fixed - columnGap * (n - 1))
    const tracks = c.columns.map((t) => ('px' in t ? t.px : frs > 0 ? (free * t.fr) / frs : 0))
    const trackX: number[] = []
    let x = cx
    for (const t of tracks) {
      trackX.push(x)
      x += t + columnGap
    }
    const rows = Math.ceil(items.length / n)
    const heights = items.map(leafHeight)
    const rowHeight = Array.from({ length: rows }, (_, r) => Math.max(0, ...items.slice(r * n, r * n + n).map((l, k) => heights[r * n + k]! + l.margin[0] + l.margin[2])))
    const rowY: number[] = []
    let y = cy
    for (const h of rowHeight) {
      rowY.push(y)
      y += h + rowGap
    }
    for (const [k, l] of items.entries()) {
      const col = k % n
      const track = tracks[col]!
      const [mt, mr, , ml] = l.margin
      const stretch = l.width === null || l.justify === null
      const w = stretch ? Math.max(l.padding[1] + l.padding[3], track - ml - mr) : blockWidth(l, track)
      const left = stretch || l.justify === 'start' ? trackX[col]! + ml : l.justify === 'end' ? trackX[col]! + track - mr - w : trackX[col]! + ml + (track - ml - mr - w) / 2
      put(slots[k]!, l, [left, rowY[Math.floor(k / n)]! + mt, w, heights[k]!])
    }
    return rows === 0 ? 0 : rowHeight.reduce((s, h) => s + h, 0) + rowGap * (rows - 1)
  }

  const root = ch.root
  container(root, 0, 0, ch.width + root.padding[1] + root.padding[3])
  return rects
}

/** The bounding rectangle a leaf's relative shift and transform give its border box. */
function visual(l: Leaf, [x, y, w, h]: Rect): Rect {
  if (l.shift) {
    x += l.shift[0]
    y += l.shift[1]
  }
  const t = l.transform
  if (!t) return [x, y, w, h]
  if ('translate' in t) return [x + t.translate[0], y + t.translate[1], w, h]
  if ('scale' in t) return [x - w / 2, y - h / 2, w * 2, h * 2]
  return t.rotate === 90 ? [x + w / 2 - h / 2, y + h / 2 - w / 2, h, w] : [x, y, w, h]
}

export interface ProofVerdict {
  state: ProofState
  detail: string
}

const isAnswer = (v: unknown): v is { v: number; boxes: number[] } =>
  typeof v === 'object' && v !== null && typeof (v as { v?: unknown }).v === 'number' && Array.isArray((v as { boxes?: unknown }).boxes) && (v as { boxes: unknown[] }).boxes.every((n) => typeof n === 'number' && Number.isFinite(n))

/**
 * Judges a submission's `signals.proof` (as sent: any JSON) against the challenge of its nonce.
 * `nonce`: the live nonce of this page load, or null when the submission has none that is live.
 */
export function verifyProof(nonce: string | null, sent: unknown): ProofVerdict {
  if (sent === undefined) return { state: 'missing', detail: 'the page sent no answer to its layout challenge' }
  const signal = sent as { ok?: unknown; value?: unknown; error?: { kind?: unknown; message?: unknown } }
  if (signal?.ok !== true) {
    const why = typeof signal?.error?.message === 'string' ? `: ${String(signal.error.kind)}: ${signal.error.message.slice(0, 120)}` : ''
    return { state: 'missing', detail: `the page's layout challenge gave no answer${why}` }
  }
  if (!isAnswer(signal.value)) return { state: 'wrong', detail: 'the answer is not a list of box positions' }
  if (signal.value.v !== PROOF_VERSION) return { state: 'wrong', detail: `the answer is to challenge version ${signal.value.v}, not ${PROOF_VERSION}` }
  if (nonce === null) return { state: 'no-nonce', detail: 'no live page nonce: the challenge of this page load cannot be known' }
  const expected = layOut(proofChallenge(nonce))
  const boxes = signal.value.boxes
  if (boxes.length !== expected.length * 4) return { state: 'wrong', detail: `${boxes.length / 4} boxes measured where this page load's challenge has ${expected.length}` }
  const off: number[] = []
  for (const [i, r] of expected.entries()) {
    if (r.some((v, k) => Math.abs(Math.round(v) - boxes[i * 4 + k]!) > PROOF_TOLERANCE_PX)) off.push(i)
  }
  const allowed = Math.floor((expected.length * OFF_PER_TEN) / 10)
  const where = off.slice(0, 3).map((i) => `box ${i + 1} at ${boxes.slice(i * 4, i * 4 + 4).join(',')} where layout puts ${expected[i]!.map((v) => Math.round(v)).join(',')}`)
  if (off.length > allowed) return { state: 'wrong', detail: `${off.length} of ${expected.length} boxes are not where laying out this page load's challenge puts them (${where.join('; ')})` }
  return { state: 'valid', detail: off.length ? `${expected.length - off.length} of ${expected.length} boxes where layout puts them (${where.join('; ')})` : `all ${expected.length} boxes where layout puts them` }
}
