// How identifying a browser is (issue 48): each identifying attribute's share among the distinct
// browsers this instance saw in a window, in bits, and one in N for the whole fingerprint, as
// AmIUnique and Cover Your Tracks answer it. This module is pure: which attributes a tool's
// stored results carry, what a "distinct browser" is, and the figures from the counts that
// db/uniqueness.ts keeps in PostgreSQL (exact across instances).
//
// - A distinct browser is a tool's whole combination of attribute values from one network (an
//   IPv4 address or IPv6 /64, of the address as the task stores it, so IP_TRUNCATE's /24 and
//   /48 under it): one browser reloading 1,000 times is one browser. The same browser on two
//   networks counts twice, two identical browsers behind one address once.
// - The flood bound: a range (IPv4 /24, IPv6 /48) adds at most `perRange` browsers to a tool's
//   population in the window; its further new browsers are judged but not added. So one client
//   range posting fabricated fingerprints adds at most `perRange` to the population and to any
//   value's count, and moves a share c/N by at most perRange/(N+perRange) (boundShift).
// - The submitter is always in the figures (their browser counted once, whether it was counted
//   before, is added now, or is not added because its range is full).
// - k-anonymity: a value fewer than K browsers have (the submitter included), or fewer than K
//   counting only the submitter and the browsers of ranges other than its own, is "fewer than
//   K", never an exact count: its share is given as a bound, so no one learns how many others
//   have it, and no range can fill the floor with browsers of its own to learn whether one other
//   browser has its value.

import { hashHex, hashValue } from '../../common/hash'
import type { ToolId } from '../../common/tools'
import { networkKey, rangeKey } from './ip'
import { hashSecret } from './keys'
import { blended, blendWeight, REFERENCE_WEIGHT, type SourceFields } from './reference/blend'
import { attributeShare, combinationShare, type ReferenceShare, type ToolReference } from './reference/reference'

/** Values fewer browsers than this have are "fewer than K" (the submitter included). */
export const K_FLOOR = 5
/** Under this population the figures are shown, but said to be not yet meaningful. */
export const MEANINGFUL_POPULATION = 100
/** The window's default, in days (UNIQUENESS_WINDOW_DAYS), never longer than the retention. */
export const DEFAULT_WINDOW_DAYS = 90
/** New browsers a range adds per tool and window (UNIQUENESS_BROWSERS_PER_RANGE). */
export const DEFAULT_PER_RANGE = 4
/** Counter rows per value, so that one common value's count is not one hot row (db/uniqueness.ts). */
export const COUNT_SHARDS = 8
export { REFERENCE_WEIGHT }
/** The attribute names the population and the whole combination are counted under. */
export const POPULATION = '*'
export const COMBINATION = '#'

/** One identifying attribute of a submission: `value` is what is shown, `hash` what is counted. */
export interface Attribute {
  name: string
  label: string
  /** A short form of the value for the page; null where the results keep only a hash. */
  shown: string | null
  hash: string
}

/** The identifying attributes of a tool's results, and their combination's hash. */
export interface Identifying {
  attributes: Attribute[]
  combination: string
}

type Obj = Record<string, unknown>
const obj = (v: unknown): Obj | null => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : null)
const short = (v: unknown): string => {
  const s = typeof v === 'string' ? v : JSON.stringify(v)
  return s.length > 120 ? `${s.slice(0, 117)}…` : s
}

/** An attribute from a value, or none when the value is missing (null: not read, noised, blocked). */
function attr(name: string, label: string, value: unknown, shown?: string | null): Attribute[] {
  if (value === null || value === undefined || value === '') return []
  return [{ name, label, shown: shown === undefined ? short(value) : shown, hash: hashValue(value) }]
}

const COMPONENT_LABELS: Record<string, string> = {
  architecture: 'CPU architecture (float behaviour)',
  audio: 'Audio stack',
  canvas: 'Canvas drawing',
  fonts: 'Installed fonts',
  hardware: 'CPU cores and memory',
  languages: 'Languages',
  math: 'Math functions',
  media: 'Media preferences',
  navigator: 'Navigator (user agent, platform, vendor)',
  plugins: 'Plugins',
  screen: 'Screen',
  storage: 'Storage availability',
  timezone: 'Time zone and locale',
  touch: 'Touch support',
  uaData: 'User-agent client hints',
  vendorFlavours: 'Vendor-specific objects',
  webgl: 'WebGL',
}

