// What a replayer does to a recorded Chromium visit to claim another Chromium version (issue 56):
// every version string of the headers and of the submitted signals rewritten, and the brand
// lists made again the way Chromium makes them for that major version, since the GREASE brand,
// its version and the list's order all follow from it.
// Chromium's algorithm (components/embedder_support/user_agent_utils.cc, GenerateBrandVersionList
// and GetGreasedUserAgentBrandVersion; https://wicg.github.io/ua-client-hints/#grease), seeded
// with the major version: the GREASE brand is "Not" + c[seed % 11] + "A" + c[(seed + 1) % 11] +
// "Brand" over the characters ` (:-./);=?_`, its version one of 8, 99, 24 (seed % 3); with a
// product brand (Google Chrome) the three entries go in the permutation seed % 6 of
// (GREASE, Chromium, brand); without one (a Chromium build, as Debian's) GREASE sits at seed % 2
// and Chromium at the other place. Chromium 156 so gives "Not:A-Brand";v="8", "Chromium";v="156",
// which is what Debian's Chromium 156 sends.

import type { Brand } from '../../common/user-agent'

/** One Chromium version as a User-Agent and its client hints name it. */
export interface ChromiumVersion {
  major: number
  /** The full version, e.g. 156.0.8078.114 (Sec-CH-UA-Full-Version-List, userAgentData's high-entropy values). */
  full: string
}

const GREASE_CHARS = [' ', '(', ':', '-', '.', '/', ')', ';', '=', '?', '_'] as const
const GREASE_VERSIONS = ['8', '99', '24'] as const
const ORDERS = [
  [0, 1, 2],
  [0, 2, 1],
  [1, 0, 2],
  [1, 2, 0],
  [2, 0, 1],
  [2, 1, 0],
] as const

/** The brand list Chromium `v` makes (`full`: with full versions), with `product` as the third brand when given. */
export function chromiumBrands(v: ChromiumVersion, opts: { full?: boolean; product?: string } = {}): Brand[] {
  const seed = v.major
  const version = opts.full ? v.full : String(v.major)
  const grease: Brand = {
    brand: `Not${GREASE_CHARS[seed % GREASE_CHARS.length]}A${GREASE_CHARS[(seed + 1) % GREASE_CHARS.length]}Brand`,
    version: opts.full ? `${GREASE_VERSIONS[seed % 3]}.0.0.0` : GREASE_VERSIONS[seed % 3]!,
  }
  const chromium: Brand = { brand: 'Chromium', version }
  if (!opts.product) {
    const list: Brand[] = []
    list[seed % 2] = grease
    list[(seed + 1) % 2] = chromium
    return list
  }
  const order = ORDERS[seed % 6]!
  const list: Brand[] = []
  list[order[0]] = grease
  list[order[1]] = chromium
  list[order[2]] = { brand: opts.product, version }
  return list
}

/** A brand list as Sec-CH-UA and Sec-CH-UA-Full-Version-List spell it. */
export function brandHeader(brands: readonly Brand[]): string {
  return brands.map((b) => `"${b.brand}";v="${b.version}"`).join(', ')
}

/**
 * `value` (a recorded submission's signals, its headers) with every mention of Chromium `from`
 * made Chromium `to`: the User-Agent's `Chrome/<major>.0.0.0`, full versions, bare majors in
 * brand entries, brand lists as headers, as `brand/version` summaries and as `{brand, version}`
 * arrays (made again by chromiumBrands, with the recorded product brand if any).
 */
export function claimChromium<T>(value: T, from: ChromiumVersion, to: ChromiumVersion): T {
  const fromShort = chromiumBrands(from)
  const product = (list: readonly Brand[]) => list.find((b) => b.brand !== 'Chromium' && !/not.*a.*brand/i.test(b.brand))?.brand
  const swaps: Array<[string, string]> = []
  const lists = (p: string | undefined) => ({ short: chromiumBrands(to, { product: p }), full: chromiumBrands(to, { full: true, product: p }) })
  const plain = lists(undefined)
  swaps.push([brandHeader(fromShort), brandHeader(plain.short)])
  swaps.push([brandHeader(chromiumBrands(from, { full: true })), brandHeader(plain.full)])
  swaps.push([fromShort.map((b) => `${b.brand}/${b.version}`).join(', '), plain.short.map((b) => `${b.brand}/${b.version}`).join(', ')])
  swaps.push([fromShort.map((b) => `${b.brand} ${b.version}`).join(', '), plain.short.map((b) => `${b.brand} ${b.version}`).join(', ')])
  const rewriteString = (s: string): string => {
    let out = s
    for (const [a, b] of swaps) out = out.split(a).join(b)
    out = out.split(from.full).join(to.full)
    out = out.replace(new RegExp(`(Chrom(?:e|ium)/)${from.major}\\.0\\.0\\.0`, 'g'), `$1${to.major}.0.0.0`)
    out = out.replace(new RegExp(`(Chrom(?:e|ium)/)${from.major}\\.[\\d.]+`, 'g'), `$1${to.full}`)
    return out === String(from.major) ? String(to.major) : out
  }
  const isBrandList = (a: unknown[]): a is Brand[] =>
    a.length > 0 && a.every((b) => b !== null && typeof b === 'object' && typeof (b as Brand).brand === 'string' && typeof (b as Brand).version === 'string')
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return rewriteString(v)
    if (Array.isArray(v)) {
      if (isBrandList(v)) {
        const made = lists(product(v))
        return v.some((b) => b.version.includes('.')) ? made.full : made.short
      }
      return v.map(walk)
    }
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]))
    return v
  }
  return walk(value) as T
}

/** The Chromium version a recorded User-Agent and full-version list name. */
export function recordedChromium(userAgent: string, fullVersionList: string | undefined): ChromiumVersion {
  const major = Number(/Chrom(?:e|ium)\/(\d+)/.exec(userAgent)?.[1])
  if (!major) throw new Error(`Cannot read a Chromium version from the recorded User-Agent: ${userAgent}`)
  const full = new RegExp(`"Chromium";v="(${major}\\.[\\d.]+)"`).exec(fullVersionList ?? '')?.[1] ?? `${major}.0.0.0`
  return { major, full }
}
