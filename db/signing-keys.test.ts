// The signing key at rest, on each driver: stored only encrypted, read back by the same secret,
// plain-text rows from before encrypted on start, a wrong secret a clear error (never a new
// key), and instances starting together agreeing on one key.

import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { createPublicKey, verify } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { verifyDetached } from '../src/core/jws'
import { generateSigningKey, keyProtector, responseSigner, SigningKeyError } from '../src/signing'
import { openTestDatabase, testDrivers, type TestDatabase } from '../tests/support/db'
import { rows } from './client'
import { signingKeys } from './schema'
import { currentSigningKey, publicSigningKeys, sealPlaintextKeys } from './signing-keys'

const SECRET = 'the-right-secret-0123456789abcdefghij'
const OTHER = 'another-secret-0123456789abcdefghijkl'

for (const driver of testDrivers()) {
  describe(`signing keys at rest (${driver})`, () => {
    let database: TestDatabase
    beforeEach(async () => {
      database = await openTestDatabase(driver)
    }, 60_000)
    afterEach(() => database?.destroy(), 60_000)

    const stored = async () => rows<{ kid: string; private_pkcs8: string }>(database.db, sql`select kid, private_pkcs8 from signing_keys order by kid`)

    test('a new key is stored only encrypted, and signs verifiably', async () => {
      const protector = await keyProtector(SECRET, 'SIGNING_KEY_SECRET')
      const key = await currentSigningKey(database.db, { generate: generateSigningKey, protector })
      expect(key.privatePkcs8).toStartWith('-----BEGIN PRIVATE KEY-----')
      const [row] = await stored()
      expect(row!.kid).toBe(key.kid)
      expect(row!.private_pkcs8).toMatch(/^enc:v1:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]+$/)
      expect(row!.private_pkcs8).not.toContain('PRIVATE KEY')
      // The private key's base64 body is nowhere in the column either.
      const body = key.privatePkcs8.split('\n').slice(1, -2).join('')
      expect(row!.private_pkcs8).not.toContain(body)

      const signature = responseSigner(key).sign('{"a":1}')
      const [jwk] = await publicSigningKeys(database.db)
      const publicKey = createPublicKey({ key: jwk as never, format: 'jwk' })
      expect(verifyDetached(signature, '{"a":1}', () => (data, sig) => verify(null, data, publicKey, sig))).toEqual({ ok: true, kid: key.kid })
    })

    test('the same secret reads the same key on every start', async () => {
      const protector = await keyProtector(SECRET, 'SIGNING_KEY_SECRET')
      const first = await currentSigningKey(database.db, { generate: generateSigningKey, protector })
      const again = await currentSigningKey(database.db, { generate: generateSigningKey, protector: await keyProtector(SECRET, 'SIGNING_KEY_SECRET_FILE') })
      expect(again).toEqual(first)
      expect(await stored()).toHaveLength(1)
    })

    test('a key stored in plain text before is encrypted on start, keeping its kid', async () => {
      const legacy = generateSigningKey()
      await database.db.insert(signingKeys).values(legacy)
      expect((await stored())[0]!.private_pkcs8).toStartWith('-----BEGIN PRIVATE KEY-----')
      const key = await currentSigningKey(database.db, { generate: generateSigningKey, protector: await keyProtector(SECRET, 'x') })
      expect(key).toEqual(legacy)
      const [row] = await stored()
      expect(row!.private_pkcs8).toStartWith('enc:v1:')
      // Nothing left to encrypt.
      expect(await sealPlaintextKeys(database.db, await keyProtector(SECRET, 'x'))).toBe(0)
    })

    test('a wrong secret fails with a message saying what to do, and makes no new key', async () => {
      const made = await currentSigningKey(database.db, { generate: generateSigningKey, protector: await keyProtector(SECRET, 'SIGNING_KEY_SECRET') })
      const before = await stored()
      const attempt = currentSigningKey(database.db, { generate: generateSigningKey, protector: await keyProtector(OTHER, 'the secret in /data/signing-key.secret') })
      await expect(attempt).rejects.toBeInstanceOf(SigningKeyError)
      await expect(attempt).rejects.toThrow(`the signing key ${made.kid} in the database cannot be decrypted with the secret in /data/signing-key.secret`)
      await expect(attempt).rejects.toThrow('give this instance the same SIGNING_KEY_SECRET or SIGNING_KEY_SECRET_FILE')
      expect(await stored()).toEqual(before)
    })

    test('a ciphertext moved to another key’s row, altered, or of an unknown version is refused', async () => {
      const protector = await keyProtector(SECRET, 'x')
      const a = generateSigningKey()
      const b = generateSigningKey()
      // b is the newest; it holds a's ciphertext.
      await database.db.insert(signingKeys).values({ ...a, privatePkcs8: await protector.seal(a.kid, a.privatePkcs8), createdAt: new Date('2026-01-01T00:00:00Z') })
      await database.db.insert(signingKeys).values({ ...b, privatePkcs8: await protector.seal(a.kid, a.privatePkcs8), createdAt: new Date('2026-02-01T00:00:00Z') })
      await expect(currentSigningKey(database.db, { generate: generateSigningKey, protector })).rejects.toThrow(`the signing key ${b.kid} in the database cannot be decrypted`)

      const sealed = await protector.seal(b.kid, b.privatePkcs8)
      const flipped = `${sealed.slice(0, -2)}${sealed.at(-2) === 'A' ? 'B' : 'A'}${sealed.at(-1)}`
      await expect(protector.open(b.kid, flipped)).rejects.toThrow('cannot be decrypted')
      await expect(protector.open(b.kid, sealed.replace('enc:v1:', 'enc:v2:'))).rejects.toThrow("stored as 'enc:v2', which this version of the service cannot read")
      await expect(protector.open(b.kid, 'enc:v1:abc')).rejects.toThrow('damaged form')
      expect(await protector.open(b.kid, sealed)).toBe(b.privatePkcs8)
    })

    test('a row whose public key was swapped is refused, not signed with', async () => {
      const protector = await keyProtector(SECRET, 'x')
      const made = await currentSigningKey(database.db, { generate: generateSigningKey, protector })
      const other = generateSigningKey()
      await database.db.execute(sql`update signing_keys set public_jwk = ${JSON.stringify(other.publicJwk)}::jsonb where kid = ${made.kid}`)
      await expect(currentSigningKey(database.db, { generate: generateSigningKey, protector })).rejects.toThrow('not to the private key of its public key')
    })

    test('instances starting together agree on one key', async () => {
      const protectors = await Promise.all(Array.from({ length: 6 }, () => keyProtector(SECRET, 'x')))
      const keys = await Promise.all(protectors.map((protector) => currentSigningKey(database.db, { generate: generateSigningKey, protector })))
      expect(new Set(keys.map((k) => k.kid)).size).toBe(1)
      expect(new Set(keys.map((k) => k.privatePkcs8)).size).toBe(1)
      expect(await stored()).toHaveLength(1)
    })

    test('a plain-text row is encrypted once even when instances start together', async () => {
      const legacy = generateSigningKey()
      await database.db.insert(signingKeys).values(legacy)
      const protector = await keyProtector(SECRET, 'x')
      const counts = await Promise.all(Array.from({ length: 6 }, () => sealPlaintextKeys(database.db, protector)))
      expect(counts.reduce((a, b) => a + b, 0)).toBe(1)
      expect(await protector.open(legacy.kid, (await stored())[0]!.private_pkcs8)).toBe(legacy.privatePkcs8)
    })
  })
}
