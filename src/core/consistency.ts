// The `consistency` section of every task: what the client claims about itself, set against
// what the server saw of the same visit. Each item names the two sides, where each came from
// (`client`: reported by the page, spoofable; `server`: observed by the service) and whether
// they agree. The tools' checks score these comparisons in their own terms; this section puts
// the contradictions of a visit side by side, whichever tool page submitted it:
//
// - User-Agent header vs navigator.userAgent, and the browser it claims vs the TLS and HTTP/2
//   stack the service's listener saw (src/core/tls-families.ts);
// - Accept-Language header vs navigator.languages;
// - the IP country (offline IP database) vs the time zone and the languages;
// - the DNS resolvers that looked up the page's names vs the HTTP address;
// - public addresses from WebRTC (the page's ICE candidates, and the STUN/TURN listener's view
//   of the same browser) vs the HTTP address.
//
// Pure: it reads the validated signals structurally (the tools name the same probes' values
// alike: navigator, languages, zone, pageScope, ice…), the server's observation with its
// listener evidence, and the judges' context for the IP lookups.

import { Type, type Static } from '@sinclair/typebox'
import { acceptedTags } from './accept-language'
import { normalizeIp } from './ip'
import { ipScope, sameNetwork } from './ip-scope'
import { labelResolver } from './doh-providers'
import { compareFamily, FAMILY_NAME, http2Family, tlsFamily, type FamilyGuess } from './tls-families'
import { parseUserAgent, type ClaimedBrowser } from '../../common/user-agent'
import { intelOf, languagesFitCountry, networkText, zoneFitsCountry } from './tools/ip-intel'
import type { IceGathering } from '../../common/signals/webrtc-leak'
import { webrtcAddresses } from './tools/network-evidence'
import { evidenceOf, type ServerObservation } from './tools/observation'
import { tlsEvidenceOf, type TlsEvidence } from '../checks/tls-views'
import type { JudgeContext } from '../checks/define'

export const CONSISTENCY_VERDICTS = ['consistent', 'contradiction', 'unknown'] as const
export type ConsistencyVerdict = (typeof CONSISTENCY_VERDICTS)[number]
type Source = 'client' | 'server'

export const ConsistencyItemSchema = Type.Object({
  id: Type.String({ description: 'user-agent-navigator, user-agent-tls, user-agent-http2, accept-language-navigator, ip-country-time-zone, ip-country-languages, resolver-vs-ip, webrtc-vs-http.' }),
  claim: Type.Unknown({ description: 'The first side: what the client claims (or, for server-to-server comparisons, the HTTP address).' }),
  observed: Type.Unknown({ description: 'The side it is compared with, usually what the server observed.' }),
  sources: Type.Array(Type.Union([Type.Literal('client'), Type.Literal('server')]), { description: 'Where the claim and the observed value came from, in that order.' }),
  verdict: Type.Union(CONSISTENCY_VERDICTS.map((v) => Type.Literal(v)), { description: '`unknown` when a side is missing or the comparison cannot decide.' }),
  detail: Type.String({ description: 'One sentence: why the verdict.' }),
})
export type ConsistencyItem = Static<typeof ConsistencyItemSchema>

export const ConsistencySchema = Type.Object(
  {
    contradictions: Type.Integer({ description: 'Items whose verdict is `contradiction`.' }),
    items: Type.Array(ConsistencyItemSchema),
  },
  { description: 'What the client claims against what the server saw of the same visit, computed by the service.' },
)
export type Consistency = Static<typeof ConsistencySchema>

// ------------------------------------------------------------------ reading the signals

type Obj = Record<string, unknown>
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v)
const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string')

function at(root: unknown, path: readonly string[]): unknown {
  let v = root
  for (const k of path) {
    if (!isObj(v)) return undefined
    v = v[k]
  }
  return v
}

/** The first path whose value passes `ok`, with the path that gave it. */
function firstOf<T>(root: unknown, paths: readonly (readonly string[])[], ok: (v: unknown) => v is T): { value: T; from: string } | null {
  for (const p of paths) {
    const v = at(root, p)
    if (ok(v)) return { value: v, from: p.filter((k) => k !== 'value').join('.') }
  }
  return null
}

const isString = (v: unknown): v is string => typeof v === 'string' && v.length > 0