/** Per tool: the attributes its stored results carry (the sections its addSections made). */
const EXTRACT: Partial<Record<ToolId, (r: Obj, userAgent: string) => Attribute[]>> = {
  'browser-fingerprint': (r) => {
    const fp = obj(r.fingerprint)
    const components = obj(fp?.components) ?? {}
    return Object.keys(components)
      .sort()
      .flatMap((name) => {
        const c = obj(components[name])
        // What went into the visitor id: stable values and stable absences.
        return c?.inVisitorId === true && typeof c.hash === 'string' ? [{ name, label: COMPONENT_LABELS[name] ?? name, shown: null, hash: c.hash }] : []
      })
  },
  'canvas-fingerprint': (r) => {
    const cv = obj(r.canvas)
    const gl = obj(r.webgl)
    return [
      ...attr('canvas', '2D canvas image', cv?.hash, null),
      ...attr('webgl.vendor', 'WebGL vendor', gl?.vendor),
      ...attr('webgl.renderer', 'WebGL renderer', gl?.renderer),
      ...attr('webgl.pixels', 'WebGL image', gl?.pixelsHash, null),
      ...attr('webgl.parameters', 'WebGL parameters', gl?.parametersHash, null),
      ...attr('webgl.extensions', 'WebGL extensions', gl?.extensionsHash, gl && typeof gl.extensions === 'number' ? `${gl.extensions} extensions` : null),
    ]
  },
  'audio-fingerprint': (r) => {
    const a = obj(r.audio)
    return [...attr('audio.sum', 'Audio signal sum', a?.sum), ...attr('audio.sampleRate', 'Audio sample rate', a?.sampleRate)]
  },
  'font-detection': (r) => {
    const f = obj(r.fonts)
    const detected = Array.isArray(f?.detected) && !f.noised ? [...(f.detected as unknown[])].map(String).sort() : null
    return [
      ...attr('fonts', 'Installed fonts', detected, detected ? `${detected.length} fonts` : null),
      ...attr('systemFonts', 'System UI fonts', f?.systemFonts),
    ]
  },
  'screen-display': (r) => {
    const d = obj(r.display)
    const s = obj(d?.screen)
    return [
      ...attr('screen.size', 'Screen size', s ? `${s.width}×${s.height}` : null),
      ...attr('screen.available', 'Available screen area', s ? `${s.availWidth}×${s.availHeight}` : null),
      ...attr('screen.colorDepth', 'Colour depth', s ? `${s.colorDepth} bits` : null),
      ...attr('devicePixelRatio', 'Device pixel ratio', d?.devicePixelRatio),
      ...attr('colorGamut', 'Colour gamut', d?.colorGamut),
      ...attr('hdr', 'High dynamic range', d?.hdr),
      ...attr('maxTouchPoints', 'Touch points', d?.maxTouchPoints),
    ]
  },
  'timezone-geo': (r) => {
    const t = obj(r.timezone)
    return [
      ...attr('zone', 'Time zone', t?.zone),
      ...attr('utcOffset', 'UTC offset', t?.utcOffset),
      ...attr('locale', 'Locale', t?.locale),
      ...attr('calendar', 'Calendar', t?.calendar),
      ...attr('hourCycle', 'Hour cycle', t?.hourCycle),
      ...attr('languages', 'Languages', t?.languages),
      ...attr('acceptLanguage', 'Accept-Language', t?.acceptLanguage),
    ]
  },
  'http-headers': (r, userAgent) => {
    const h = obj(r.http)
    const hints = obj(obj(h?.clientHints)?.received)
    return [
      ...attr('userAgent', 'User-Agent', userAgent),
      ...attr('headerOrder', 'Header names and order', Array.isArray(h?.headerNames) ? (h.headerNames as unknown[]).join(', ') : null),
      ...attr('acceptLanguage', 'Accept-Language', h?.acceptLanguage),
      ...attr('httpVersion', 'HTTP version', h?.httpVersion),
      ...attr('clientHints', 'Client hints sent', hints && Object.keys(hints).length ? hints : null),
    ]
  },
  'tls-fingerprint': (r) => {
    const tls = obj(r.tls)
    const h2 = obj(r.http2)
    return [...attr('ja4', 'JA4 (TLS ClientHello)', tls?.ja4), ...attr('ja3n', 'JA3N (TLS ClientHello)', tls?.ja3nHash), ...attr('http2', 'HTTP/2 fingerprint', h2?.akamai)]
  },
}

