// Where the secret that encrypts the signing key at rest comes from (src/signing.ts):
//
// 1. SIGNING_KEY_SECRET (at least 32 characters), or
// 2. SIGNING_KEY_SECRET_FILE: a file holding it (surrounding whitespace ignored), e.g. a
//    container or systemd secret;
// 3. neither, on the embedded PGlite database: DATA_DIR/signing-key.secret, made on the first
//    start (32 random bytes, base64url, mode 0600), beside the database and not in it;
// 4. neither, on PostgreSQL (DATABASE_URL): the service does not start. Several instances share
//    one database and must share the secret, and a secret made up on one machine would lock
//    the others out (or, kept in the database, protect nothing), so the operator chooses it.

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'

export const MIN_SECRET_LENGTH = 32
export const DEFAULT_SECRET_FILE = 'signing-key.secret'

export interface SigningSecret {
  secret: string
  /** Where it came from, for messages (never the secret). */
  source: string
}

function readSecretFile(path: string, variable: string): string {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (e) {
    throw new Error(`Cannot start: cannot read ${variable} ${path}: ${e instanceof Error ? e.message : String(e)}`)
  }
  const secret = text.trim()
  if (secret.length < MIN_SECRET_LENGTH) throw new Error(`Cannot start: ${variable} ${path} holds ${secret.length} characters; the signing key secret needs at least ${MIN_SECRET_LENGTH}`)
  return secret
}

export function resolveSigningSecret(opts: {
  secret: string | undefined
  secretFile: string | undefined
  databaseUrl: string | undefined
  dataDir: string
  random?: (n: number) => Uint8Array
}): SigningSecret {
  if (opts.secret !== undefined) {
    if (opts.secret.length < MIN_SECRET_LENGTH) throw new Error(`Cannot start: SIGNING_KEY_SECRET needs at least ${MIN_SECRET_LENGTH} characters`)
    return { secret: opts.secret, source: 'SIGNING_KEY_SECRET' }
  }
  if (opts.secretFile !== undefined) {
    const path = resolve(opts.secretFile)
    return { secret: readSecretFile(path, 'SIGNING_KEY_SECRET_FILE'), source: `SIGNING_KEY_SECRET_FILE (${path})` }
  }
  if (opts.databaseUrl !== undefined) {
    throw new Error(
      'Cannot start: DATABASE_URL is set, but neither SIGNING_KEY_SECRET nor SIGNING_KEY_SECRET_FILE. ' +
        'The key that signs task results is stored in PostgreSQL encrypted with that secret, so that reading the database is not enough to forge a result; ' +
        `choose one (at least ${MIN_SECRET_LENGTH} characters, e.g. \`openssl rand -base64 32\`, kept once) and give the same one to every instance on the database.`,
    )
  }
  const path = join(resolve(opts.dataDir), DEFAULT_SECRET_FILE)
  const random = opts.random ?? ((n: number) => crypto.getRandomValues(new Uint8Array(n)))
  try {
    mkdirSync(resolve(opts.dataDir), { recursive: true })
    // 'wx': never overwrite a secret that appeared meanwhile.
    writeFileSync(path, `${Buffer.from(random(32)).toString('base64url')}\n`, { flag: 'wx', mode: 0o600 })
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw new Error(`Cannot start: cannot create the signing key secret ${path}: ${e instanceof Error ? e.message : String(e)}`)
  }
  return { secret: readSecretFile(path, 'the signing key secret file'), source: `the secret in ${path}` }
}
