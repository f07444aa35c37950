// TLS and HTTP/2 fingerprints read from headers a TLS-terminating reverse proxy adds
// (TLS_FINGERPRINT_HEADERS), for deployments where the service's own TLS evidence listener
// cannot see the client's handshake. Pure: the HTTP layer decides whether the request's socket
// peer is a trusted proxy (TRUSTED_PROXIES) and only then calls proxyFingerprintEvidence.
//
// What proxies give: JA4 (nginx and Caddy/Traefik modules, HAProxy, Cloudflare's
// `cf.bot_management.ja4`, Fastly's `tls.client.ja4`), JA4_r, the JA3 string or its MD5
// (Cloudflare's `ja3_hash`), JA3N, and a few the Akamai HTTP/2 fingerprint. Every value is
// checked against its format (https://github.com/FoxIO-LLC/ja4/blob/main/technical_details/JA4.md,
// https://github.com/salesforce/ja3, src/evidence/http2.ts for Akamai's); a value that does not
// fit is left out and noted, never trusted half-way.
//
// What none of them show: GREASE (JA3 and JA4 drop it by definition), so `grease` is null
// (unknown), not false; the extension order (JA4 sorts, and Chrome shuffles anyway); the
// extension values (record_size_limit's limit, ALPS's protocols). Those checks are skipped.

import { md5Hex } from './digests'
import { ja4CipherHash, ja4Hash } from './ja'
import { isGrease } from './tls-client-hello'

export const PROXY_FINGERPRINT_FIELDS = ['ja4', 'ja4_r', 'ja3', 'ja3_hash', 'ja3n_hash', 'akamai'] as const
export type ProxyFingerprintField = (typeof PROXY_FINGERPRINT_FIELDS)[number]

/** Which request header carries each fingerprint; names lower-cased. */
export type ProxyHeaderMap = Partial<Record<ProxyFingerprintField, string>>

// RFC 9110 §5.6.2 token characters; longer names than this are a typo, not a header.
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,64}$/

/** Parses `ja4=X-JA4,ja3=X-JA3,akamai=X-HTTP2-Fingerprint`; the error says which entry is wrong. */
export function parseProxyHeaderMap(text: string): { ok: true; map: ProxyHeaderMap } | { ok: false; error: string } {
  const map: ProxyHeaderMap = {}
  const used = new Set<string>()
  for (const raw of text.split(',')) {
    const entry = raw.trim()
    const eq = entry.indexOf('=')
    if (eq < 0) return { ok: false, error: `'${entry}' is not <field>=<header name> (fields: ${PROXY_FINGERPRINT_FIELDS.join(', ')})` }
    const field = entry.slice(0, eq).trim()
    const header = entry.slice(eq + 1).trim()
    if (!(PROXY_FINGERPRINT_FIELDS as readonly string[]).includes(field)) return { ok: false, error: `unknown field '${field}' (fields: ${PROXY_FINGERPRINT_FIELDS.join(', ')})` }
    if (!HEADER_NAME.test(header)) return { ok: false, error: `'${header}' is not a header name (for ${field})` }
    const f = field as ProxyFingerprintField
    if (map[f] !== undefined) return { ok: false, error: `${field} is given twice` }
    const name = header.toLowerCase()
    if (used.has(name)) return { ok: false, error: `header ${header} is named for two fields` }
    used.add(name)
    map[f] = name
  }
  return { ok: true, map }
}

/** A header that was set but not believed, and why. */
export interface IgnoredHeader {
  field: ProxyFingerprintField
  header: string
  reason: string
}

/**
 * Evidence kind 'tls' from a proxy: the fingerprints it sent and what they reveal. Field names
 * follow the listener's TlsRecord (src/evidence/tls-records.ts); null = not visible here.
 */
export interface ProxyTlsData {
  /** The header each value came from, by field. */
  headers: ProxyHeaderMap
  ja4: string | null
  ja4_r: string | null
  ja3: string | null
  ja3_hash: string | null
  ja3n: string | null
  ja3n_hash: string | null
  /** JA4 version code of the highest version offered ('13'), from JA4 or JA4_r. */
  version: string | null
  /** JA4 transport: t (TCP), q (QUIC), d (DTLS). */
  transport: string | null
  /** JA4's two ALPN characters: 'h2', 'h1' (http/1.1), 'h3', '00' (no ALPN). */
  ja4_alpn: string | null
  /** JA4 part b: SHA-256 of the sorted cipher list, from JA4, JA4_r or the JA3 ciphers. */
  cipher_hash: string | null
  /** From JA3 in the order sent, or sorted from JA4_r; GREASE never included. */
  ciphers: number[] | null
  /** From JA3 in the order sent; from JA4_r sorted and without SNI (0) and ALPN (16). */
  extensions: number[] | null
  groups: number[] | null
  point_formats: number[] | null
  signature_algorithms: number[] | null
  legacy_version: number | null
  /** Unknown: JA3 and JA4 leave GREASE out. True only when a non-standard JA3 kept GREASE values. */
  grease: boolean | null
  /** ALPS codepoint when the extension list shows it (17513, 17613); null when absent or not visible. */
  alps: number | null
  /** The limit is not in any fingerprint; whether the extension (28) was sent is in `extensions`. */
  record_size_limit: null
  ignored: IgnoredHeader[]
}

