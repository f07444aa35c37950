// Key directories over real HTTPS (a server and CA of the test's own), and their cache in the
// database on each driver: what the draft asks of a directory response, the addresses never
// fetched, the bounds, and a lookup shared by two instances.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Db } from '../../db/client'
import { testDrivers } from '../../tests/support/db'
import { useTestDatabase } from '../../tests/support/db-suite'
import { directoryResponse, startDirectoryServer, type DirectoryServer } from '../../tests/support/directory-server'
import { makeAgentKey, signLegacy } from '../../tests/support/agent-signers'
import { createAgentVerifier } from './verify'
import { cacheSeconds, fetchDirectory, type DirectoryFetchOptions, type DirectoryResult } from './directory-fetch'
import { createDirectoryLookup } from './directories'
import { purgeAgentDirectories, readAgentDirectory, storeAgentDirectory } from '../../db/agent-directories'

let dir: DirectoryServer
const key = makeAgentKey()
beforeAll(() => {
  dir = startDirectoryServer()
  dir.routes.set('/ok', () => directoryResponse([key.publicJwk], { 'cache-control': 'max-age=600' }))
  dir.routes.set('/redirect', () => new Response(null, { status: 302, headers: { location: `${dir.origin}/ok` } }))
  dir.routes.set('/html', () => new Response(JSON.stringify({ keys: [] }), { headers: { 'content-type': 'text/html' } }))
  dir.routes.set('/gone', () => new Response('gone', { status: 410 }))
  dir.routes.set('/huge', () => directoryResponse(Array.from({ length: 3000 }, () => key.publicJwk)))
  // Headers at once, then a body that never ends.
  dir.routes.set('/trickle', () => new Response(new ReadableStream({ start: (c) => c.enqueue(new TextEncoder().encode('{"keys":[')) }), { headers: { 'content-type': 'application/http-message-signatures-directory+json' } }))
  dir.routes.set('/single', () => new Response(JSON.stringify(key.publicJwk), { headers: { 'content-type': 'application/http-message-signatures-directory+json; charset=utf-8' } }))
})
afterAll(() => dir?.stop())

const allowed = (): DirectoryFetchOptions => ({ allowPrivate: true, extraCa: [dir.ca] })

describe('fetching a key directory', () => {
  test('reads a JWK Set served with the media type, and its Cache-Control', async () => {
    const got = await fetchDirectory(`${dir.origin}/ok`, allowed())
    expect(got).toMatchObject({ ok: true, asSet: true, maxAgeSeconds: 600, contentType: 'application/http-message-signatures-directory+json' })
    expect(got.ok && got.keys).toEqual([key.publicJwk])
  })

  test('a single key (not a set) is read, and said not to be a set', async () => {
    expect(await fetchDirectory(`${dir.origin}/single`, allowed())).toMatchObject({ ok: true, asSet: false })
  })

  test('refuses a redirect, another media type, a status other than 200, and a body over the bound', async () => {
    expect(await fetchDirectory(`${dir.origin}/redirect`, allowed())).toEqual({ ok: false, reason: `it answered 302, a redirect to ${dir.origin}/ok, which is not followed` })
    expect(await fetchDirectory(`${dir.origin}/html`, allowed())).toMatchObject({ ok: false, reason: expect.stringContaining('"text/html"') })
    expect(await fetchDirectory(`${dir.origin}/gone`, allowed())).toEqual({ ok: false, reason: 'it answered 410, not 200' })
    expect(await fetchDirectory(`${dir.origin}/huge`, allowed())).toMatchObject({ ok: false, reason: expect.stringContaining('larger than 65536 bytes') })
  })

  test('a directory that does not finish its body within the time bound is cut off', async () => {
    expect(await fetchDirectory(`${dir.origin}/trickle`, { ...allowed(), timeoutMs: 300 })).toEqual({ ok: false, reason: 'it did not answer in time' })
  })

  test('never fetches an address inside a network unless allowed, nor plain http', async () => {
    const before = dir.hits.get('/ok') ?? 0
    expect(await fetchDirectory(`${dir.origin}/ok`, { allowPrivate: false, extraCa: [dir.ca] })).toMatchObject({ ok: false, reason: expect.stringContaining('127.0.0.1, an address inside a network (loopback)') })
    const resolve = async () => ['10.1.2.3']
    expect(await fetchDirectory('https://agent.example/.well-known/x', { allowPrivate: false, resolve })).toMatchObject({ ok: false, reason: expect.stringContaining('10.1.2.3') })
    expect(await fetchDirectory(`http://127.0.0.1:1/ok`, allowed())).toEqual({ ok: false, reason: 'it is not an https URL' })
    expect(dir.hits.get('/ok') ?? 0).toBe(before)
  })

  test('connects to the addresses it checked, under the certificate of the name', async () => {
    const port = new URL(dir.origin).port
    let asked = 0
    const resolve = async () => {
      asked++
      return ['127.0.0.1']
    }
    expect(await fetchDirectory(`https://localhost:${port}/ok`, { ...allowed(), resolve })).toMatchObject({ ok: true, asSet: true })
    expect(asked).toBe(1)
    expect(await fetchDirectory(`https://unknown-host.invalid:${port}/ok`, { ...allowed(), resolve })).toMatchObject({ ok: false, reason: expect.stringContaining('could not be reached') })
  })

  test("without the test's CA the certificate is not trusted", async () => {
    expect(await fetchDirectory(`${dir.origin}/ok`, { allowPrivate: true })).toMatchObject({ ok: false, reason: expect.stringContaining('could not be reached') })
  })

  test('Cache-Control: max-age and s-maxage are read; no-store and no-cache keep nothing', () => {
    expect(cacheSeconds('public, max-age=120')).toBe(120)
    expect(cacheSeconds('s-maxage=30')).toBe(30)
    expect(cacheSeconds('no-store')).toBe(0)
    expect(cacheSeconds('max-age=60, no-cache')).toBe(0)
    expect(cacheSeconds(null)).toBeNull()
  })
})

