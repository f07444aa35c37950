// Key directories looked up for signed requests (issue 60): from PostgreSQL while a reading is
// fresh (every instance shares it), else fetched (src/agents/directory-fetch.ts) and stored.
// A flood of made-up agents costs little: one fetch in flight per directory, a failure kept for
// a minute, and a budget of fetches per minute for the instance; beyond it a lookup is
// `budget` (the request is unverified, nothing fetched).

import type { Db } from '../../db/client'
import { readAgentDirectory, storeAgentDirectory } from '../../db/agent-directories'
import type { DirectoryResult, FetchedDirectory } from './directory-fetch'

export const DIRECTORY_TTL = { failureSeconds: 60, defaultSeconds: 3600, minSeconds: 60, maxSeconds: 24 * 3600 }
export const DEFAULT_FETCHES_PER_MINUTE = 30

export type Lookup = DirectoryResult | { ok: false; budget: true; reason: string }

export interface DirectoryLookup {
  /**
   * The directory's reading; `refetchBefore`: a stored reading fetched before this instant is
   * fetched again (a key not in it may have been added since: rotation), budget allowing.
   */
  lookup(url: string, now: Date, opts?: { refetchBefore?: Date }): Promise<Lookup>
}

/** A reading taken this long ago may be fetched again for a key it lacks. */
export const REFETCH_AFTER_SECONDS = 60

type Stored = Omit<FetchedDirectory, 'ok' | 'maxAgeSeconds' | 'fetchedAt'>

export function createDirectoryLookup(deps: {
  db: Db
  fetch: (url: string) => Promise<DirectoryResult>
  fetchesPerMinute?: number
  log?: ((line: string) => void) | undefined
}): DirectoryLookup {
  const inFlight = new Map<string, Promise<Lookup>>()
  const perMinute = deps.fetchesPerMinute ?? DEFAULT_FETCHES_PER_MINUTE
  let window = { minute: -1, fetches: 0 }
  const log = (line: string) => (deps.log ?? console.error)(line)

  async function fetchAndStore(url: string, now: Date): Promise<Lookup> {
    const minute = Math.floor(now.getTime() / 60_000)
    if (window.minute !== minute) window = { minute, fetches: 0 }
    if (window.fetches >= perMinute) return { ok: false, budget: true, reason: `the service fetched ${perMinute} key directories in the last minute, its limit; it tries again in a minute` }
    window.fetches++
    const got = await deps.fetch(url)
    const ttl = got.ok ? Math.min(DIRECTORY_TTL.maxSeconds, Math.max(DIRECTORY_TTL.minSeconds, got.maxAgeSeconds ?? DIRECTORY_TTL.defaultSeconds)) : DIRECTORY_TTL.failureSeconds
    // no-store / no-cache: used for this request, kept only for the minimum (a flood bound, not a cache).
    const body: Stored | { contentType: string } | null = got.ok ? { keys: got.keys, contentType: got.contentType, asSet: got.asSet, ...(got.signature ? { signature: got.signature } : {}) } : got.contentType !== undefined ? { contentType: got.contentType } : null
    try {
      await storeAgentDirectory(deps.db, { url, body, failure: got.ok ? null : got.reason, fetchedAt: now, expiresAt: new Date(now.getTime() + ttl * 1000) })
    } catch (e) {
      log(`Cannot store the key directory ${url}: ${e instanceof Error ? e.message : String(e)}`)
    }
    return got.ok ? { ...got, fetchedAt: now.getTime() } : got
  }

  async function readOrFetch(url: string, now: Date, refetchBefore: Date | undefined): Promise<Lookup> {
    try {
      const stored = await readAgentDirectory(deps.db, { url, now })
      const stale = stored !== null && refetchBefore !== undefined && stored.fetchedAt < refetchBefore
      if (stored && !stale && stored.failure === null && stored.body) return { ok: true, ...(stored.body as Stored), maxAgeSeconds: null, fetchedAt: stored.fetchedAt.getTime() }
      if (stale) return fetchAndStore(url, now)
      if (stored) {
        const contentType = (stored.body as { contentType?: unknown } | null)?.contentType
        return { ok: false, reason: stored.failure ?? 'it could not be read', ...(typeof contentType === 'string' ? { contentType } : {}) }
      }
    } catch (e) {
      log(`Cannot read the stored key directory ${url}: ${e instanceof Error ? e.message : String(e)}`)
    }
    return fetchAndStore(url, now)
  }

  return {
    // One lookup per directory at a time: requests for it meanwhile share its answer.
    lookup(url, now, opts) {
      const running = inFlight.get(url)
      if (running) return running
      const p = readOrFetch(url, now, opts?.refetchBefore).finally(() => inFlight.delete(url))
      inFlight.set(url, p)
      return p
    },
  }
}