/** Evidence kind 'http2' from a proxy: the Akamai fingerprint and its parts. */
export interface ProxyHttp2Data {
  headers: ProxyHeaderMap
  akamai: string | null
  akamai_hash: string | null
  settings: Array<[number, number]> | null
  window_update: number | null
  pseudo_header_order: string[] | null
  ignored: IgnoredHeader[]
}

export type ProxyEvidenceItem = { kind: 'tls'; source: 'proxy'; data: ProxyTlsData } | { kind: 'http2'; source: 'proxy'; data: ProxyHttp2Data }

/** Longest value believed per field: a JA4 is 36 characters; JA3 and JA4_r lists of 100+ values fit in 4 KiB. */
export const MAX_VALUE_LENGTH: Record<ProxyFingerprintField, number> = { ja4: 64, ja4_r: 4096, ja3: 4096, ja3_hash: 64, ja3n_hash: 64, akamai: 1024 }

const JA4_A = /^([tqd])(13|12|11|10|s3|s2|d1|d2|d3|00)([di])(\d{2})(\d{2})([0-9A-Za-z]{2})$/
const JA4 = /^([tqd](?:13|12|11|10|s3|s2|d1|d2|d3|00)[di]\d{4}[0-9A-Za-z]{2})_([0-9a-f]{12})_([0-9a-f]{12})$/
const HEX4_LIST = /^[0-9a-f]{4}(?:,[0-9a-f]{4})*$/
const MD5 = /^[0-9a-fA-F]{32}$/
const DEC_LIST = /^\d{1,5}(?:-\d{1,5})*$/
const AKAMAI_SETTINGS = /^\d{1,5}:\d{1,10}(?:[;,]\d{1,5}:\d{1,10})*$/
const AKAMAI_PRIORITY = /^(?:0|\d{1,10}:[01]:\d{1,10}:\d{1,3}(?:,\d{1,10}:[01]:\d{1,10}:\d{1,3})*)$/
const PSEUDO: Record<string, string> = { m: ':method', a: ':authority', s: ':scheme', p: ':path' }

type Check<T> = { ok: true; value: T } | { ok: false; reason: string }
const bad = (reason: string): { ok: false; reason: string } => ({ ok: false, reason })
/** The parsed value with the header's text kept beside it. */
const withText =
  <T>(parse: (v: string) => Check<T>) =>
  (v: string): Check<T & { text: string }> => {
    const r = parse(v)
    return r.ok ? { ok: true, value: { ...r.value, text: v } } : r
  }

interface Ja4Head {
  transport: string
  version: string
  ciphers: number
  alpn: string
}

function ja4Head(a: string): Ja4Head | null {
  const m = JA4_A.exec(a)
  return m ? { transport: m[1]!, version: m[2]!, ciphers: Number(m[4]), alpn: m[6]! } : null
}

function parseJa4(v: string): Check<{ head: Ja4Head; cipherHash: string }> {
  const m = JA4.exec(v)
  const head = m ? ja4Head(m[1]!) : null
  if (!m || !head) return bad('not a JA4 fingerprint (like t13d1516h2_8daaf6152771_02713d6af862)')
  return { ok: true, value: { head, cipherHash: m[2]! } }
}

const hexList = (s: string) => (s === '' ? [] : s.split(',').map((x) => parseInt(x, 16)))

