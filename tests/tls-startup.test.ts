// What the service says when it cannot start its HTTPS listener (issue 50): a certificate
// problem names the variable and the file and says what to set about the files; only a port
// problem gets the TLS_PORT hint. Real starts of `bun src/main.ts`.

import { afterAll, describe, expect, test } from 'bun:test'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startServer } from './support/server'

const START_TIMEOUT_MS = 120_000
const dir = mkdtempSync(join(tmpdir(), 'antibot-tls-startup-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const p = (f: string) => join(dir, f)

function pair(name: string): { cert: string; key: string } {
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', p(`${name}.key`), '-out', p(`${name}.pem`), '-days', '1', '-subj', '/CN=localhost'], { stdio: 'ignore' })
  return { cert: p(`${name}.pem`), key: p(`${name}.key`) }
}

/** The service's output when it stops at start with `env`. */
async function refusal(env: Record<string, string>): Promise<string> {
  const started = await startServer({ TLS_PORT: '0', ...env }).then(
    async (s) => {
      await s.stop()
      return null
    },
    (e: unknown) => String(e),
  )
  if (started === null) throw new Error('the service started')
  return started
}

describe('HTTPS listener start-up messages', () => {
  test(
    'a missing certificate file is named, with what to set about the files, not about the port',
    async () => {
      const out = await refusal({ TLS_CERT_FILE: p('missing.pem'), TLS_KEY_FILE: p('missing.key') })
      expect(out).toContain(`Cannot start the HTTPS listener: TLS_CERT_FILE ${p('missing.pem')} cannot be read (`)
      expect(out).toContain('set TLS_CERT_FILE and TLS_KEY_FILE to a readable PEM certificate')
      expect(out).not.toContain('set TLS_PORT')
    },
    START_TIMEOUT_MS,
  )

  test(
    'a file that is not PEM, and a key of another certificate, do not load: said so, with the files to fix',
    async () => {
      const a = pair('a')
      const b = pair('b')
      writeFileSync(p('garbage.pem'), 'not a certificate\n')
      for (const env of [
        { TLS_CERT_FILE: p('garbage.pem'), TLS_KEY_FILE: a.key },
        { TLS_CERT_FILE: a.cert, TLS_KEY_FILE: b.key },
      ]) {
        const out = await refusal(env)
        expect(out).toContain(`Cannot start the HTTPS listener: the certificate ${env.TLS_CERT_FILE} and its key do not load (`)
        expect(out).not.toContain('set TLS_PORT')
      }
    },
    START_TIMEOUT_MS,
  )

  test(
    'a port in use keeps the TLS_PORT hint',
    async () => {
      const taken = createServer()
      await new Promise<void>((r) => taken.listen(0, '127.0.0.1', () => r()))
      const port = (taken.address() as { port: number }).port
      try {
        const out = await refusal({ TLS_PORT: String(port) })
        expect(out).toContain(`Cannot start the HTTPS listener on 127.0.0.1:${port}`)
        expect(out).toContain('(set TLS_PORT to a free port, or to off)')
      } finally {
        taken.close()
      }
    },
    START_TIMEOUT_MS,
  )
})
