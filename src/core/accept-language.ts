// Accept-Language against navigator.languages. Browsers build both from one preference list,
// so they agree unless one layer was changed without the other (a header injected by an
// automation tool or proxy, a patched navigator.languages).
//
// How browsers write the header (RFC 9110 §12.5.4):
// - Chromium: q drops by 0.1 per entry and stays at 0.1 ("en-US,en;q=0.9,de;q=0.8"), and
//   each regional tag is followed by its base language when the list lacks it
//   (net::HttpUtil::ExpandLanguageList) while navigator.languages stays unexpanded.
//   Safari writes the same decreasing q-values.
// - Firefox before 147: q = 1 − i/n rounded to one decimal (two when n ≥ 10) —
//   "en-US,en;q=0.5" (nsHttpHandler PrepareAcceptLanguages). Firefox 147 and later lower q by
//   0.1 per entry like Chromium ("en-US,en;q=0.9", bug 2000765; Firefox ESR 153 in this
//   project's tools matrix sends "de-DE,de;q=0.9,en-US;q=0.8,en;q=0.7"). The tags are exactly
//   navigator.languages.

export interface LanguageRange {
  tag: string
  q: number
}

/** Parses the header in the order sent; ranges with a malformed q are dropped, q=0 kept. */
export function parseAcceptLanguage(header: string): LanguageRange[] {
  const out: LanguageRange[] = []
  for (const part of header.split(',')) {
    const [rawTag, ...params] = part.split(';')
    const tag = rawTag!.trim()
    if (!/^(\*|[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*)$/.test(tag)) continue
    let q = 1
    let bad = false
    for (const p of params) {
      const m = /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/i.exec(p)
      if (m) q = Number(m[1])
      else bad = true
    }
    if (!bad && q <= 1) out.push({ tag, q })
  }
  return out
}

/** The tags in the order sent, without q-values; q=0 ranges and the wildcard dropped. */
export function acceptedTags(header: string | undefined): string[] {
  return header ? parseAcceptLanguage(header).filter((r) => r.q > 0 && r.tag !== '*').map((r) => r.tag) : []
}

/** The first range as sent (whatever its q), or null when there is none or it is the wildcard. */
export function firstAcceptLanguage(header: string): string | null {
  const first = parseAcceptLanguage(header)[0]
  return first && first.tag !== '*' ? first.tag : null
}

/** The tags a server would prefer, highest q first (stable for equal q), without q=0. */
export function preferredTags(ranges: readonly LanguageRange[]): string[] {
  return ranges
    .map((r, i) => ({ ...r, i }))
    .filter((r) => r.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i)
    .map((r) => r.tag)
}

export type QPattern = 'single' | 'decrement' | 'fraction' | 'other'

/** The first Firefox release that writes Chromium's decreasing q-values (bug 2000765). */
export const FIREFOX_DECREMENT_SINCE = 147

const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits

/** Which browser's q-value scheme the header follows. */
export function qPattern(ranges: readonly LanguageRange[]): QPattern {
  const n = ranges.length
  if (n <= 1) return 'single'
  const qs = ranges.map((r) => r.q)
  if (qs.every((q, i) => Math.abs(q - Math.max(0.1, round(1 - i * 0.1, 1))) < 1e-9)) return 'decrement'
  const digits = n >= 10 ? 2 : 1
  if (qs.every((q, i) => Math.abs(q - round(1 - i / n, digits)) < 1e-9)) return 'fraction'
  return 'other'
}

export interface LanguageComparison {
  /** `primary`: navigator.languages is the header's first language alone, as WebKit exposes it. */
  verdict: 'same' | 'reduced' | 'primary' | 'different'
  /** navigator.languages entries the header lacks. */
  missing: string[]
  /** Header tags that are neither in navigator.languages nor a base language of one. */
  extra: string[]
  /** False when both have the same tags in a different order. */
  sameOrder: boolean
}

/**
 * Compares the header with navigator.languages: `same` when the header's preference order is
 * navigator.languages, allowing Chromium's added base languages; `reduced` when the header
 * carries only the first language (Chromium's Accept-Language reduction experiment,
 * https://github.com/explainers-by-googlers/reduce-accept-language); with `primaryOnly` (a
 * WebKit engine), `primary` when navigator.languages is the header's first language alone:
 * WebKit "intentionally expose[s] only the primary language for privacy reasons"
 * (https://github.com/WebKit/WebKit/blob/main/Source/WebCore/page/NavigatorBase.cpp,
 * NavigatorBase::languages) and sends the whole list in the header; else `different`.
 */
export function compareLanguages(ranges: readonly LanguageRange[], languages: readonly string[], options: { primaryOnly?: boolean } = {}): LanguageComparison {
  const lower = (s: string) => s.toLowerCase()
  const nav = languages.map(lower)
  const header = preferredTags(ranges).map(lower)
  const bases = new Set(nav.map((t) => t.split('-')[0]!))
  const missing = languages.filter((l) => !header.includes(lower(l)))
  const extra = preferredTags(ranges).filter((t) => !nav.includes(lower(t)) && !(bases.has(lower(t)) && !t.includes('-')))
  const inHeaderOrder = header.filter((t) => nav.includes(t))
  const sameOrder = inHeaderOrder.length === nav.length && inHeaderOrder.every((t, i) => t === nav[i])
  let verdict: LanguageComparison['verdict'] = 'different'
  if (!missing.length && !extra.length && sameOrder) verdict = 'same'
  else if (nav.length > 1 && header.length === 1 && header[0] === nav[0]) verdict = 'reduced'
  else if (options.primaryOnly && nav.length === 1 && header[0] === nav[0]) verdict = 'primary'
  return { verdict, missing, extra, sameOrder }
}