/** The tools whose results carry identifying attributes. */
export const IDENTIFYING_TOOLS = Object.keys(EXTRACT) as ToolId[]

/**
 * The identifying attributes of a task's results, as stored (after judging); null for other
 * tools and when nothing identifying was read. browser-fingerprint's combination is its
 * visitor id; the other tools' is a hash over their attributes.
 */
export function identifyingAttributes(tool: ToolId, results: unknown, userAgent: string): Identifying | null {
  const extract = EXTRACT[tool]
  const r = obj(results)
  if (!extract || !r) return null
  const attributes = extract(r, userAgent)
  if (!attributes.length) return null
  const visitorId = tool === 'browser-fingerprint' ? obj(r.fingerprint)?.visitorId : undefined
  const combination = typeof visitorId === 'string' ? visitorId : hashHex(attributes.map((a) => `${a.name}=${a.hash}`).join('|'))
  return { attributes, combination }
}

/** What a sighting is recorded under: hashes only, of what the task keeps. */
export interface SightingKeys {
  /** The distinct browser: the tool, the network and the combination. */
  browser: string
  /** The range the flood bound counts by. */
  range: string
  /** Which of the COUNT_SHARDS counter rows this browser's counts go to. */
  shard: number
}

/** `storedIp`: the task's ip_address (cut to its network under IP_TRUNCATE). */
export function sightingKeys(tool: ToolId, storedIp: string, combination: string): SightingKeys {
  const browser = hashSecret(`${tool}\n${networkKey(storedIp)}\n${combination}`).slice(0, 32)
  return { browser, range: hashSecret(`${tool}\n${rangeKey(storedIp)}`).slice(0, 32), shard: Number.parseInt(browser.slice(0, 2), 16) % COUNT_SHARDS }
}

/** The counted names and values of a sighting, population and combination first. */
export function countedPairs(id: Identifying): { names: string[]; values: string[] } {
  return { names: [POPULATION, COMBINATION, ...id.attributes.map((a) => a.name)], values: [POPULATION, id.combination, ...id.attributes.map((a) => a.hash)] }
}

/** What the counts said before this submission is recorded. */
export interface CountsBefore {
  /** Browsers counted per name (POPULATION, COMBINATION, each attribute), this browser included if it was counted. */
  browsers: Record<string, number>
  /**
   * Of those, the browsers of the asker's own range (IPv4 /24, IPv6 /48) with the same value, per
   * name: at most `perRange` per name. The k floor counts only the others (uniquenessOf).
   */
  ownRange?: Record<string, number>
  /** Whether this browser (tool, network, combination) is counted already. */
  counted: boolean
  /** New browsers its range has counted in the window. */
  rangeBrowsers: number
}

/** One figure: how many browsers share the value, as a share, one in N and bits. */
export interface Figure {
  /** Browsers with the value, the submitter's included; null when fewer than K (then `rare`). */
  browsers: number | null
  /** Fewer than K browsers have it: share, oneIn and bits are bounds (at most, at least, at least). */
  rare: boolean
  share: number
  oneIn: number
  bits: number
}


/** A figure with where it comes from (issue 59). Old stored figures have no source: the instance's alone. */
export interface SourcedFigure extends Figure, Partial<SourceFields> {}

export interface AttributeFigure extends SourcedFigure {
  name: string
  label: string
  shown: string | null
}

/** The dataset the reference figures come from, and how much the instance's counts weigh. */
export interface ReferenceUsed {
  name: string
  version: string
  license: string
  url: string
  /** The dataset's date. */
  date: string
  /** Real browsers' fingerprints the dataset was learned from. */
  fingerprints: number
  /** REFERENCE_WEIGHT. */
  weight: number
  /** How much this instance's own counts weigh in a blended figure, 0 to 1 (blendWeight). */
  instanceWeight: number
}

