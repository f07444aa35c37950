// The page's proof that it ran in a browser engine, for this page load (issue 56). Every page
// load has a single-use nonce; from it, page and server derive the same challenge: a small tree
// of empty boxes (block flow with collapsing margins, percentages, calc() and max-width, flex
// rows that grow and justify, grids with fr tracks and gaps, absolutely and relatively
// positioned boxes, transforms). The page lays it out (probes/signals/page-proof.ts) and sends
// where each measured box landed; the server lays the same tree out with its own model
// (src/core/page-proof.ts) and compares. Laying out CSS is what a browser engine does and a DOM
// emulator (jsdom, happy-dom, linkedom) does not: their boxes are all zero. A recording of
// another page load answers another tree.
//
// Only what every engine lays out the same is used: no text, no fonts, no borders (snapped to
// device pixels), no em units (minimum font sizes), explicit sizes everywhere; the challenge is
// isolated from the page's and the person's style sheets in a shadow root. Values are CSS px.

/** The challenge's version: the page sends it back, so a change of the generator is never judged against the other one. */
export const PROOF_VERSION = 1

/** The tools whose pages send the proof (their signals declare `proof`). */
export const PROOF_TOOLS = ['bot-detector', 'tls-fingerprint', 'http-headers'] as const

/** Four sides, CSS order: top, right, bottom, left. */
export type Sides = readonly [number, number, number, number]

/** A width: px, a percentage of the container's content width, or calc(pct% - px). */
export type Width = { px: number } | { pct: number } | { pct: number; minus: number }

export type Transform = { translate: readonly [number, number] } | { rotate: 90 | 180 } | { scale: 2 }

/** An empty box with an explicit height. */
export interface Leaf {
  kind: 'leaf'
  /** null: auto (fills the container in block flow and grid cells). */
  width: Width | null
  maxWidth: number | null
  height: number
  margin: Sides
  padding: Sides
  borderBox: boolean
  /** position: relative with left/top. */
  shift: readonly [number, number] | null
  transform: Transform | null
  /** In a flex row: `flex: grow 0 basis`. */
  flex: { grow: number; basis: number } | null
  /** In a grid: justify-self start/center/end with an explicit px width (else stretch). */
  justify: 'start' | 'center' | 'end' | null
  /** position: absolute in a positioned container: offsets from its padding box. */
  abs: { left: number | null; top: number | null; right: number | null; bottom: number | null } | null
}

export interface Container {
  kind: 'block' | 'flex' | 'grid'
  margin: Sides
  /** Top and bottom at least 1: no margin collapses through a container's edge. */
  padding: Sides
  /** position: relative (a containing block for absolute children). */
  positioned: boolean
  /** Explicit content height (block containers holding absolute boxes); null: auto. */
  height: number | null
  justify: 'flex-start' | 'center' | 'flex-end' | 'space-between'
  align: 'flex-start' | 'center' | 'flex-end'
  /** Grid tracks: px, or minmax(0, Nfr). */
  columns: ReadonlyArray<{ px: number } | { fr: number }>
  gap: readonly [number, number]
  children: ReadonlyArray<Leaf | Container>
}

export interface Challenge {
  version: number
  /** The root: a positioned block container of this content width. */
  width: number
  root: Container
}

/** What the page sends: each measured box's x, y, width and height relative to the root's, rounded, in document order. */
export interface ProofAnswer {
  v: number
  boxes: number[]
}

/** 32-bit FNV-1a of a string. */
function fnv1a(text: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193) >>> 0
  }
  return h
}

/** mulberry32: a small, well-mixed 32-bit generator; the same sequence in every JavaScript engine. */
function generator(seed: number) {
  let a = seed >>> 0
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1))
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!
  const chance = (p: number) => next() < p
  return { int, pick, chance }
}

type Rng = ReturnType<typeof generator>

const sides = (r: Rng, v: number, h: number): Sides => [r.int(0, v), r.int(0, h), r.int(0, v), r.int(0, h)]
/** Container padding: top and bottom ≥ 1 keep child margins inside it. */
const boxPadding = (r: Rng): Sides => [r.int(1, 8), r.int(0, 10), r.int(1, 8), r.int(0, 10)]

function leaf(r: Rng, over: Partial<Leaf> = {}): Leaf {
  return {
    kind: 'leaf',
    width: null,
    maxWidth: null,
    height: r.int(6, 36),
    margin: sides(r, 14, 18),
    padding: sides(r, 5, 6),
    borderBox: r.chance(0.4),
    shift: r.chance(0.2) ? [r.int(-12, 12), r.int(-8, 8)] : null,
    transform: null,
    flex: null,
    justify: null,
    abs: null,
    ...over,
  }
}