// Where the tools keep the same probe's values: a Signal's `value`, browser-fingerprint's
// components read twice (`value.value`), and the page-scope snapshots of bot-detector (`page`)
// and browser-fingerprint (`pageScope`).
const UA_PATHS = [['navigator', 'value', 'userAgent'], ['navigator', 'value', 'value', 'userAgent'], ['pageScope', 'value', 'userAgent'], ['page', 'value', 'userAgent']] as const
const LANGUAGE_PATHS = [
  ['navigator', 'value', 'languages'], ['languages', 'value', 'languages'], ['zone', 'value', 'languages'], ['languages', 'value', 'value', 'languages'], ['pageScope', 'value', 'languages'], ['page', 'value', 'languages'],
] as const
const ZONE_PATHS = [['zone', 'value', 'timeZone'], ['offsets', 'value', 'zone'], ['timezone', 'value', 'value', 'zone'], ['pageScope', 'value', 'timeZone'], ['page', 'value', 'timeZone']] as const

export interface ClientClaims {
  userAgent: { value: string; from: string } | null
  languages: { value: string[]; from: string } | null
  timeZone: { value: string; from: string } | null
  ice: IceGathering | null
}

/** What the submitted signals claim, wherever the tool keeps it. */
export function clientClaims(signals: unknown): ClientClaims {
  const ice = at(signals, ['ice', 'value'])
  return {
    userAgent: firstOf(signals, UA_PATHS, isString),
    languages: firstOf(signals, LANGUAGE_PATHS, (v): v is string[] => isStrings(v) && v.length > 0),
    timeZone: firstOf(signals, ZONE_PATHS, isString),
    ice: isObj(ice) && isStrings(ice.candidates) && typeof ice.sdp === 'string' ? (ice as unknown as IceGathering) : null,
  }
}

// ------------------------------------------------------------------ the items

/**
 * The details that are the same text in every task that has them. Stored tasks keep a short code
 * in their place and get the text back when served (src/core/check-text.ts), so these are part
 * of the stored form: after rewording one, run `npm run docs:checks`, which appends the new
 * text to src/core/stored-texts.json and keeps the old one, whose tasks still name it.
 */
const DETAIL = {
  uaNotReported: 'This tool does not report navigator.userAgent.',
  uaSame: 'The page reports the User-Agent the request carried.',
  languagesNotReported: 'This tool does not report navigator.languages.',
  noAcceptLanguage: 'The request carried no Accept-Language header.',
  languagesAgree: 'The header starts with the language navigator.languages starts with.',
  noIpDatabase: 'The service has not loaded its IP database.',
  zoneNotReported: 'This tool does not report the time zone.',
  utcNoCountry: 'UTC belongs to no country.',
  noLanguages: 'Neither navigator.languages nor an Accept-Language header.',
  onlyEnglish: 'Only English, which is used everywhere.',
  noDnsQuery: 'No DNS query for this page reached the service\'s DNS server (only the dns-leak page makes them).',
  resolverAbroad: 'A resolver in another country than the HTTP address looked up the page\'s names: DNS leaves outside the tunnel.',
  resolversFit: 'Every resolver is in the HTTP address\'s network or country, or a known public resolver.',
  httpUnplaced: 'The HTTP address cannot be placed, so the resolvers cannot be compared with it.',
  resolversUnplaced: 'Some resolvers cannot be placed.',
  webrtcNoPublic: 'WebRTC showed no public address, in the page or at the service\'s STUN listener.',
  webrtcNothing: 'This page gathered no WebRTC candidates and no STUN request reached the service.',
  webrtcFits: 'Every public WebRTC address is the HTTP address, in its IPv6 /64 or in its AS.',
  noTls: 'No TLS ClientHello for this page (the TLS listener is off, or the page did not reach it; and no JA4 or JA3 string from a trusted proxy).',
  noHttp2: 'No HTTP/2 connection preface for this page (the TLS listener is off, or the browser did not speak HTTP/2 to it; and no Akamai fingerprint from a trusted proxy).',
} as const
const stackMatches = (layer: string) => `The ${layer} stack is the claimed engine's.`
const stackUnknown = (layer: string) => `The ${layer} fingerprint matches no known stack, so it neither confirms nor refutes the claim.`
const STACK_LAYERS = ['TLS', 'HTTP/2']
/** Every fixed detail text (see DETAIL). */
export const FIXED_DETAILS: readonly string[] = [...Object.values(DETAIL), ...STACK_LAYERS.flatMap((l) => [stackMatches(l), stackUnknown(l)])]

