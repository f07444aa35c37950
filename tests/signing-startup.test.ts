// The service (`bun src/main.ts`) and the signing key's secret at start-up: on PGlite without a
// secret it makes one in DATA_DIR and keeps signing with the same key across restarts; a wrong
// secret stops the start with a message and leaves the key alone; on PostgreSQL it does not
// start without a secret, and with one it encrypts a key stored in plain text before.

import { afterAll, describe, expect, test } from 'bun:test'
import { createPublicKey, verify } from 'node:crypto'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import { openPglite, rows } from '../db/client'
import { signingKeys } from '../db/schema'
import { verifyDetached } from '../src/core/jws'
import { generateSigningKey } from '../src/signing'
import { openTestDatabase, testDrivers, type TestDatabase } from './support/db'
import { startServer, type RunningServer } from './support/server'

const START_TIMEOUT_MS = 120_000
const OTHER_SECRET = 'not-the-secret-the-key-was-made-with-0123'

const dirs: string[] = []
const databases: TestDatabase[] = []
afterAll(async () => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
  for (const d of databases) await d.destroy()
}, 60_000)

async function kidOf(server: RunningServer): Promise<string> {
  const jwks = (await (await fetch(`${server.baseUrl}/.well-known/jwks.json`)).json()) as { keys: Array<{ kid: string }> }
  return jwks.keys[0]!.kid
}

/** Creates a task, fetches it with a key and checks its signature against the JWKS; returns the signing kid. */
async function signedFetch(server: RunningServer): Promise<string> {
  const key = await server.makeKey()
  const created = await fetch(`${server.baseUrl}/api/antibot/tasks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ tool: 'http-headers', results: {} }) })
  const { task_id } = (await created.json()) as { task_id: string }
  const res = await fetch(`${server.baseUrl}/api/antibot/tasks/${task_id}`, { headers: { authorization: `Bearer ${key}` } })
  const body = await res.text()
  const jwks = (await (await fetch(`${server.baseUrl}/.well-known/jwks.json`)).json()) as { keys: Array<Record<string, unknown>> }
  const result = verifyDetached(res.headers.get('jws-signature')!, body, (kid) => {
    const jwk = jwks.keys.find((k) => k.kid === kid)
    return jwk ? (data, sig) => verify(null, data, createPublicKey({ key: jwk as never, format: 'jwk' }), sig) : undefined
  })
  expect(result.ok).toBe(true)
  return (result as { kid: string }).kid
}

/** The start fails; returns what the service printed. */
async function failedStart(env: Record<string, string>): Promise<string> {
  try {
    const server = await startServer(env)
    await server.stop()
  } catch (e) {
    return (e as Error).message
  }
  throw new Error('the service started')
}

describe('the signing key secret at start-up (PGlite)', () => {
  test(
    'no secret: one is made in DATA_DIR, the key stays the same across restarts, a wrong secret stops the start',
    async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'antibot-signing-'))
      dirs.push(dataDir)
      const secretFile = join(dataDir, 'signing-key.secret')
      const first = await startServer({ DATA_DIR: dataDir })
      let kid: string
      try {
        kid = await kidOf(first)
        expect(await signedFetch(first)).toBe(kid)
        expect(first.output()).toContain(`signing key ${kid}, encrypted in the database with the secret in ${secretFile}`)
        expect((await fetch(`${first.baseUrl}/healthz`)).status).toBe(200)
      } finally {
        await first.stop()
      }
      expect(existsSync(secretFile)).toBe(true)

      const second = await startServer({ DATA_DIR: dataDir })
      try {
        expect(await kidOf(second)).toBe(kid)
        expect(await signedFetch(second)).toBe(kid)
      } finally {
        await second.stop()
      }

      const message = await failedStart({ DATA_DIR: dataDir, SIGNING_KEY_SECRET: OTHER_SECRET })
      expect(message).toContain(`the signing key ${kid} in the database cannot be decrypted with SIGNING_KEY_SECRET`)

      // The key is still the one it was, encrypted, and no other was made.
      const db = await openPglite(join(dataDir, 'pglite'))
      try {
        const stored = await rows<{ kid: string; private_pkcs8: string }>(db.db, sql`select kid, private_pkcs8 from signing_keys`)
        expect(stored.map((r) => r.kid)).toEqual([kid])
        expect(stored[0]!.private_pkcs8).toStartWith('enc:v1:')
      } finally {
        await db.close()
      }
    },
    START_TIMEOUT_MS * 2,
  )
})

// Only where TEST_DATABASE_URL names a server (as every database suite here).
if (testDrivers().includes('postgres')) describe('the signing key secret at start-up (PostgreSQL)', () => {
  test(
    'no secret: no start; with one, a key stored in plain text is encrypted and used; another secret: no start',
    async () => {
      const database = await openTestDatabase('postgres')
      databases.push(database)
      const legacy = generateSigningKey()
      await database.db.insert(signingKeys).values(legacy)

      const refused = await failedStart({ DATABASE_URL: database.url!, SIGNING_KEY_SECRET: '' })
      expect(refused).toContain('Cannot start: DATABASE_URL is set, but neither SIGNING_KEY_SECRET nor SIGNING_KEY_SECRET_FILE')

      const secret = 'the-operators-secret-0123456789abcdef'
      const servers = [await startServer({ DATABASE_URL: database.url!, SIGNING_KEY_SECRET: secret }), await startServer({ DATABASE_URL: database.url!, SIGNING_KEY_SECRET: secret })]
      try {
        for (const s of servers) expect(await signedFetch(s)).toBe(legacy.kid)
      } finally {
        for (const s of servers) await s.stop()
      }
      const stored = await rows<{ kid: string; private_pkcs8: string }>(database.db, sql`select kid, private_pkcs8 from signing_keys`)
      expect(stored).toHaveLength(1)
      expect(stored[0]!.private_pkcs8).toStartWith('enc:v1:')

      expect(await failedStart({ DATABASE_URL: database.url!, SIGNING_KEY_SECRET: OTHER_SECRET })).toContain(`the signing key ${legacy.kid} in the database cannot be decrypted with SIGNING_KEY_SECRET`)
    },
    START_TIMEOUT_MS * 2,
  )
})