function transformOf(r: Rng, height: number, width: number | null): Transform | null {
  if (!r.chance(0.3)) return null
  const t = r.int(0, 3)
  if (t === 0) return { translate: [r.int(-20, 20), r.int(-10, 10)] }
  // A quarter turn keeps integer corners when width and height have the same parity.
  if (t === 1 && width !== null && (width - height) % 2 === 0) return { rotate: 90 }
  if (t === 2) return { rotate: 180 }
  return { scale: 2 }
}

function container(r: Rng, kind: Container['kind'], children: Container['children'], over: Partial<Container> = {}): Container {
  return {
    kind,
    margin: sides(r, 12, 14),
    padding: boxPadding(r),
    positioned: false,
    height: null,
    justify: 'flex-start',
    align: 'flex-start',
    columns: [],
    gap: [0, 0],
    children,
    ...over,
  }
}

/** A block-flow leaf: auto, px, percentage or calc() width, sometimes capped, sometimes centred by auto margins (as a px width). */
function blockLeaf(r: Rng): Leaf {
  const choice = r.int(0, 3)
  const height = r.int(6, 36)
  const width: Width | null = choice === 0 ? null : choice === 1 ? { px: r.int(8, 60) * 2 } : choice === 2 ? { pct: r.pick([20, 25, 40, 50, 60, 75, 80, 100]) } : { pct: r.pick([50, 75, 100]), minus: r.int(4, 40) }
  const pxWidth = width && 'px' in width ? width.px : null
  const l = leaf(r, { height, width, maxWidth: width && r.chance(0.25) ? r.int(30, 140) : null })
  // border-box needs the padding to fit in the explicit sizes.
  const fits = l.padding[0] + l.padding[2] < height && (pxWidth === null || l.padding[1] + l.padding[3] < pxWidth)
  return { ...l, borderBox: l.borderBox && fits && width !== null && !('pct' in width), transform: transformOf(r, height, pxWidth) }
}

function blockSection(r: Rng, depth: number): Container {
  const n = r.int(2, 4)
  const children: Array<Leaf | Container> = []
  // Nested: flex rows only (a grid's fr tracks need the root's width to stay wide enough).
  for (let i = 0; i < n; i++) children.push(depth < 2 && r.chance(0.25) ? flexSection(r) : blockLeaf(r))
  return container(r, 'block', children)
}

function flexSection(r: Rng): Container {
  const n = r.int(2, 4)
  const grows = r.chance(0.6)
  // Bases small enough to leave free space in the narrowest container (a flex item does not shrink here).
  const children = Array.from({ length: n }, () => leaf(r, { flex: { grow: grows ? r.int(0, 3) : 0, basis: r.int(4, 40) }, margin: sides(r, 10, 8), borderBox: false }))
  return container(r, 'flex', children, { justify: r.pick(['flex-start', 'center', 'flex-end', 'space-between'] as const), align: r.pick(['flex-start', 'center', 'flex-end'] as const) })
}

function gridSection(r: Rng): Container {
  const count = r.int(2, 4)
  const columns: Array<{ px: number } | { fr: number }> = Array.from({ length: count }, () => (r.chance(0.5) ? { px: r.int(24, 64) } : { fr: r.int(1, 3) }))
  const children = Array.from({ length: r.int(2, 7) }, (_, i) => {
    const l = leaf(r, { margin: sides(r, 8, 4), padding: sides(r, 4, 4), borderBox: false })
    // Items are placed row by row, one cell each: item i is in column i % count. Explicit widths
    // only go where they fit, in px tracks; the others stretch across their track.
    const track = columns[i % count]!
    if (!('px' in track) || !r.chance(0.5)) return l
    return { ...l, width: { px: r.int(2, track.px - 16) }, justify: r.pick(['start', 'center', 'end'] as const) }
  })
  return container(r, 'grid', children, { columns, gap: [r.int(0, 12), r.int(0, 16)] })
}

function absSection(r: Rng): Container {
  const flow = Array.from({ length: r.int(1, 2) }, () => blockLeaf(r))
  const abs = Array.from({ length: r.int(1, 3) }, () => {
    const horizontal = r.chance(0.5)
    const vertical = r.chance(0.5)
    const width = r.int(6, 50) * 2
    const height = r.int(6, 30)
    return leaf(r, {
      width: { px: width },
      height,
      margin: [0, 0, 0, 0],
      shift: null,
      borderBox: false,
      abs: { left: horizontal ? r.int(0, 80) : null, right: horizontal ? null : r.int(0, 80), top: vertical ? r.int(0, 40) : null, bottom: vertical ? null : r.int(0, 40) },
      transform: transformOf(r, height, width),
    })
  })
  return container(r, 'block', [...flow, ...abs], { positioned: true, height: r.chance(0.5) ? r.int(60, 120) : null })
}