const item = (id: string, claim: unknown, observed: unknown, sources: Source[], verdict: ConsistencyVerdict, detail: string): ConsistencyItem => ({ id, claim, observed, sources, verdict, detail })

function userAgentNavigator(claims: ClientClaims, server: ServerObservation): ConsistencyItem {
  const id = 'user-agent-navigator'
  const header = server.userAgent || null
  if (!claims.userAgent) return item(id, null, header, ['client', 'server'], 'unknown', DETAIL.uaNotReported)
  const same = claims.userAgent.value === server.userAgent
  return item(id, claims.userAgent.value, header, ['client', 'server'], same ? 'consistent' : 'contradiction',
    same ? DETAIL.uaSame : `navigator.userAgent (${claims.userAgent.from}) differs from the User-Agent header: one of them was overridden.`)
}

const claimName = (c: ClaimedBrowser) => (c.family === 'tool' ? `an HTTP client (${c.tool})` : `${c.family}${c.version ? ` ${c.version}` : ''} (${c.engine})`)

function stackItem(id: string, layer: string, claimed: ClaimedBrowser, guess: FamilyGuess | null, missing: string): ConsistencyItem {
  const claim = claimName(claimed)
  if (!guess) return item(id, claim, null, ['server', 'server'], 'unknown', missing)
  const observed = { family: guess.family, name: FAMILY_NAME[guess.family], reasons: guess.reasons }
  const cmp = compareFamily(guess.family, claimed)
  const detail =
    cmp === 'match' ? stackMatches(layer)
      : cmp === 'mismatch' ? `The User-Agent claims ${claim}, but the ${layer} stack is ${FAMILY_NAME[guess.family]}.`
        : guess.family === 'unknown' ? stackUnknown(layer)
          : `The User-Agent names no engine to compare the ${layer} stack (${FAMILY_NAME[guess.family]}) with.`
  return item(id, claim, observed, ['server', 'server'], cmp === 'match' ? 'consistent' : cmp === 'mismatch' ? 'contradiction' : 'unknown', detail)
}

const numOrNull = (v: unknown) => (typeof v === 'number' ? v : null)
const listenerOnly = (server: ServerObservation) => ({ evidence: (server.evidence ?? []).filter((e) => e.source !== 'proxy') })

// The listener's records first; without them, a trusted proxy's fingerprint headers, whose
// family reasons say what the headers could not show (GREASE).
function proxyGuess(server: ServerObservation, read: (e: TlsEvidence) => FamilyGuess | null): FamilyGuess | null {
  const e = tlsEvidenceOf(server)
  const guess = e?.source === 'proxy' ? read(e) : null
  return guess && { ...guess, reasons: [...guess.reasons, "read from a trusted proxy's headers"] }
}

function tlsGuess(server: ServerObservation): FamilyGuess | null {
  const t = evidenceOf(listenerOnly(server), 'tls')[0]
  if (isObj(t) && typeof t.ja4 === 'string' && typeof t.grease === 'boolean') {
    return tlsFamily({ ja4: t.ja4, grease: t.grease, ciphers: Array.isArray(t.ciphers) ? (t.ciphers as number[]) : null, extensions: Array.isArray(t.extensions) ? (t.extensions as number[]) : [], alps: numOrNull(t.alps), record_size_limit: numOrNull(t.record_size_limit) })
  }
  return proxyGuess(server, (e) => (e.tls ? tlsFamily(e.tls) : null))
}

function http2Guess(server: ServerObservation): FamilyGuess | null {
  const h = evidenceOf(listenerOnly(server), 'http2')[0]
  if (isObj(h) && typeof h.akamai === 'string') return http2Family(h.akamai)
  return proxyGuess(server, (e) => (e.http2 ? http2Family(e.http2.akamai) : null))
}

const base = (tag: string) => tag.split(/[-_]/)[0]!.toLowerCase()

function acceptLanguageNavigator(claims: ClientClaims, server: ServerObservation): ConsistencyItem {
  const id = 'accept-language-navigator'
  const accept = acceptedTags(server.headers.find(([k]) => k === 'accept-language')?.[1])
  const observed = accept.length ? accept : null
  if (!claims.languages) return item(id, null, observed, ['client', 'server'], 'unknown', DETAIL.languagesNotReported)
  if (!accept.length) return item(id, claims.languages.value, null, ['client', 'server'], 'unknown', DETAIL.noAcceptLanguage)
  const first = claims.languages.value[0]!
  const verdict = base(first) === base(accept[0]!) ? 'consistent' : 'contradiction'
  return item(id, claims.languages.value, accept, ['client', 'server'], verdict,
    verdict === 'consistent' ? DETAIL.languagesAgree : `navigator.languages starts with ${first} but the header with ${accept[0]}: one of them was rewritten.`)
}

