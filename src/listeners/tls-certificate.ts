// The TLS evidence listener's certificate: the configured files (TLS_CERT_FILE, TLS_KEY_FILE),
// or a self-signed one made on first start in DATA_DIR/tls/ and reused afterwards. node:crypto
// makes keys but not X.509 certificates, so the self-signed one comes from `openssl req`.
// Browsers warn about a self-signed certificate; production sets real files (see docs/listeners.md).

import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs'
import { join } from 'node:path'

export interface Certificate {
  cert: Buffer
  key: Buffer
  /** Where it came from, for the start-up log line. */
  source: string
}

export function loadCertificate(opts: { certFile?: string; keyFile?: string; dataDir: string }): Certificate {
  if (opts.certFile || opts.keyFile) {
    if (!opts.certFile || !opts.keyFile) throw new Error('Cannot start the TLS listener: set both TLS_CERT_FILE and TLS_KEY_FILE, or neither for a self-signed certificate')
    return { cert: readFileSync(opts.certFile), key: readFileSync(opts.keyFile), source: opts.certFile }
  }
  const dir = join(opts.dataDir, 'tls')
  const certPath = join(dir, 'cert.pem')
  const keyPath = join(dir, 'key.pem')
  if (!existsSync(certPath) || !existsSync(keyPath)) {
    mkdirSync(dir, { recursive: true, mode: 0o700 })
    // Written under temporary names and renamed, so that a second instance starting on the same
    // DATA_DIR never reads half a file.
    const tmp = `.${process.pid}-${Date.now()}`
    try {
      execFileSync(
        'openssl',
        ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', '3650', '-subj', '/CN=antibot evidence listener',
          '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1', '-keyout', keyPath + tmp, '-out', certPath + tmp],
        { stdio: ['ignore', 'ignore', 'pipe'] },
      )
    } catch (e) {
      throw new Error(`Cannot make a self-signed certificate for the TLS listener with openssl (${e instanceof Error ? e.message.split('\n')[0] : e}): install openssl or set TLS_CERT_FILE and TLS_KEY_FILE`)
    }
    renameSync(keyPath + tmp, keyPath)
    renameSync(certPath + tmp, certPath)
  }
  return { cert: readFileSync(certPath), key: readFileSync(keyPath), source: `self-signed ${certPath}` }
}