/** The challenge of a page load, from its nonce: the same tree on the page and on the server. */
export function proofChallenge(nonce: string): Challenge {
  const r = generator(fnv1a(`antibot-proof-v${PROOF_VERSION}:${nonce}`))
  const sections: Container[] = [blockSection(r, 1), flexSection(r), gridSection(r), absSection(r)]
  for (let i = r.int(0, 2); i > 0; i--) sections.push(r.pick([blockSection, (x: Rng) => flexSection(x), (x: Rng) => gridSection(x), (x: Rng) => absSection(x)])(r, 1))
  // Shuffled, so that the order of kinds is the nonce's too.
  for (let i = sections.length - 1; i > 0; i--) {
    const j = r.int(0, i)
    ;[sections[i], sections[j]] = [sections[j]!, sections[i]!]
  }
  const width = r.int(60, 90) * 8
  return { version: PROOF_VERSION, width, root: container(r, 'block', sections, { margin: [0, 0, 0, 0], padding: [r.int(4, 12), r.int(4, 12), r.int(4, 12), r.int(4, 12)], positioned: true }) }
}

/** Each box's style, as CSS property/value pairs: the page sets exactly these (probes/signals/page-proof.ts). */
export function boxStyle(box: Leaf | Container, parent: Container | null): Array<[string, string]> {
  const px = (n: number) => `${n}px`
  const four = (s: Sides) => s.map(px).join(' ')
  const out: Array<[string, string]> = [
    ['margin', four(box.margin)],
    ['padding', four(box.padding)],
    ['border', '0 none'],
    ['min-width', '0'],
    ['min-height', '0'],
    ['float', 'none'],
  ]
  if (box.kind === 'leaf') {
    out.push(['display', 'block'], ['box-sizing', box.borderBox ? 'border-box' : 'content-box'], ['height', px(box.height)])
    const w = box.width
    out.push(['width', w === null ? 'auto' : 'px' in w ? px(w.px) : 'minus' in w ? `calc(${w.pct}% - ${w.minus}px)` : `${w.pct}%`])
    out.push(['max-width', box.maxWidth === null ? 'none' : px(box.maxWidth)])
    if (box.abs) {
      out.push(['position', 'absolute'])
      for (const side of ['left', 'top', 'right', 'bottom'] as const) out.push([side, box.abs[side] === null ? 'auto' : px(box.abs[side]!)])
    } else if (box.shift) out.push(['position', 'relative'], ['left', px(box.shift[0])], ['top', px(box.shift[1])])
    else out.push(['position', 'static'])
    const t = box.transform
    out.push(['transform', !t ? 'none' : 'translate' in t ? `translate(${t.translate[0]}px, ${t.translate[1]}px)` : 'rotate' in t ? `rotate(${t.rotate}deg)` : 'scale(2)'])
    if (parent?.kind === 'flex' && box.flex) out.push(['flex', `${box.flex.grow} 0 ${box.flex.basis}px`])
    if (parent?.kind === 'grid') out.push(['justify-self', box.justify ?? 'stretch'])
  } else {
    out.push(['box-sizing', 'content-box'], ['width', 'auto'], ['max-width', 'none'], ['height', box.height === null ? 'auto' : px(box.height)], ['position', box.positioned ? 'relative' : 'static'], ['transform', 'none'])
    if (box.kind === 'block') out.push(['display', 'block'])
    if (box.kind === 'flex') out.push(['display', 'flex'], ['flex-direction', 'row'], ['flex-wrap', 'nowrap'], ['justify-content', box.justify], ['align-items', box.align])
    if (box.kind === 'grid') {
      out.push(['display', 'grid'], ['grid-template-columns', box.columns.map((c) => ('px' in c ? px(c.px) : `minmax(0, ${c.fr}fr)`)).join(' ')], ['grid-auto-rows', 'auto'], ['row-gap', px(box.gap[0])], ['column-gap', px(box.gap[1])], ['align-items', 'start'], ['justify-items', 'stretch'])
    }
    if (parent?.kind === 'grid') out.push(['justify-self', 'stretch'])
  }
  return out
}
