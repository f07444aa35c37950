// The order in which a browser writes request headers is fixed by its network stack, and
// differs between engines; HTTP libraries and header-injecting tools write their own order.
// Rules below are pairs "a before b", learned from what real browsers send (fixtures captured
// over real TLS: src/core/header-order.test.ts, src/evidence/fixtures/navigations.json):
// - Chromium: client hints (sec-ch-ua*) start before User-Agent, Sec-Fetch-* come before
//   Accept-Encoding, which comes before Accept-Language (both last). One exception, in every
//   first visit: the navigation Chromium restarts because the page named hints in Critical-CH
//   that the first request lacked writes User-Agent and Accept first and then every hint, before
//   Sec-Fetch-Site (the "restart" layout; the hints block is all in one piece there).
// - Firefox: User-Agent right after Host, then Accept, Accept-Language, Accept-Encoding, and
//   Sec-Fetch-* near the end.
// Only meaningful when the server kept the arrival order: Bun's Request.headers iterates in
// sorted order (the Fetch standard's "sort and combine"), so an alphabetical list says nothing.

export type OrderFamily = 'chromium' | 'firefox'

const RULES: Record<OrderFamily, ReadonlyArray<[string, string]>> = {
  chromium: [
    ['sec-ch-ua*', 'user-agent'],
    ['sec-fetch-site', 'accept-encoding'],
    ['sec-fetch-mode', 'accept-encoding'],
    ['accept-encoding', 'accept-language'],
    ['user-agent', 'accept-encoding'],
  ],
  firefox: [
    ['user-agent', 'accept'],
    ['accept', 'accept-language'],
    ['accept', 'accept-encoding'],
    ['accept-language', 'accept-encoding'],
    ['accept-encoding', 'sec-fetch-dest'],
    ['accept-encoding', 'sec-fetch-mode'],
  ],
}

/**
 * Chromium's navigation restarted for Critical-CH: User-Agent, Accept, then the hints in one
 * block (`hints<` its first, `hints>` its last), then Sec-Fetch-*, Accept-Encoding, Accept-Language.
 */
const RESTART_RULES: ReadonlyArray<[string, string]> = [
  ['user-agent', 'accept'],
  ['accept', 'hints<'],
  ['hints>', 'sec-fetch-site'],
  ['sec-fetch-site', 'accept-encoding'],
  ['sec-fetch-mode', 'accept-encoding'],
  ['accept-encoding', 'accept-language'],
]

/** Legacy client-hint names Chromium still sends when asked (beside the Sec-CH-* ones). */
const LEGACY_HINTS = new Set(['device-memory', 'dpr', 'viewport-width', 'width', 'rtt', 'downlink', 'ect'])
/** A client hint's name (lower case): Sec-CH-* or one of the legacy names. */
export const isHint = (name: string) => name.startsWith('sec-ch-') || LEGACY_HINTS.has(name)

/** True when the names are in alphabetical order, i.e. the arrival order was not kept. */
export function looksSorted(names: readonly string[]): boolean {
  return names.length >= 4 && names.every((n, i) => i === 0 || names[i - 1]! <= n)
}

function position(names: readonly string[], name: string): number {
  if (name === 'hints<') return names.findIndex(isHint)
  if (name === 'hints>') return names.findLastIndex(isHint)
  return name.endsWith('*') ? names.findIndex((n) => n.startsWith(name.slice(0, -1))) : names.indexOf(name)
}

export interface OrderVerdict {
  /** Rules that applied (both names present). */
  applied: number
  /** Rules broken, as "a after b". */
  broken: string[]
  /** Which of the family's layouts was judged: 'restart' is Chromium's navigation restarted for Critical-CH. */
  layout: 'usual' | 'restart'
}

export interface OrderContext {
  /**
   * The request is a navigation to a page that names these hints in Critical-CH (lower or any
   * case): a Chromium request carrying all of them with its hints after User-Agent is the
   * restarted navigation and is judged by that layout.
   */
  criticalHints?: readonly string[]
}

/** Whether `names` are the restarted navigation's: every critical hint present, the hints after User-Agent, in one block. */
function restartLayout(lower: readonly string[], critical: readonly string[]): boolean {
  if (!critical.length || !critical.every((h) => lower.includes(h.toLowerCase()))) return false
  const ua = lower.indexOf('user-agent')
  const first = lower.findIndex(isHint)
  const last = lower.findLastIndex(isHint)
  if (ua < 0 || first < ua) return false
  return lower.slice(first, last + 1).every(isHint)
}

/** Checks the arrival order of header names against a family's rules. */
export function checkOrder(names: readonly string[], family: OrderFamily, context: OrderContext = {}): OrderVerdict {
  const lower = names.map((n) => n.toLowerCase())
  const layout = family === 'chromium' && restartLayout(lower, context.criticalHints ?? []) ? 'restart' : 'usual'
  const broken: string[] = []
  let applied = 0
  for (const [a, b] of layout === 'restart' ? RESTART_RULES : RULES[family]) {
    const pa = position(lower, a)
    const pb = position(lower, b)
    if (pa < 0 || pb < 0) continue
    applied++
    if (pa > pb) broken.push(`${label(a)} after ${label(b)}`)
  }
  return { applied, broken, layout }
}

const label = (name: string) => (name === 'hints<' ? 'the first client hint' : name === 'hints>' ? 'the last client hint' : name)