export interface Uniqueness {
  /** Distinct browsers of this tool in the window, the submitter's included. */
  population: number
  windowDays: number
  /** Under MEANINGFUL_POPULATION the figures are not yet meaningful. */
  meaningful: boolean
  minimumPopulation: number
  k: number
  /** The flood bound: new browsers one range adds per tool and window. */
  perRange: number
  /** This browser: counted before, counted now, or not counted (its range is full). */
  browser: 'seen before' | 'new' | 'not counted: its range is full'
  /** The whole combination (browser-fingerprint: the visitor id); `covered`: the attributes the reference's figure covers. */
  fingerprint: SourcedFigure & { covered?: string[] }
  /** Rarest first. */
  attributes: AttributeFigure[]
  /** The reference population this tool's figures use; null when the dataset has none of its attributes. */
  reference?: ReferenceUsed | null
}

const round = (x: number, digits: number) => Number(x.toFixed(digits))

/**
 * A value `count` of `population` browsers have (the submitter included). `others`: the
 * submitter and those of them not of the asker's own range; the k floor counts those alone, so
 * that browsers one range added itself never lift a value above it (by default every one counts).
 */
export function figure(count: number, population: number, k = K_FLOOR, others = count): Figure {
  if (count < k || others < k) {
    // At most k-1 browsers: the share's upper bound, one in N and bits as lower bounds.
    const most = Math.min(k - 1, population)
    return { browsers: null, rare: true, share: round(most / population, 6), oneIn: round(population / most, 2), bits: round(Math.log2(population / most), 3) }
  }
  return { browsers: count, rare: false, share: round(count / population, 6), oneIn: round(population / count, 2), bits: round(Math.log2(population / count), 3) }
}



/**
 * The figures of a submission from the counts before it: the submitter's browser added once
 * when it was not counted yet. `willAdd`: whether recording will add it (its range has room).
 */
export function uniquenessOf(id: Identifying, before: CountsBefore, o: { windowDays: number; perRange: number; k?: number; minimum?: number; reference?: ToolReference | null; referenceWeight?: number }): Uniqueness {
  const k = o.k ?? K_FLOOR
  const minimum = o.minimum ?? MEANINGFUL_POPULATION
  const plus = before.counted ? 0 : 1
  const count = (name: string) => Math.max((before.browsers[name] ?? 0) + plus, 1)
  // What the k floor counts: the submitter once, and the browsers of other ranges with the
  // value; the rest of the submitter's own range (browsers it may have made itself) never lifts
  // a value above the floor, so they cannot tell it whether anyone else has the value.
  const others = (name: string) => 1 + Math.max(0, (before.browsers[name] ?? 0) - (before.ownRange?.[name] ?? 0))
  const population = count(POPULATION)
  const ref = o.reference ?? null
  const weight = o.referenceWeight ?? REFERENCE_WEIGHT
  const w = blendWeight(population - 1, weight)
  const sourced = (instance: Figure, share: ReferenceShare | null): SourcedFigure => (share ? blended(instance, share, w) : { ...instance, source: 'instance', inReference: false, referenceShare: null, bound: instance.rare })
  const attributes = id.attributes
    .map((a) => ({ name: a.name, label: a.label, shown: a.shown, ...sourced(figure(count(a.name), population, k, others(a.name)), ref && attributeShare(ref, a.name, a.hash)) }))
    .sort((x, y) => y.bits - x.bits || x.name.localeCompare(y.name))
  const combination = ref && combinationShare(ref, id.attributes)
  const whole = sourced(figure(count(COMBINATION), population, k, others(COMBINATION)), combination)
  return {
    population,
    windowDays: o.windowDays,
    meaningful: population >= minimum,
    minimumPopulation: minimum,
    k,
    perRange: o.perRange,
    browser: before.counted ? 'seen before' : before.rangeBrowsers < o.perRange ? 'new' : 'not counted: its range is full',
    fingerprint: combination ? { ...whole, covered: combination.covered } : whole,
    attributes,
    reference: ref && (combination || attributes.some((a) => a.inReference)) ? { name: ref.dataset.name, version: ref.dataset.version, license: ref.dataset.license, url: ref.dataset.url, date: ref.dataset.date, fingerprints: ref.dataset.fingerprints, weight, instanceWeight: round(w, 3) } : null,
  }
}

/**
 * How far one range can move a share c/N: adding up to m browsers, all with the value or all
 * without, gives (c+m)/(N+m) or c/(N+m); the larger distance is m(N-c)/(N(N+m)) or mc/(N(N+m)),
 * at most m/(N+m).
 */
export function boundShift(population: number, perRange: number): number {
  return perRange / (population + perRange)
}