function countryItems(claims: ClientClaims, server: ServerObservation, ctx: JudgeContext | undefined): ConsistencyItem[] {
  const intel = intelOf(ctx, server.ip)
  const country = intel.status === 'found' ? intel.info.country : null
  const observed = intel.status === 'found' ? { ip: server.ip, country, network: networkText(intel.info) } : { ip: server.ip, country: null }
  const why =
    intel.status === 'no-database' ? DETAIL.noIpDatabase
      : intel.status === 'not-public' ? `${server.ip} is not a public address (${intel.scope ?? 'not an IP'}), so it has no country.`
        : intel.status === 'unlisted' ? `${server.ip} is in no range of the IP database.`
          : country === null ? `The IP database has an AS but no country for ${server.ip}.` : null
  const year = new Date(server.receivedAt).getUTCFullYear()

  let zoneItem: ConsistencyItem
  const zone = claims.timeZone?.value ?? null
  if (!zone) zoneItem = item('ip-country-time-zone', null, observed, ['client', 'server'], 'unknown', DETAIL.zoneNotReported)
  else if (why || !country) zoneItem = item('ip-country-time-zone', zone, observed, ['client', 'server'], 'unknown', why!)
  else {
    const fits = zoneFitsCountry(zone, country, year)
    zoneItem = item('ip-country-time-zone', zone, observed, ['client', 'server'], fits === null ? 'unknown' : fits ? 'consistent' : 'contradiction',
      fits === null ? DETAIL.utcNoCountry : fits ? `${zone} is a zone of ${country} or has its offsets.` : `${zone} is not a zone of ${country} and has other offsets: a proxy or VPN, a faked zone, or a traveller.`)
  }

  // Languages: the page's list, or else the Accept-Language header the request carried.
  const accept = acceptedTags(server.headers.find(([k]) => k === 'accept-language')?.[1])
  const langs = claims.languages?.value ?? (accept.length ? accept : null)
  const langSource: Source = claims.languages ? 'client' : 'server'
  let langItem: ConsistencyItem
  if (!langs) langItem = item('ip-country-languages', null, observed, [langSource, 'server'], 'unknown', DETAIL.noLanguages)
  else if (why || !country) langItem = item('ip-country-languages', langs, observed, [langSource, 'server'], 'unknown', why!)
  else {
    const fits = languagesFitCountry(langs, country)
    langItem = item('ip-country-languages', langs, observed, [langSource, 'server'], fits === null ? 'unknown' : fits ? 'consistent' : 'contradiction',
      fits === null ? DETAIL.onlyEnglish : fits ? `A language of ${country} is among them.` : `None of them is a language of ${country}.`)
  }
  return [zoneItem, langItem]
}

/** Is `a` the HTTP address's network: the same address or /64, or the same AS? */
function sameAsHttp(a: string, http: string, ctx: JudgeContext | undefined): { same: boolean; network: string | null } {
  const intel = intelOf(ctx, a)
  const httpIntel = intelOf(ctx, http)
  const network = intel.status === 'found' ? networkText(intel.info) : null
  if (sameNetwork(a, http)) return { same: true, network }
  const asn = intel.status === 'found' ? intel.info.asn : null
  return { same: asn !== null && httpIntel.status === 'found' && httpIntel.info.asn === asn, network }
}