function parseJa4r(v: string): Check<{ head: Ja4Head; ja4: string; ciphers: number[]; extensions: number[]; signatures: number[] }> {
  const shape = 'not a JA4_r fingerprint (like t13d1516h2_002f,0035,…_0005,000a,…_0403,0804,…)'
  const parts = v.split('_')
  if (parts.length !== 3 && parts.length !== 4) return bad(shape)
  const [a, b, c, d] = parts as [string, string, string, string | undefined]
  const head = ja4Head(a)
  if (!head || (b !== '' && !HEX4_LIST.test(b)) || (c !== '' && !HEX4_LIST.test(c)) || (d !== undefined && (c === '' || !HEX4_LIST.test(d)))) return bad(shape)
  const ciphers = hexList(b)
  const sorted = (l: number[]) => l.every((x, i) => i === 0 || l[i - 1]! <= x)
  if (!sorted(ciphers) || !sorted(hexList(c))) return bad('JA4_r lists ciphers or extensions out of order (they are sorted by definition)')
  if (Math.min(ciphers.length, 99) !== head.ciphers) return bad(`JA4_r says ${head.ciphers} ciphers but lists ${ciphers.length}`)
  const raw = d === undefined ? c : `${c}_${d}`
  return { ok: true, value: { head, ja4: `${a}_${ja4Hash(b)}_${ja4Hash(raw)}`, ciphers, extensions: hexList(c), signatures: d === undefined ? [] : hexList(d) } }
}

interface Ja3Parts {
  version: number
  ciphers: number[]
  extensions: number[]
  groups: number[]
  pointFormats: number[]
  /** JA3 with the extensions sorted, as the listener's JA3N. */
  ja3n: string
}

function parseJa3(v: string): Check<Ja3Parts> {
  const shape = 'not a JA3 string (like 771,4865-4866-…,0-23-65281-…,29-23-24,0)'
  const parts = v.split(',')
  if (parts.length !== 5) return bad(shape)
  const [ver, ...lists] = parts as [string, string, string, string, string]
  if (!/^\d{1,5}$/.test(ver) || lists.some((l) => l !== '' && !DEC_LIST.test(l))) return bad(shape)
  const nums = lists.map((l) => (l === '' ? [] : l.split('-').map(Number)))
  const [ciphers, extensions, groups, pointFormats] = nums as [number[], number[], number[], number[]]
  if (Number(ver) > 0xffff || [ciphers, extensions, groups].some((l) => l.some((x) => x > 0xffff)) || pointFormats.some((x) => x > 0xff)) return bad(`${shape}: a value is out of range`)
  const ja3n = [ver, lists[0], [...extensions].sort((x, y) => x - y).join('-'), lists[2], lists[3]].join(',')
  return { ok: true, value: { version: Number(ver), ciphers, extensions, groups, pointFormats, ja3n } }
}

function parseMd5(v: string, what: string): Check<string> {
  return MD5.test(v) ? { ok: true, value: v.toLowerCase() } : bad(`not a ${what} (32 hexadecimal digits)`)
}

function parseAkamai(v: string): Check<Omit<ProxyHttp2Data, 'headers' | 'ignored'>> {
  const shape = 'not an Akamai HTTP/2 fingerprint (like 1:65536;2:0;4:6291456;6:262144|15663105|0|m,a,s,p)'
  const parts = v.split('|')
  if (parts.length !== 4) return bad(shape)
  const [s, w, p, order] = parts as [string, string, string, string]
  if (!AKAMAI_SETTINGS.test(s) || !/^(?:00|\d{1,10})$/.test(w) || !AKAMAI_PRIORITY.test(p) || !/^[masp](?:,[masp]){0,3}$/.test(order)) return bad(shape)
  const settings = s.split(/[;,]/).map((kv) => kv.split(':').map(Number) as [number, number])
  const letters = order.split(',')
  if (new Set(letters).size !== letters.length) return bad(`${shape}: a pseudo-header appears twice`)
  if (settings.some(([id, value]) => id > 0xffff || value > 0xffffffff) || Number(w) > 0x7fffffff) return bad(`${shape}: a value is out of range`)
  // Some proxies separate SETTINGS with commas; the table in src/core/tls-families.ts uses
  // semicolons, as Akamai's paper does.
  const akamai = `${settings.map(([id, value]) => `${id}:${value}`).join(';')}|${w}|${p}|${order}`
  return {
    ok: true,
    value: { akamai, akamai_hash: md5Hex(akamai), settings, window_update: w === '00' ? null : Number(w), pseudo_header_order: letters.map((l) => PSEUDO[l]!) },
  }
}

/** GREASE values removed, and whether there were any (a non-standard JA3 may keep them). */
function splitGrease(values: readonly number[]): { values: number[]; grease: boolean } {
  const kept = values.filter((v) => !isGrease(v))
  return { values: kept, grease: kept.length !== values.length }
}

const ALPS_CODEPOINTS = [17513, 17613]

