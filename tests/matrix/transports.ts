// How the matrices reach the service (issue 44): as production serves people, over HTTPS on the
// TLS port at a host name (https://localhost:<TLS_PORT>, so the browser sends SNI) with a
// certificate from a CA each engine trusts the way it trusts a real one (tests/support/trusted-ca.ts),
// and over plain HTTP (http://127.0.0.1:<PORT>). MATRIX_TRANSPORTS picks them (default
// `https,http`: both, every visitor on each).

import type { RunningServer } from '../support/server'
import { makeTrustedCa, type TrustedCa } from '../support/trusted-ca'
import { FIREFOX_POLICIES, type Person } from './person'

export type Transport = 'https' | 'http'

/** The transports of this run, from MATRIX_TRANSPORTS (comma-separated; default both). */
export function matrixTransports(): Transport[] {
  const given = (process.env.MATRIX_TRANSPORTS || 'https,http').split(',').map((s) => s.trim()).filter(Boolean)
  const bad = given.filter((t) => t !== 'https' && t !== 'http')
  if (bad.length || !given.length) throw new Error(`MATRIX_TRANSPORTS: ${bad.join(', ') || '(empty)'}: say https, http or both`)
  return [...new Set(given)] as Transport[]
}

/**
 * The run's CA, installed for the engines that will open pages, and HOME pointed at the NSS
 * database that trusts it, so that every Chromium this process starts (people, Playwright,
 * Puppeteer, chromedriver's) finds it where Chromium on Linux looks: $HOME/.pki/nssdb.
 * Uninstalled when the process exits, however it exits.
 */
export function matrixCa(engines: Iterable<Person['browser']>): TrustedCa {
  const ca = makeTrustedCa({ engines: [...new Set(['chromium' as const, ...engines])], firefoxPolicies: FIREFOX_POLICIES })
  process.env.HOME = ca.home
  process.once('exit', () => ca.uninstall())
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      ca.uninstall()
      process.exit(130)
    })
  }
  return ca
}

/** What a matrix server needs to serve HTTPS with the CA's certificate for localhost. */
export function tlsServerEnv(ca: TrustedCa): Record<string, string> {
  return { TLS_CERT_FILE: ca.certFile, TLS_KEY_FILE: ca.keyFile, TLS_PORT: '0' }
}

/** Where visitors open pages on `server` over `transport`. */
export function originOf(server: RunningServer, transport: Transport): string {
  if (transport === 'http') return server.baseUrl
  if (!server.tlsUrl) throw new Error('the server has no HTTPS listener')
  return `https://localhost:${new URL(server.tlsUrl).port}`
}