describe.each(testDrivers())('the directory cache on %s', (driver) => {
  let db: Db
  useTestDatabase(driver, (t) => (db = t.db))
  const now = new Date('2026-11-15T12:00:00Z')

  test('one fetch serves two instances until it expires; a failure is kept for a minute', async () => {
    const fetch = (url: string) => fetchDirectory(url, allowed())
    const a = createDirectoryLookup({ db, fetch })
    const b = createDirectoryLookup({ db, fetch })
    const before = dir.hits.get('/ok') ?? 0
    expect(await a.lookup(`${dir.origin}/ok`, now)).toMatchObject({ ok: true, keys: [key.publicJwk], asSet: true })
    expect(await b.lookup(`${dir.origin}/ok`, new Date(now.getTime() + 599_000))).toMatchObject({ ok: true, keys: [key.publicJwk] })
    expect(dir.hits.get('/ok')).toBe(before + 1)
    await b.lookup(`${dir.origin}/ok`, new Date(now.getTime() + 601_000))
    expect(dir.hits.get('/ok')).toBe(before + 2)
    const gone = dir.hits.get('/gone') ?? 0
    expect(await a.lookup(`${dir.origin}/gone`, now)).toEqual({ ok: false, reason: 'it answered 410, not 200' })
    expect(await b.lookup(`${dir.origin}/gone`, new Date(now.getTime() + 59_000))).toEqual({ ok: false, reason: 'it answered 410, not 200' })
    expect(dir.hits.get('/gone')).toBe(gone + 1)
  })

  test('a directory served as another media type: the failure keeps its content type for the conformance report', async () => {
    const fetch = (url: string) => fetchDirectory(url, allowed())
    const expected = { ok: false as const, reason: 'it is served as "text/html", not application/http-message-signatures-directory+json', contentType: 'text/html' }
    expect(await createDirectoryLookup({ db, fetch }).lookup(`${dir.origin}/html`, now)).toEqual(expected)
    expect(await createDirectoryLookup({ db, fetch }).lookup(`${dir.origin}/html`, now)).toEqual(expected)
  })

  test('a flood of made-up directories costs at most the budget of fetches a minute', async () => {
    let fetches = 0
    const counted = async (): Promise<DirectoryResult> => {
      fetches++
      return { ok: false, reason: 'it answered 404, not 200' }
    }
    const lookup = createDirectoryLookup({ db, fetchesPerMinute: 5, fetch: counted })
    const out = await Promise.all(Array.from({ length: 40 }, (_, i) => lookup.lookup(`https://flood-${i}.example/.well-known/http-message-signatures-directory`, now)))
    expect(fetches).toBe(5)
    expect(out.filter((o) => 'budget' in o)).toHaveLength(35)
    // The same directory asked for at once is fetched once.
    const same = createDirectoryLookup({ db, fetch: counted })
    await Promise.all(Array.from({ length: 10 }, () => same.lookup('https://same.example/d', now)))
    expect(fetches).toBe(6)
  })

  test('a key the stored reading lacks is looked for again once the reading is a minute old (rotation)', async () => {
    const rotated = makeAgentKey()
    const hitsBefore = dir.hits.get('/rotating/.well-known/http-message-signatures-directory') ?? 0
    let served: unknown[] = [key.publicJwk]
    dir.routes.set('/rotating/.well-known/http-message-signatures-directory', () => directoryResponse(served, { 'cache-control': 'max-age=3600' }))
    const verifier = createAgentVerifier({ directories: createDirectoryLookup({ db, fetch: (url) => fetchDirectory(url, allowed()) }) })
    const agent = `${dir.origin}/rotating/.well-known/http-message-signatures-directory`
    const at = (s: number) => new Date(now.getTime() + s * 1000)
    const req = async (k: typeof key, s: number) => {
      const url = 'https://antibot.test/tools/bot-detector'
      const h = await signLegacy(url, 'GET', k, { created: Math.floor(at(s).getTime() / 1000), agent })
      return { method: 'GET', url, header: (n: string) => h[n] ?? null }
    }
    expect(await verifier.verify(await req(key, 0), at(0))).toMatchObject({ state: 'verified' })
    served = [key.publicJwk, rotated.publicJwk]
    expect(await verifier.verify(await req(rotated, 30), at(30))).toMatchObject({ state: 'invalid', code: 'unknown-key' })
    expect(await verifier.verify(await req(rotated, 90), at(90))).toMatchObject({ state: 'verified' })
    expect(dir.hits.get('/rotating/.well-known/http-message-signatures-directory')).toBe(hitsBefore + 2)
  })

  test('the hourly purge deletes readings expired before its bound, and keeps the rest', async () => {
    await storeAgentDirectory(db, { url: 'https://old.example/d', body: null, failure: 'x', fetchedAt: now, expiresAt: new Date(now.getTime() - 2 * 86_400_000) })
    await storeAgentDirectory(db, { url: 'https://fresh.example/d', body: null, failure: 'x', fetchedAt: now, expiresAt: new Date(now.getTime() + 60_000) })
    expect(await purgeAgentDirectories(db, new Date(now.getTime() - 86_400_000))).toBeGreaterThanOrEqual(1)
    expect(await readAgentDirectory(db, { url: 'https://fresh.example/d', now })).toMatchObject({ failure: 'x' })
    expect(await readAgentDirectory(db, { url: 'https://old.example/d', now: new Date(0) })).toBeNull()
  })
})