/**
 * The validated fingerprints a trusted proxy put in the request's headers, as evidence items
 * ('tls' and/or 'http2', at most one each) marked `source: 'proxy'`. A header that is absent,
 * empty or '-' (an unset nginx variable) is skipped; one that is too long or malformed is
 * left out and listed in its item's `ignored`.
 */
export function proxyFingerprintEvidence(map: ProxyHeaderMap, headers: Headers): ProxyEvidenceItem[] {
  const ignoredTls: IgnoredHeader[] = []
  const ignoredH2: IgnoredHeader[] = []
  const read = <T>(field: ProxyFingerprintField, parse: (v: string) => Check<T>): T | null => {
    const name = map[field]
    if (name === undefined) return null
    const v = headers.get(name)?.trim()
    if (!v || v === '-') return null
    const ignored = field === 'akamai' ? ignoredH2 : ignoredTls
    if (v.length > MAX_VALUE_LENGTH[field]) {
      ignored.push({ field, header: name, reason: `longer than ${MAX_VALUE_LENGTH[field]} characters (${v.length})` })
      return null
    }
    const r = parse(v)
    if (!r.ok) ignored.push({ field, header: name, reason: r.reason })
    return r.ok ? r.value : null
  }
  const present = (field: ProxyFingerprintField) => map[field] !== undefined && headers.has(map[field]!)

  const ja4 = read('ja4', withText(parseJa4))
  const ja4r = read('ja4_r', (v) => {
    const r = withText(parseJa4r)(v)
    // Both describe one hello; when they disagree the proxy is misconfigured (JA4_ro, say).
    return r.ok && ja4 && r.value.ja4 !== ja4.text ? bad(`does not hash to the JA4 header's value (${r.value.ja4} ≠ ${ja4.text})`) : r
  })
  const ja3 = read('ja3', withText(parseJa3))
  const ja3Hash = read('ja3_hash', (v) => parseMd5(v, 'JA3 hash'))
  const ja3nHash = read('ja3n_hash', (v) => parseMd5(v, 'JA3N hash'))
  const h2 = read('akamai', parseAkamai)

  const items: ProxyEvidenceItem[] = []
  const tlsFields = PROXY_FINGERPRINT_FIELDS.filter((f) => f !== 'akamai')
  if (ja4 || ja4r || ja3 || ja3Hash || ja3nHash || ignoredTls.length) {
    const c3 = ja3 ? splitGrease(ja3.ciphers) : null
    const e3 = ja3 ? splitGrease(ja3.extensions) : null
    const g3 = ja3 ? splitGrease(ja3.groups) : null
    const cr = ja4r ? splitGrease(ja4r.ciphers) : null
    const er = ja4r ? splitGrease(ja4r.extensions) : null
    const grease = [c3, e3, g3, cr, er].some((l) => l?.grease) ? true : null
    const extensions = e3?.values ?? er?.values ?? null
    const ciphers = c3?.values ?? cr?.values ?? null
    const head = ja4?.head ?? ja4r?.head ?? null
    items.push({
      kind: 'tls',
      source: 'proxy',
      data: {
        headers: Object.fromEntries(tlsFields.filter(present).map((f) => [f, map[f]!])),
        ja4: ja4?.text ?? ja4r?.ja4 ?? null,
        ja4_r: ja4r?.text ?? null,
        ja3: ja3?.text ?? null,
        ja3_hash: ja3Hash ?? (ja3 ? md5Hex(ja3.text) : null),
        ja3n: ja3?.ja3n ?? null,
        ja3n_hash: ja3nHash ?? (ja3 ? md5Hex(ja3.ja3n) : null),
        version: head?.version ?? null,
        transport: head?.transport ?? null,
        ja4_alpn: head?.alpn ?? null,
        cipher_hash: ja4?.cipherHash ?? (ciphers ? ja4CipherHash(ciphers) : null),
        ciphers,
        extensions,
        groups: g3?.values ?? null,
        point_formats: ja3?.pointFormats ?? null,
        signature_algorithms: ja4r?.signatures ?? null,
        legacy_version: ja3?.version ?? null,
        grease,
        alps: extensions?.find((e) => ALPS_CODEPOINTS.includes(e)) ?? null,
        record_size_limit: null,
        ignored: ignoredTls,
      },
    })
  }
  if (h2 || ignoredH2.length) {
    items.push({
      kind: 'http2',
      source: 'proxy',
      data: { headers: present('akamai') ? { akamai: map.akamai! } : {}, ...(h2 ?? { akamai: null, akamai_hash: null, settings: null, window_update: null, pseudo_header_order: null }), ignored: ignoredH2 },
    })
  }
  return items
}
