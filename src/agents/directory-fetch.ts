// Fetching one HTTP Message Signatures Directory (draft-meunier-http-message-signatures-directory,
// the key directory a Signature-Agent names) as the draft asks and safely: HTTPS only, 200 only,
// no redirect followed, the draft's media type, a bounded size and time, and never an address
// inside a network (private, loopback, link-local, CGNAT…) unless the operator allows it
// (AGENT_DIRECTORIES_ALLOW_PRIVATE=1: a directory on the operator's own network, the tests').
// The CAs of NODE_EXTRA_CA_CERTS are trusted besides the runtime's roots.
// Expected failures are values: the reason, in words, for the task and the page.

import { lookup } from 'node:dns/promises'
import { rootCertificates } from 'node:tls'
import { ipScope } from '../core/ip-scope'

export const DIRECTORY_MEDIA_TYPE = 'application/http-message-signatures-directory+json'
export const DEFAULT_DIRECTORY_LIMITS = { timeoutMs: 3000, maxBytes: 64 * 1024 }

export interface FetchedDirectory {
  ok: true
  keys: unknown[]
  contentType: string
  /** Whether it was served as a JWK Set ({"keys": [...]}). */
  asSet: boolean
  /** How long it may be kept, from Cache-Control (0: no-store or no-cache; null: the response did not say). */
  maxAgeSeconds: number | null
}
export type DirectoryResult = FetchedDirectory | { ok: false; reason: string }

export interface DirectoryFetchOptions {
  allowPrivate: boolean
  /** PEM certificates trusted besides the runtime's roots (NODE_EXTRA_CA_CERTS). */
  extraCa?: readonly string[]
  timeoutMs?: number
  maxBytes?: number
  /** Name resolution (tests fake it); node's lookup by default. */
  resolve?: (host: string) => Promise<string[]>
}

const defaultResolve = async (host: string) => (await lookup(host, { all: true, verbatim: true })).map((a) => a.address)

/** max-age from Cache-Control: 0 for no-store / no-cache, null when it says nothing. */
export function cacheSeconds(header: string | null): number | null {
  if (!header) return null
  const parts = header.toLowerCase().split(',').map((p) => p.trim())
  if (parts.some((p) => p === 'no-store' || p === 'no-cache' || p === 'private')) return 0
  const age = parts.map((p) => /^(?:s-maxage|max-age)=(\d{1,10})$/.exec(p)?.[1]).find((v) => v !== undefined)
  return age === undefined ? null : Number(age)
}

async function refusedAddress(host: string, opts: DirectoryFetchOptions): Promise<string | null> {
  if (opts.allowPrivate) return null
  const bare = host.replace(/^\[|\]$/g, '')
  let addresses: string[]
  try {
    addresses = ipScope(bare) ? [bare] : await (opts.resolve ?? defaultResolve)(bare)
  } catch {
    return `its host ${host} does not resolve`
  }
  const inside = addresses.find((a) => ipScope(a) !== 'public')
  return inside ? `its host ${host} is at ${inside}, an address inside a network (${ipScope(inside)}), which the service does not fetch` : null
}

async function readBounded(res: Response, maxBytes: number): Promise<Uint8Array | null> {
  const declared = Number(res.headers.get('content-length') ?? '0')
  if (declared > maxBytes) return null
  const reader = res.body?.getReader()
  if (!reader) return new Uint8Array()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.length
    if (size > maxBytes) {
      await reader.cancel().catch(() => {})
      return null
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks)
}

export async function fetchDirectory(url: string, opts: DirectoryFetchOptions): Promise<DirectoryResult> {
  const u = new URL(url)
  if (u.protocol !== 'https:') return { ok: false, reason: 'it is not an https URL' }
  const refused = await refusedAddress(u.hostname, opts)
  if (refused) return { ok: false, reason: refused }
  const maxBytes = opts.maxBytes ?? DEFAULT_DIRECTORY_LIMITS.maxBytes
  let res: Response
  try {
    res = await fetch(u, {
      redirect: 'manual',
      headers: { accept: DIRECTORY_MEDIA_TYPE },
      signal: AbortSignal.timeout(opts.timeoutMs ?? DEFAULT_DIRECTORY_LIMITS.timeoutMs),
      ...(opts.extraCa?.length ? { tls: { ca: [...rootCertificates, ...opts.extraCa] } } : {}),
    } as RequestInit)
  } catch (e) {
    const name = e instanceof Error ? e.name : ''
    return { ok: false, reason: name === 'TimeoutError' || name === 'AbortError' ? 'it did not answer in time' : `it could not be reached (${e instanceof Error ? e.message.slice(0, 200) : String(e)})` }
  }
  if (res.status !== 200) {
    await res.body?.cancel().catch(() => {})
    const where = res.headers.get('location')
    return { ok: false, reason: res.status >= 300 && res.status < 400 ? `it answered ${res.status}, a redirect${where ? ` to ${where.slice(0, 200)}` : ''}, which is not followed` : `it answered ${res.status}, not 200` }
  }
  const contentType = res.headers.get('content-type') ?? ''
  if (contentType.split(';')[0]!.trim().toLowerCase() !== DIRECTORY_MEDIA_TYPE) {
    await res.body?.cancel().catch(() => {})
    return { ok: false, reason: `it is served as ${contentType ? JSON.stringify(contentType.slice(0, 100)) : 'no media type'}, not ${DIRECTORY_MEDIA_TYPE}` }
  }
  const body = await readBounded(res, maxBytes).catch(() => null)
  if (!body) return { ok: false, reason: `it is larger than ${maxBytes} bytes, or its body could not be read` }
  let json: unknown
  try {
    json = JSON.parse(new TextDecoder().decode(body))
  } catch {
    return { ok: false, reason: 'it is not JSON' }
  }
  const asSet = typeof json === 'object' && json !== null && Array.isArray((json as { keys?: unknown }).keys)
  const keys = asSet ? (json as { keys: unknown[] }).keys : Array.isArray(json) ? json : typeof json === 'object' && json !== null ? [json] : []
  return { ok: true, keys: keys.slice(0, 64), contentType, asSet, maxAgeSeconds: cacheSeconds(res.headers.get('cache-control')) }
}