function resolverItem(server: ServerObservation, ctx: JudgeContext | undefined): ConsistencyItem {
  const id = 'resolver-vs-ip'
  const resolvers = [...new Set(evidenceOf(server, 'dns').map((d) => (isObj(d) && typeof d.resolver === 'string' ? normalizeIp(d.resolver) : null)).filter((r): r is string => !!r))]
  if (!resolvers.length) return item(id, server.ip, null, ['server', 'server'], 'unknown', DETAIL.noDnsQuery)
  const http = intelOf(ctx, server.ip)
  const rows = resolvers.map((r) => {
    const intel = intelOf(ctx, r)
    const info = intel.status === 'found' ? intel.info : null
    const provider = labelResolver(r, info?.asn ?? null)?.provider.name ?? null
    const same = sameAsHttp(r, server.ip, ctx).same
    const otherCountry = !same && !provider && info?.country && http.status === 'found' && http.info.country ? info.country !== http.info.country : null
    return { resolver: r, network: info ? networkText(info) : null, provider, verdict: same || provider ? ('consistent' as const) : otherCountry === true ? ('contradiction' as const) : otherCountry === false ? ('consistent' as const) : ('unknown' as const) }
  })
  const verdict: ConsistencyVerdict = rows.some((r) => r.verdict === 'contradiction') ? 'contradiction' : rows.every((r) => r.verdict === 'consistent') ? 'consistent' : 'unknown'
  const detail =
    verdict === 'contradiction' ? DETAIL.resolverAbroad
      : verdict === 'consistent' ? DETAIL.resolversFit
        : http.status !== 'found' ? DETAIL.httpUnplaced : DETAIL.resolversUnplaced
  const httpSide = http.status === 'found' ? `${server.ip} (${networkText(http.info)})` : server.ip
  return item(id, httpSide, rows, ['server', 'server'], verdict, detail)
}

function webrtcItem(claims: ClaimedAddresses, server: ServerObservation, ctx: JudgeContext | undefined): ConsistencyItem {
  const id = 'webrtc-vs-http'
  const all = [...claims.page.map((a) => ({ address: a, source: 'client' as const })), ...claims.listener.filter((a) => !claims.page.includes(a)).map((a) => ({ address: a, source: 'server' as const }))]
  const sources: Source[] = [...new Set(all.map((a) => a.source))]
  if (!all.length) {
    return item(id, server.ip, null, ['server', 'client'], 'unknown', claims.gathered ? DETAIL.webrtcNoPublic : DETAIL.webrtcNothing)
  }
  const rows = all.map((a) => ({ ...a, ...sameAsHttp(a.address, server.ip, ctx) }))
  const other = rows.filter((r) => !r.same)
  return item(id, server.ip, rows.map((r) => ({ address: r.address, source: r.source, network: r.network, sameAsHttp: r.same })), ['server', ...sources],
    other.length ? 'contradiction' : 'consistent',
    other.length ? `WebRTC reveals ${other.map((r) => r.address).join(', ')}, outside the HTTP address's network: traffic can leave outside the proxy or VPN.` : DETAIL.webrtcFits)
}

interface ClaimedAddresses {
  /** Public addresses in the page's ICE candidates. */
  page: string[]
  /** Public source addresses the STUN/TURN listener saw for this page's nonce. */
  listener: string[]
  gathered: boolean
}

function webrtcSides(claims: ClientClaims, server: ServerObservation): ClaimedAddresses {
  const page = claims.ice ? webrtcAddresses(claims.ice).addresses.filter((a) => a.kind === 'public').map((a) => normalizeIp(a.address)) : []
  const listener = [...evidenceOf(server, 'stun'), ...evidenceOf(server, 'turn')]
    .map((d) => (isObj(d) && typeof d.address === 'string' ? normalizeIp(d.address) : null))
    .filter((a): a is string => !!a && ipScope(a) === 'public')
  return { page: [...new Set(page)], listener: [...new Set(listener)], gathered: claims.ice !== null || evidenceOf(server, 'stun').length > 0 }
}

/**
 * The consistency section of a task: every comparison this visit allows, `unknown` where one
 * side is missing (the tool does not collect it, a listener is off, the database has no answer).
 */
export function consistencyOf(signals: unknown, server: ServerObservation, ctx?: JudgeContext): Consistency {
  const claims = clientClaims(signals)
  const claimed = parseUserAgent(server.userAgent)
  const items = [
    userAgentNavigator(claims, server),
    stackItem('user-agent-tls', STACK_LAYERS[0]!, claimed, tlsGuess(server), DETAIL.noTls),
    stackItem('user-agent-http2', STACK_LAYERS[1]!, claimed, http2Guess(server), DETAIL.noHttp2),
    acceptLanguageNavigator(claims, server),
    ...countryItems(claims, server, ctx),
    resolverItem(server, ctx),
    webrtcItem(webrtcSides(claims, server), server, ctx),
  ]
  return { contradictions: items.filter((i) => i.verdict === 'contradiction').length, items }
}
