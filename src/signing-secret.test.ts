import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { resolveSigningSecret } from './signing-secret'

const dirs: string[] = []
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'antibot-secret-'))
  dirs.push(d)
  return d
}
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

const SECRET = 'a-signing-secret-of-at-least-32-chars'
const none = { secret: undefined, secretFile: undefined, databaseUrl: undefined }

describe('resolveSigningSecret', () => {
  test('SIGNING_KEY_SECRET first, at least 32 characters', () => {
    expect(resolveSigningSecret({ ...none, secret: SECRET, databaseUrl: 'postgres://x/y', dataDir: tempDir() })).toEqual({ secret: SECRET, source: 'SIGNING_KEY_SECRET' })
    expect(() => resolveSigningSecret({ ...none, secret: 'x'.repeat(31), dataDir: tempDir() })).toThrow('SIGNING_KEY_SECRET needs at least 32 characters')
  })

  test('SIGNING_KEY_SECRET_FILE: read and trimmed; a missing or short file stops the start, naming it', () => {
    const dir = tempDir()
    const file = join(dir, 'secret')
    writeFileSync(file, `  ${SECRET}\n`)
    expect(resolveSigningSecret({ ...none, secretFile: file, databaseUrl: 'postgres://x/y', dataDir: dir })).toEqual({ secret: SECRET, source: `SIGNING_KEY_SECRET_FILE (${file})` })
    expect(() => resolveSigningSecret({ ...none, secretFile: join(dir, 'missing'), dataDir: dir })).toThrow(`cannot read SIGNING_KEY_SECRET_FILE ${join(dir, 'missing')}`)
    writeFileSync(file, 'short\n')
    expect(() => resolveSigningSecret({ ...none, secretFile: file, dataDir: dir })).toThrow(`SIGNING_KEY_SECRET_FILE ${file} holds 5 characters; the signing key secret needs at least 32`)
  })

  test('on PostgreSQL without either, the service does not start, and says what to set', () => {
    expect(() => resolveSigningSecret({ ...none, databaseUrl: 'postgres://u@db/antibot', dataDir: tempDir() })).toThrow(
      'Cannot start: DATABASE_URL is set, but neither SIGNING_KEY_SECRET nor SIGNING_KEY_SECRET_FILE',
    )
  })

  test('on PGlite without either: a secret made once in DATA_DIR/signing-key.secret (0600), then reused', () => {
    const dir = join(tempDir(), 'not-yet')
    const first = resolveSigningSecret({ ...none, dataDir: dir })
    const file = join(dir, 'signing-key.secret')
    expect(first).toEqual({ secret: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), source: `the secret in ${file}` })
    expect(readFileSync(file, 'utf8')).toBe(`${first.secret}\n`)
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(resolveSigningSecret({ ...none, dataDir: dir })).toEqual(first)
    // Another data directory, another secret.
    expect(resolveSigningSecret({ ...none, dataDir: tempDir() }).secret).not.toBe(first.secret)
  })

  test('a secret file someone cut short stops the start instead of being replaced', () => {
    const dir = tempDir()
    writeFileSync(join(dir, 'signing-key.secret'), 'oops\n')
    expect(() => resolveSigningSecret({ ...none, dataDir: dir })).toThrow('holds 4 characters')
    expect(readFileSync(join(dir, 'signing-key.secret'), 'utf8')).toBe('oops\n')
  })
})
