// Geometry and words of the at-a-glance pictures (issue 58): bot-detector's verdict gauge with
// its check groups, the address's country and network card (ip-leak, vpn-detector), the time
// zone's UTC-offset band (timezone-geo) and the TLS hello's parts (tls-fingerprint, in
// ./tls-hello.ts). Numbers and sentences only: src/pages/pictures/glance.tsx writes the SVG,
// whose <title> is the `says` sentence here, the same facts in words. Pure: no clock (the
// instant is an argument), the IP database's answer comes in the stored results.

import { zoneOffsetMinutes, zonesOfRegion } from '../../../common/tz-offset'

/** The width of every glance picture's viewBox; its height follows the content. */
export const GLANCE_WIDTH = 320

const r1 = (n: number) => Math.round(n * 10) / 10
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`

/** Splits `text` into at most `lines` lines of at most `chars` characters, at spaces where it can; the last ends in "…" when cut. */
export function wrapText(text: string, chars: number, lines: number): string[] {
  const out: string[] = []
  let rest = text.trim()
  while (rest && out.length < lines) {
    if (rest.length <= chars) {
      out.push(rest)
      rest = ''
      break
    }
    const cut = rest.lastIndexOf(' ', chars)
    const at = cut > chars / 3 ? cut : chars
    out.push(rest.slice(0, at).trimEnd())
    rest = rest.slice(at).trimStart()
  }
  if (rest && out.length) out[out.length - 1] = `${out.at(-1)!.slice(0, chars - 1).trimEnd()}…`
  return out
}

// --- bot-detector: the verdict gauge and the check groups -----------------------------------

export interface GroupCount {
  title: string
  fail: number
  warn: number
  pass: number
  na: number
}

export interface Segment {
  verdict: 'fail' | 'warn' | 'pass' | 'na'
  count: number
  x: number
  width: number
}

export interface VerdictGauge {
  score: number
  /** "bot", "suspicious", "person" */
  word: string
  /** The score's x on the gauge. */
  at: number
  bands: Array<{ label: string; verdict: 'fail' | 'warn' | 'pass'; x: number; width: number }>
  groups: Array<GroupCount & { segments: Segment[]; text: string }>
  says: string
}

const GAUGE = { left: 8, right: GLANCE_WIDTH - 8 }
const VERDICT_WORDS: Record<string, string> = { bot: 'bot', suspicious: 'suspicious', human: 'person' }

/** Bands as bot-detector's verdict reads the score: 40 and under a bot, under 80 suspicious, a person from 80. */
export function verdictGauge(score: number, verdict: string, groups: readonly GroupCount[]): VerdictGauge {
  const span = GAUGE.right - GAUGE.left
  const x = (s: number) => r1(GAUGE.left + (Math.min(100, Math.max(0, s)) / 100) * span)
  const bands = [
    { label: 'bot', verdict: 'fail' as const, x: x(0), width: r1(x(40) - x(0)) },
    { label: 'suspicious', verdict: 'warn' as const, x: x(40), width: r1(x(80) - x(40)) },
    { label: 'person', verdict: 'pass' as const, x: x(80), width: r1(x(100) - x(80)) },
  ]
  const laid = groups.map((g) => {
    const total = g.fail + g.warn + g.pass + g.na
    let at = GAUGE.left
    const segments: Segment[] = []
    for (const verdict of ['fail', 'warn', 'pass', 'na'] as const) {
      if (!g[verdict]) continue
      const width = r1((g[verdict] / total) * span)
      segments.push({ verdict, count: g[verdict], x: r1(at), width })
      at += width
    }
    const parts = [g.fail ? `${g.fail} failed` : '', g.warn ? `${g.warn} warned` : '', `${g.pass} passed`, g.na ? `${g.na} could not run` : ''].filter(Boolean)
    return { ...g, segments, text: parts.join(', ') }
  })
  const word = VERDICT_WORDS[verdict] ?? verdict
  const says = `Verdict: ${word}, score ${score} of 100 (a bot at 40 or under, suspicious under 80, a person from 80). ${laid.map((g) => `${g.title}: ${g.text}.`).join(' ')}`
  return { score, word, at: x(score), bands, groups: laid, says }
}

// --- ip-leak, vpn-detector: the address's country and network --------------------------------

/** What ip-leak and vpn-detector store of the IP database's answer (lookupSection). */
export interface LookupPart {
  status: string
  country: string | null
  asn: number | null
  organization: string | null
  datacenter?: boolean | null
  network?: string | null
  provider?: string | null
  networkSource?: string | null
}

export interface NetworkCard {
  address: string
  /** "GB", or null when the database did not place it. */
  code: string | null
  country: string
  network: string
  kind: string
  says: string
}

const KIND_WORDS: Record<string, string> = { cloud: 'cloud servers', hosting: 'hosting servers', cdn: 'a content delivery network', vpn: 'a VPN operator', tor: 'a Tor exit', proxy: 'a proxy service' }

/** "United Kingdom" for GB (Intl's English names); the code itself when Intl has none. */
export function countryName(code: string): string {
  try {
    return new Intl.DisplayNames(['en'], { type: 'region' }).of(code) ?? code
  } catch {
    return code
  }
}

export function networkCard(address: string, scope: string | null, lookup: LookupPart): NetworkCard {
  if (lookup.status !== 'found') {
    const why =
      lookup.status === 'not-public'
        ? `a ${scope && scope !== 'public' ? `${scope} ` : 'local '}address, which belongs to no country or network`
        : lookup.status === 'no-database'
          ? 'not looked up: this instance has no IP database loaded'
          : 'not in the IP database (unallocated or unrouted space)'
    return { address, code: null, country: 'not known', network: 'not known', kind: why, says: `The address ${address}: ${why}.` }
  }
  const country = lookup.country ? `${countryName(lookup.country)} (${lookup.country})` : 'not known'
  const network = lookup.asn !== null ? `AS${lookup.asn}${lookup.organization ? ` ${lookup.organization}` : ''}` : 'no network (AS) listed'
  const kind = lookup.network ? `${KIND_WORDS[lookup.network] ?? lookup.network}${lookup.provider ? ` (${lookup.provider})` : ''}${lookup.networkSource === 'org-name-heuristic' ? ', guessed from its name' : ''}` : lookup.datacenter ? 'servers, not a home or mobile line' : 'no server network known: likely a home, office or mobile line'
  return { address, code: lookup.country, country, network, kind, says: `The address ${address} is ${lookup.country ? `in ${country}` : 'in no country the database knows'}, network ${network}: ${kind}. From the IP database this service ships, offline.` }
}

// --- timezone-geo: the browser's zone against the IP country's zones -------------------------

export interface ZoneBand {
  /** The axis: UTC−12 to UTC+14, labelled every 3 hours from −12 to +12. */
  ticks: Array<{ hours: number; x: number; label: string }>
  browser: { zone: string | null; offset: string | null; minutes: number | null; x: number | null }
  /** The IP country's distinct offsets now, east of UTC positive. */
  country: { code: string; name: string; offsets: Array<{ minutes: number; x: number; label: string }>; fits: boolean } | null
  says: string
}

const AXIS = { left: 14, right: GLANCE_WIDTH - 14, from: -12 * 60, to: 14 * 60 }
const xOfMinutes = (m: number) => r1(AXIS.left + ((Math.min(AXIS.to, Math.max(AXIS.from, m)) - AXIS.from) / (AXIS.to - AXIS.from)) * (AXIS.right - AXIS.left))

/** "UTC+05:30", "UTC−03:00", "UTC" for minutes east of UTC. */
export function utcText(minutes: number): string {
  if (minutes === 0) return 'UTC'
  const m = Math.abs(minutes)
  return `UTC${minutes > 0 ? '+' : '−'}${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`
}

/** "+09:00" (the results' utcOffset) → 540; null when it is not one. */
export function offsetMinutes(text: string | null): number | null {
  const m = text ? /^([+-])(\d{2}):(\d{2})$/.exec(text) : null
  return m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : null
}

export function zoneBand(t: { zone: string | null; utcOffset: string | null; ipCountry: string | null }, at: number): ZoneBand {
  const ticks = Array.from({ length: 9 }, (_, i) => -12 + i * 3).map((hours) => ({ hours, x: xOfMinutes(hours * 60), label: hours === 0 ? 'UTC' : `${hours > 0 ? '+' : '−'}${Math.abs(hours)}` }))
  const minutes = offsetMinutes(t.utcOffset)
  const browser = { zone: t.zone, offset: minutes === null ? null : utcText(minutes), minutes, x: minutes === null ? null : xOfMinutes(minutes) }
  let country: ZoneBand['country'] = null
  if (t.ipCountry) {
    const distinct = [...new Set(zonesOfRegion(t.ipCountry).map((z) => zoneOffsetMinutes(z, at)).filter((o): o is number => o !== null).map((o) => -o))].sort((a, b) => a - b)
    if (distinct.length) country = { code: t.ipCountry, name: countryName(t.ipCountry), offsets: distinct.map((m) => ({ minutes: m, x: xOfMinutes(m), label: utcText(m) })), fits: minutes !== null && distinct.includes(minutes) }
  }
  const mine = browser.offset ? `The browser's time zone is ${t.zone ?? 'unnamed'}, ${browser.offset} now.` : "The browser's time zone was not measured."
  const theirs = country
    ? ` The address is in ${country.name}, whose zones are ${country.offsets.length === 1 ? country.offsets[0]!.label : `${country.offsets[0]!.label} to ${country.offsets.at(-1)!.label} (${plural(country.offsets.length, 'offset')})`} now: the browser's offset ${country.fits ? 'is among them' : 'is not among them'}.`
    : " The address's country is not known (a local address, or not in the IP database), so there is no zone to expect."
  return { ticks, browser, country, says: mine + theirs }
}
