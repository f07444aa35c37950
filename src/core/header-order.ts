// The order in which a browser writes request headers is fixed by its network stack, and
// differs between engines; HTTP libraries and header-injecting tools write their own order.
// Rules below are pairs "a before b" observed on fetch() requests:
// - Chromium: client hints (sec-ch-ua*) start before User-Agent, Sec-Fetch-* come before
//   Accept-Encoding, which comes before Accept-Language (both last).
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

/** True when the names are in alphabetical order, i.e. the arrival order was not kept. */
export function looksSorted(names: readonly string[]): boolean {
  return names.length >= 4 && names.every((n, i) => i === 0 || names[i - 1]! <= n)
}

function position(names: readonly string[], name: string): number {
  return name.endsWith('*') ? names.findIndex((n) => n.startsWith(name.slice(0, -1))) : names.indexOf(name)
}

export interface OrderVerdict {
  /** Rules that applied (both names present). */
  applied: number
  /** Rules broken, as "a after b". */
  broken: string[]
}

/** Checks the arrival order of header names against a family's rules. */
export function checkOrder(names: readonly string[], family: OrderFamily): OrderVerdict {
  const lower = names.map((n) => n.toLowerCase())
  const broken: string[] = []
  let applied = 0
  for (const [a, b] of RULES[family]) {
    const pa = position(lower, a)
    const pb = position(lower, b)
    if (pa < 0 || pb < 0) continue
    applied++
    if (pa > pb) broken.push(`${a} after ${b}`)
  }
  return { applied, broken }
}
