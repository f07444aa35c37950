// Starts the real service (`bun src/main.ts`) as a child process for browser tests, which run
// under Playwright's Node runner. The server gets a free port, a fresh PGlite data directory
// (or DATABASE_URL when given), and an operator token so tests can make keys over HTTP. The data
// directory starts as a copy of a template (dataDirTemplate, below) rather than empty.
// The STUN/TURN listener is off unless a test passes STUN_PORT (its default, 3478, would be
// shared by every server the tests start at once); so are fingerprint headers from proxies
// unless a test passes TLS_FINGERPRINT_HEADERS (and TRUSTED_PROXIES). The HTTPS listener runs
// as the service's default has it (with PORT=0, on a free port of its own, self-signed in the
// temporary DATA_DIR): `tlsUrl` is its address; TLS_PORT=off turns it off.

import { spawn, type ChildProcess } from 'node:child_process'
import { createHash } from 'node:crypto'
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { uniqueEmail, uniqueName } from './unique'
import { exitedWithOutput } from './exited'

export interface RunningServer {
  baseUrl: string
  /** The service process's pid. */
  pid: number
  /** The HTTPS listener, e.g. https://127.0.0.1:40123; null when a test turned it off. */
  tlsUrl: string | null
  /** Its certificate (PEM file in the server's DATA_DIR); null when off. */
  tlsCertFile: string | null
  adminToken: string
  /** Creates a key through the operator API and returns the secret. */
  makeKey(opts?: { email?: string; plan?: string }): Promise<string>
  stop(): Promise<void>
  output(): string
}

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
export const E2E_SIGNING_SECRET = 'e2e-signing-key-secret-0123456789abcdef'

/**
 * What the embedded database's servers start from (tests/support/data-dir-template.ts): made
 * once per machine for a given lock file, database client and set of migrations, and kept in
 * the temporary directory for later runs. Test processes that make it at once each make their
 * own and the first to rename it into place wins. What it holds a server would make the same
 * itself (a stale IP database cache is rebuilt, pending migrations applied), so it only saves time.
 */
let template: Promise<string> | undefined
function dataDirTemplate(): Promise<string> {
  template ??= (async () => {
    const hash = createHash('sha256')
    for (const f of ['package-lock.json', 'db/client.ts', 'db/pglite-template.tar.zst', 'src/evidence/ipdb.ts', 'tests/support/data-dir-template.ts']) hash.update(readFileSync(join(ROOT, f)))
    for (const f of readdirSync(join(ROOT, 'db/migrations'), { recursive: true }).map(String).sort()) hash.update(f)
    const dir = join(tmpdir(), `antibot-e2e-template-${hash.digest('hex').slice(0, 16)}`)
    if (existsSync(join(dir, 'pglite', 'PG_VERSION'))) return dir
    const building = mkdtempSync(join(tmpdir(), 'antibot-e2e-template-building-'))
    const child = spawn(join(ROOT, 'node_modules/.bin/bun'), ['tests/support/data-dir-template.ts', building], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] })
    let err = ''
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()))
    const { code } = await exitedWithOutput(child)
    if (code !== 0) throw new Error(`cannot make the test servers' data directory template: ${err}`)
    try {
      renameSync(building, dir)
    } catch {
      // Another test process put its own in place meanwhile.
      rmSync(building, { recursive: true, force: true })
    }
    return dir
  })()
  return template
}

export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'antibot-e2e-'))
  // A DATA_DIR the test gives is its own to make (tests of a first start); so is PostgreSQL.
  if (!env.DATABASE_URL && !env.DATA_DIR) {
    const from = await dataDirTemplate()
    for (const part of ['pglite', 'ipdb']) cpSync(join(from, part), join(dataDir, part), { recursive: true })
  }
  const adminToken = uniqueName('e2e-admin')
  // The service's TLS defaults, whatever the environment running the tests says.
  const inherited = { ...process.env }
  for (const name of ['TLS_PORT', 'TLS_CERT_FILE', 'TLS_KEY_FILE']) delete inherited[name]
  const child: ChildProcess = spawn(join(ROOT, 'node_modules/.bin/bun'), ['src/main.ts'], {
    cwd: ROOT,
    env: {
      ...inherited,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ADMIN_TOKEN: adminToken,
      LOG_REQUESTS: 'false',
      STUN_PORT: 'off',
      TLS_FINGERPRINT_HEADERS: '',
      // On PostgreSQL the service needs the signing key's secret, the same for every instance
      // on one database; on PGlite it makes its own in DATA_DIR unless a test gives one.
      ...(env.DATABASE_URL ? { SIGNING_KEY_SECRET: E2E_SIGNING_SECRET } : {}),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  const baseUrl = await new Promise<string>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`server did not start in 60 s:\n${out}`)), 60_000)
    const onData = (d: Buffer) => {
      out += d.toString()
      const m = /listening on (http:\/\/[\d.]+:\d+)/.exec(out)
      if (m) {
        clearTimeout(timer)
        ok(m[1]!)
      }
    }
    child.stdout!.on('data', onData)
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()))
    // Once what it printed is read: a refusal's reason comes just before the exit.
    void exitedWithOutput(child).then(({ code }) => {
      clearTimeout(timer)
      fail(new Error(`server exited with ${code}:\n${out}`))
    })
  })
  // Printed in the same write as the HTTP address (src/main.ts).
  const tlsUrl = /listening on (https:\/\/[\d.]+:\d+)/.exec(out)?.[1] ?? null
  return {
    baseUrl,
    pid: child.pid!,
    tlsUrl,
    tlsCertFile: tlsUrl ? (env.TLS_CERT_FILE ?? join(dataDir, 'tls', 'cert.pem')) : null,
    adminToken,
    async makeKey(opts = {}) {
      const res = await fetch(`${baseUrl}/api/admin/keys`, {
        method: 'POST',
        headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ email: opts.email ?? uniqueEmail('e2e'), plan: opts.plan ?? 'free' }),
      })
      if (res.status !== 201) throw new Error(`cannot make key: ${res.status} ${await res.text()}`)
      return ((await res.json()) as { key: string }).key
    },
    async stop() {
      child.removeAllListeners('exit')
      child.kill('SIGTERM')
      await new Promise((r) => setTimeout(r, 300))
      if (child.exitCode === null) child.kill('SIGKILL')
      // A child the service started (the IP database's first parse) may still be writing its
      // cache here for a moment after a SIGKILL, which no exit handler sees.
      rmSync(dataDir, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 })
    },
    output: () => out,
  }
}
