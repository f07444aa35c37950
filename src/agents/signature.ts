// Web Bot Auth on one request (draft-ietf-webbotauth-httpsig-protocol over RFC 9421): reads
// Signature-Input, Signature and Signature-Agent, picks the `web-bot-auth` signature, checks
// what needs no network (tag, algorithm, created/expires and the 24-hour bound, the components
// the draft requires) and builds the signature base. Pure: the directory lookup and the
// Ed25519 verification are src/agents/verify.ts's.

import type { AgentCode, AgentConformance } from '../core/agent-outcome'
import { isInnerList, param, parseDictionary, parseItem, serializeMember, serializeParams, type Bare, type InnerList, type Item } from './structured-fields'

export const WEB_BOT_AUTH_TAG = 'web-bot-auth'
export const DIRECTORY_PATH = '/.well-known/http-message-signatures-directory'
/** The draft's bound on `expires - created`. */
export const MAX_LIFETIME_SECONDS = 24 * 60 * 60
/** Clock difference tolerated on `created` and `expires`. */
export const CLOCK_SKEW_SECONDS = 60

export interface SignedRequest {
  method: string
  /** The URL the client asked for (scheme, authority, path and query). */
  url: string
  header(name: string): string | null
}

/** A signature ready for its key: what the directory lookup and the verification need. */
export interface Candidate {
  label: string
  keyid: string
  directory: string
  base: Uint8Array
  signature: Uint8Array
  created: number
  expires: number
  conformance: AgentConformance
}

export type Reading =
  | { kind: 'unsigned' }
  | { kind: 'candidate'; candidate: Candidate }
  | { kind: 'refused'; state: 'invalid' | 'unverified'; code: AgentCode; reason: string; label?: string; keyid?: string; directory?: string; conformance: AgentConformance }

const str = (v: Bare | undefined): string | undefined => (typeof v === 'string' ? v : undefined)
const int = (v: Bare | undefined): number | undefined => (typeof v === 'number' && Number.isInteger(v) ? v : undefined)

/** The directory URL a Signature-Agent value names: an origin means its well-known directory. */
export function directoryUrl(value: string): string | null {
  let u: URL
  try {
    u = new URL(value)
  } catch {
    return null
  }
  if (u.protocol !== 'https:' || u.username || u.password) return null
  if (u.pathname === '/' && !u.search) u.pathname = DIRECTORY_PATH
  u.hash = ''
  return u.toString()
}

interface AgentHeader {
  form: 'dictionary' | 'legacy'
  url: string | null
  type?: string
}

/** The Signature-Agent value for a signature: the dictionary member `key` names (or the label), or the legacy single String. */
function readAgent(field: string, memberKey: string | undefined, label: string): AgentHeader | null {
  const t = field.trim()
  const item = parseItem(t)
  if (item && typeof item.value === 'string') return { form: 'legacy', url: item.value }
  const dict = parseDictionary(t)
  if (dict) {
    const m = dict.find(([k]) => k === (memberKey ?? label))?.[1] ?? (dict.length === 1 ? dict[0]![1] : undefined)
    if (!m || isInnerList(m) || typeof m.value !== 'string') return { form: 'dictionary', url: null }
    const type = str(param(m.params, 'type'))
    return { form: 'dictionary', url: m.value, ...(type !== undefined ? { type } : {}) }
  }
  // The earliest drafts sent the URL bare, unquoted.
  return /^https?:\/\/\S+$/.test(t) ? { form: 'legacy', url: t } : null
}

/** A derived component's value (RFC 9421 §2.2); undefined when the request has none. */
function derived(name: string, req: SignedRequest): string | undefined {
  const u = new URL(req.url)
  switch (name) {
    case '@method':
      // Case-sensitive, not transformed (RFC 9421 §2.2.1).
      return req.method
    case '@target-uri':
      return u.toString()
    case '@authority':
      return u.host.toLowerCase()
    case '@scheme':
      return u.protocol.slice(0, -1).toLowerCase()
    case '@request-target':
      return u.pathname + u.search
    case '@path':
      return u.pathname || '/'
    case '@query':
      return u.search || '?'
    default:
      return undefined
  }
}

/** One covered component's line of the signature base, or why it cannot be built. */
function baseLine(c: Item, req: SignedRequest): { line: string } | { missing: string } {
  const id = serializeMember(c)
  const name = typeof c.value === 'string' ? c.value : ''
  if (!name) return { missing: id }
  if (name.startsWith('@')) {
    if (c.params.length) return { missing: id }
    const v = derived(name, req)
    return v === undefined ? { missing: id } : { line: `${id}: ${v}` }
  }
  const raw = req.header(name)
  if (raw === null) return { missing: id }
  const value = raw.replace(/\s*\r?\n\s*/g, ' ').trim()
  const keyParam = param(c.params, 'key')
  if (c.params.some(([k]) => k !== 'key')) return { missing: id }
  if (keyParam === undefined) return { line: `${id}: ${value}` }
  const dict = parseDictionary(value)
  const m = typeof keyParam === 'string' ? dict?.find(([k]) => k === keyParam)?.[1] : undefined
  return m ? { line: `${id}: ${serializeMember(m)}` } : { missing: id }
}

