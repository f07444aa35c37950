// Fetching one HTTP Message Signatures Directory (draft-meunier-http-message-signatures-directory,
// the key directory a Signature-Agent names) as the draft asks and safely: HTTPS only, 200 only,
// no redirect followed, the draft's media type, a bounded size and time, and never an address
// inside a network (private, loopback, link-local, CGNAT…) unless the operator allows it
// (AGENT_DIRECTORIES_ALLOW_PRIVATE=1: a directory on the operator's own network, the tests').
// The CAs of NODE_EXTRA_CA_CERTS are trusted besides the runtime's roots. The socket connects to
// the very addresses that were checked (no second resolution a DNS rebinding could exploit).
// Expected failures are values: the reason, in words, for the task and the page.

import { lookup } from 'node:dns/promises'
import { request as httpsRequest } from 'node:https'
import { rootCertificates } from 'node:tls'
import { ipScope } from '../core/ip-scope'
import type { DirectorySignatureFields } from './directory-signature'

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
  /** The response's own signature, when it has one (src/agents/directory-signature.ts). */
  signature?: DirectorySignatureFields
  /** When it was fetched (ms since the epoch), on readings the cache hands out. */
  fetchedAt?: number
}
/** A failure; `contentType` when the directory answered 200 with a body the service did not take (for the conformance report). */
export type DirectoryResult = FetchedDirectory | { ok: false; reason: string; contentType?: string }

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

/** Why an address may not be fetched, or null; every address the name resolves to is checked. */
function refusedAddresses(host: string, addresses: readonly string[], opts: DirectoryFetchOptions): string | null {
  if (opts.allowPrivate) return null
  const inside = addresses.find((a) => ipScope(a) !== 'public')
  return inside ? `its host ${host} is at ${inside}, an address inside a network (${ipScope(inside)}), which the service does not fetch` : null
}

interface Got {
  status: number
  headers: Record<string, string | string[] | undefined>
  /** Null when the body outgrew the bound. */
  body: Buffer | null
}

/**
 * One GET over node's HTTPS client, connecting only to the addresses checked here: the name is
 * resolved once, checked, and those very addresses are what the socket connects to (so a DNS
 * answer that changes between the check and the connection cannot reach a private address).
 */
function get(u: URL, opts: DirectoryFetchOptions, addresses: readonly string[], maxBytes: number): Promise<Got> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      {
        host: u.hostname.replace(/^\[|\]$/g, ''),
        servername: ipScope(u.hostname.replace(/^\[|\]$/g, '')) ? undefined : u.hostname,
        port: u.port || 443,
        path: u.pathname + u.search,
        method: 'GET',
        headers: { accept: DIRECTORY_MEDIA_TYPE },
        ...(opts.extraCa?.length ? { ca: [...rootCertificates, ...opts.extraCa] } : {}),
        lookup: ((_host: string, o: { all?: boolean }, cb: (e: Error | null, a: unknown, f?: number) => void) => {
          const list = addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))
          if (o?.all) cb(null, list)
          else cb(null, list[0]!.address, list[0]!.family)
        }) as never,
      },
      (res) => {
        const declared = Number(res.headers['content-length'] ?? '0')
        if (res.statusCode !== 200 || declared > maxBytes) {
          res.destroy()
          return resolve({ status: res.statusCode ?? 0, headers: res.headers, body: declared > maxBytes ? null : Buffer.alloc(0) })
        }
        const chunks: Buffer[] = []
        let size = 0
        res.on('data', (c: Buffer) => {
          size += c.length
          if (size > maxBytes) {
            res.destroy()
            resolve({ status: 200, headers: res.headers, body: null })
          } else chunks.push(c)
        })
        res.on('end', () => resolve({ status: 200, headers: res.headers, body: Buffer.concat(chunks) }))
        res.on('error', reject)
        res.on('close', () => reject(new Error('the connection closed before the body ended')))
      },
    )
    // The whole exchange, body included, within the bound: a directory that trickles is cut off.
    const timer = setTimeout(() => {
      reject(new TimeoutError())
      req.destroy()
    }, opts.timeoutMs ?? DEFAULT_DIRECTORY_LIMITS.timeoutMs)
    req.on('error', reject)
    req.on('close', () => clearTimeout(timer))
    req.end()
  })
}

class TimeoutError extends Error {
  override name = 'TimeoutError'
}

const one = (v: string | string[] | undefined): string | null => (Array.isArray(v) ? (v[0] ?? null) : (v ?? null))

export async function fetchDirectory(url: string, opts: DirectoryFetchOptions): Promise<DirectoryResult> {
  const u = new URL(url)
  if (u.protocol !== 'https:') return { ok: false, reason: 'it is not an https URL' }
  const host = u.hostname.replace(/^\[|\]$/g, '')
  let addresses: string[]
  try {
    addresses = ipScope(host) ? [host] : await (opts.resolve ?? defaultResolve)(host)
  } catch {
    return { ok: false, reason: `its host ${host} does not resolve` }
  }
  if (!addresses.length) return { ok: false, reason: `its host ${host} does not resolve` }
  const refused = refusedAddresses(host, addresses, opts)
  if (refused) return { ok: false, reason: refused }
  const maxBytes = opts.maxBytes ?? DEFAULT_DIRECTORY_LIMITS.maxBytes
  let res: Got
  try {
    res = await get(u, opts, addresses, maxBytes)
  } catch (e) {
    if (e instanceof TimeoutError) return { ok: false, reason: 'it did not answer in time' }
    return { ok: false, reason: `it could not be reached (${e instanceof Error ? e.message.slice(0, 200) : String(e)})` }
  }
  if (res.status !== 200) {
    const where = one(res.headers.location)
    return { ok: false, reason: res.status >= 300 && res.status < 400 ? `it answered ${res.status}, a redirect${where ? ` to ${where.slice(0, 200)}` : ''}, which is not followed` : `it answered ${res.status}, not 200` }
  }
  const contentType = one(res.headers['content-type']) ?? ''
  if (contentType.split(';')[0]!.trim().toLowerCase() !== DIRECTORY_MEDIA_TYPE) {
    return { ok: false, reason: `it is served as ${contentType ? JSON.stringify(contentType.slice(0, 100)) : 'no media type'}, not ${DIRECTORY_MEDIA_TYPE}`, contentType: contentType.slice(0, 200) }
  }
  if (!res.body) return { ok: false, reason: `it is larger than ${maxBytes} bytes` }
  let json: unknown
  try {
    json = JSON.parse(res.body.toString('utf8'))
  } catch {
    return { ok: false, reason: 'it is not JSON' }
  }
  const asSet = typeof json === 'object' && json !== null && Array.isArray((json as { keys?: unknown }).keys)
  const keys = asSet ? (json as { keys: unknown[] }).keys : Array.isArray(json) ? json : typeof json === 'object' && json !== null ? [json] : []
  const input = one(res.headers['signature-input'])
  const sig = one(res.headers.signature)
  const signature = input && sig ? { signature: { input: input.slice(0, 8192), signature: sig.slice(0, 8192) } } : {}
  return { ok: true, keys: keys.slice(0, 64), contentType, asSet, maxAgeSeconds: cacheSeconds(one(res.headers['cache-control'])), ...signature }
}