export function readSignature(req: SignedRequest, nowSeconds: number): Reading {
  const input = req.header('signature-input')
  const sig = req.header('signature')
  const agentField = req.header('signature-agent')
  if (input === null && sig === null && agentField === null) return { kind: 'unsigned' }
  const empty: AgentConformance = { form: agentField === null ? 'none' : parseItem(agentField.trim()) ? 'legacy' : 'dictionary', covered: [], missing: [], nonce: false }
  const refuse = (state: 'invalid' | 'unverified', code: AgentCode, reason: string, extra: Partial<Extract<Reading, { kind: 'refused' }>> = {}): Reading => ({ kind: 'refused', state, code, reason, conformance: empty, ...extra })
  if (input === null || sig === null) return refuse('unverified', 'unsigned-claim', 'the request names an agent (Signature-Agent) but carries no signature')
  const inputs = parseDictionary(input)
  const sigs = parseDictionary(sig)
  if (!inputs || !sigs) return refuse('invalid', 'malformed', `the ${!inputs ? 'Signature-Input' : 'Signature'} header is not a valid structured field dictionary`)
  const lists = inputs.filter((e): e is [string, InnerList] => isInnerList(e[1]))
  const chosen = lists.find(([, l]) => param(l.params, 'tag') === WEB_BOT_AUTH_TAG) ?? lists[0]
  if (!chosen) return refuse('invalid', 'malformed', 'Signature-Input has no signature (an inner list of components)')
  const [label, list] = chosen
  const p = list.params
  const tag = str(param(p, 'tag'))
  const alg = str(param(p, 'alg'))
  const created = int(param(p, 'created'))
  const expires = int(param(p, 'expires'))
  const keyid = str(param(p, 'keyid'))
  const covered = list.items.map(serializeMember)
  const names = list.items.map((i) => (typeof i.value === 'string' ? i.value : ''))
  const agentItem = list.items.find((i) => i.value === 'signature-agent')
  const memberKey = agentItem ? str(param(agentItem.params, 'key')) : undefined
  const agent = agentField === null ? null : readAgent(agentField, memberKey, label)
  const missing = [
    ...(names.includes('@authority') || names.includes('@target-uri') ? [] : ['@authority']),
    ...(agentField !== null && !agentItem ? ['signature-agent'] : []),
  ]
  const conformance: AgentConformance = {
    form: agent?.form ?? (agentField === null ? 'none' : 'dictionary'),
    ...(agent?.type !== undefined ? { agentType: agent.type } : {}),
    covered,
    missing,
    ...(created !== undefined && expires !== undefined ? { lifetimeSeconds: expires - created } : {}),
    ...(tag !== undefined ? { tag } : {}),
    ...(alg !== undefined ? { alg } : {}),
    nonce: param(p, 'nonce') !== undefined,
  }
  const directory = agent?.url ? directoryUrl(agent.url) : null
  const ids = { label, ...(keyid !== undefined ? { keyid } : {}), ...(directory ? { directory } : {}), conformance }
  const bad = (code: AgentCode, reason: string) => refuse('invalid', code, reason, ids)
  if (tag !== WEB_BOT_AUTH_TAG) {
    // Another use of HTTP Message Signatures, which this service does not judge, unless it claims an agent.
    if (agentField === null) return refuse('unverified', 'not-web-bot-auth', `the signature's tag is ${tag === undefined ? 'missing' : `"${tag}"`}, not "web-bot-auth"`, ids)
    return bad('tag', `the signature's tag is ${tag === undefined ? 'missing' : `"${tag}"`}; Web Bot Auth requires tag="web-bot-auth"`)
  }
  if (agentField !== null && !agent?.url) return bad('malformed', 'Signature-Agent is neither a String nor a Dictionary with a String member for this signature')
  if (agent?.url && !directory) return bad('malformed', `Signature-Agent names ${JSON.stringify(agent.url.slice(0, 200))}, not an https URL`)
  if (alg !== undefined && alg !== 'ed25519') return bad('algorithm', `the algorithm is "${alg}"; this service verifies ed25519`)
  if (keyid === undefined) return bad('no-keyid', 'the signature has no keyid')
  if (created === undefined) return bad('no-created', 'the signature has no created time')
  if (expires === undefined) return bad('no-expires', 'the signature has no expires time')
  if (expires - created > MAX_LIFETIME_SECONDS) return bad('lifetime', `the signature is valid for ${expires - created} s; the draft allows at most ${MAX_LIFETIME_SECONDS} s (24 hours)`)
  if (expires < created) return bad('expired', 'the signature expires before it was created')
  if (created > nowSeconds + CLOCK_SKEW_SECONDS) return bad('not-yet-valid', `the signature was created ${created - nowSeconds} s in the future`)
  if (expires < nowSeconds - CLOCK_SKEW_SECONDS) return bad('expired', `the signature expired ${nowSeconds - expires} s ago`)
  if (missing.length) return bad('missing-component', `the signature does not cover ${missing.join(' and ')}, which the draft requires`)
  const sent = sigs.find(([k]) => k === label)?.[1]
  if (!sent || isInnerList(sent) || typeof sent.value !== 'object' || !('bytes' in sent.value)) return bad('malformed', `the Signature header has no byte sequence for the label ${label}`)
  const lines: string[] = []
  for (const c of list.items) {
    const l = baseLine(c, req)
    if ('missing' in l) return bad('missing-component', `the covered component ${l.missing} is not in the request`)
    lines.push(l.line)
  }
  lines.push(`"@signature-params": (${covered.join(' ')})${serializeParams(p)}`)
  if (!directory) return refuse('unverified', 'no-agent', 'the request carries no Signature-Agent, so the key cannot be looked up (never by key id alone)', ids)
  return { kind: 'candidate', candidate: { label, keyid, directory, base: new TextEncoder().encode(lines.join('\n')), signature: sent.value.bytes, created, expires, conformance } }
}
