// A certificate authority of the test's own, trusted the way each engine trusts a CA on a
// person's Linux machine, so that people meet the service over HTTPS with a certificate their
// browser accepts by itself (issue 44), as production serves them — no flag that changes the
// browser (no --ignore-certificate-errors, no profile preference):
// - Chromium: the user's NSS database, $HOME/.pki/nssdb (what `certutil` or Chromium's own
//   certificate manager writes). `home` below holds one; browsers started with HOME=home use it.
// - Firefox: the enterprise policy `Certificates.Install`, in the policies.json Firefox reads
//   system-wide (/etc/firefox/policies, Firefox's SysConfD on Linux, else the installation's distribution directory).
// - WebKitGTK (glib-networking, GnuTLS): the system store, /usr/local/share/ca-certificates and
//   update-ca-certificates.
// The CA's private key is deleted as soon as the server certificate is signed: a CA left in a
// store by a run that was killed can then never sign anything. `uninstall()` takes it out of
// every store again; a later run also removes what an earlier one that was killed left behind.

import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { uniqueName } from './unique'

export interface TrustedCa {
  /** The server's certificate chain (leaf, then the CA) and key: TLS_CERT_FILE, TLS_KEY_FILE. */
  certFile: string
  keyFile: string
  /** The CA certificate. */
  caFile: string
  /** A HOME whose .pki/nssdb trusts the CA (Chromium's store). */
  home: string
  /** Host names the certificate is valid for. */
  hosts: string[]
  /** Which stores it went into. */
  installed: string[]
  uninstall(): void
}

const SYSTEM_CA_DIR = '/usr/local/share/ca-certificates'
const PREFIX = 'antibot-test-ca-'
/** The policies.json Firefox ESR reads on Debian: SysConfD (/etc/firefox, whatever the package's name) first, else the distribution directory. */
export const FIREFOX_POLICY_FILES = ['/etc/firefox/policies/policies.json', '/usr/share/firefox-esr/distribution/policies.json']

function run(program: string, args: string[], cwd?: string): string {
  return execFileSync(program, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** The pid in a name `antibot-test-ca-<pid>-…`, or null. */
function ownerPid(name: string): number | null {
  const m = new RegExp(`${PREFIX}(\\d+)-`).exec(name)
  return m ? Number(m[1]) : null
}

interface PolicyFile {
  policies?: Record<string, unknown> & { Certificates?: Record<string, unknown> & { Install?: string[] } }
}

/** Merges `extra` into `into`, objects key by key, anything else replaced. */
function deepMerge(into: Record<string, unknown>, extra: Record<string, unknown>): void {
  for (const [k, v] of Object.entries(extra)) {
    const cur = into[k]
    if (v && typeof v === 'object' && !Array.isArray(v) && cur && typeof cur === 'object' && !Array.isArray(cur)) deepMerge(cur as Record<string, unknown>, v as Record<string, unknown>)
    else into[k] = v
  }
}

/**
 * Puts the CA (and `extra` policies) into Firefox's policies.json, keeping what was there: the
 * file as it was is saved beside it (`policies.json.antibot-test-ca-<pid>-…`, empty when there
 * was none) and put back by the returned function, or by a later run once this process is gone.
 */
function installFirefoxPolicy(file: string, name: string, caPath: string, extra: Record<string, unknown>): () => void {
  const backup = `${file}.${name}`
  const original = existsSync(file) ? readFileSync(file, 'utf8') : ''
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(backup, original)
  const doc = (original ? JSON.parse(original) : {}) as PolicyFile
  const policies = doc.policies ?? {}
  const certificates = policies.Certificates ?? {}
  certificates.Install = [...(certificates.Install ?? []), caPath]
  policies.Certificates = certificates
  deepMerge(policies, extra)
  doc.policies = policies
  writeFileSync(file, `${JSON.stringify(doc, null, 2)}\n`)
  return () => restorePolicy(file, backup)
}

function restorePolicy(file: string, backup: string): void {
  const original = readFileSync(backup, 'utf8')
  if (original) writeFileSync(file, original)
  else rmSync(file, { force: true })
  rmSync(backup, { force: true })
}

/** Takes out of the system store and Firefox's policy what runs that were killed left there. */
function removeStale(): void {
  let changed = false
  if (existsSync(SYSTEM_CA_DIR)) {
    for (const f of readdirSync(SYSTEM_CA_DIR)) {
      const pid = ownerPid(f)
      if (f.startsWith(PREFIX) && pid !== null && pid !== process.pid && !alive(pid)) {
        rmSync(join(SYSTEM_CA_DIR, f), { force: true })
        changed = true
      }
    }
  }
  if (changed) run('update-ca-certificates', ['--fresh'])
  for (const file of FIREFOX_POLICY_FILES) {
    if (!existsSync(dirname(file))) continue
    for (const f of readdirSync(dirname(file))) {
      const pid = ownerPid(f)
      if (f.startsWith(`policies.json.${PREFIX}`) && pid !== null && pid !== process.pid && !alive(pid)) restorePolicy(file, join(dirname(file), f))
    }
  }
}

/**
 * Makes a CA and a server certificate for `hosts` (default localhost and 127.0.0.1) in a fresh
 * directory, and installs the CA into the stores of the engines named (as root: the system store
 * and Firefox's policy are the machine's).
 */
export function makeTrustedCa(opts: { engines?: ReadonlyArray<'chromium' | 'firefox' | 'webkit'>; hosts?: string[]; firefoxPolicies?: Record<string, unknown> } = {}): TrustedCa {
  const engines = new Set(opts.engines ?? ['chromium', 'firefox', 'webkit'])
  const hosts = opts.hosts ?? ['localhost', '127.0.0.1']
  const name = uniqueName(`${PREFIX}${process.pid}`)
  const dir = mkdtempSync(join(tmpdir(), `${name}-`))
  const p = (f: string) => join(dir, f)
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes']
  run('openssl', ['req', '-x509', ...ec, '-keyout', p('ca.key'), '-out', p('ca.pem'), '-days', '3', '-subj', `/CN=Antibot test CA ${name}`, '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign'])
  run('openssl', ['req', ...ec, '-keyout', p('server.key'), '-out', p('server.csr'), '-subj', `/CN=${hosts[0]}`])
  const san = hosts.map((h) => (/^[\d.]+$|:/.test(h) ? `IP:${h}` : `DNS:${h}`)).join(',')
  writeFileSync(p('server.ext'), `subjectAltName=${san}\nbasicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\n`)
  run('openssl', ['x509', '-req', '-in', p('server.csr'), '-CA', p('ca.pem'), '-CAkey', p('ca.key'), '-CAcreateserial', '-out', p('server.pem'), '-days', '2', '-extfile', p('server.ext')])
  // No one signs with this CA again.
  rmSync(p('ca.key'))
  writeFileSync(p('chain.pem'), readFileSync(p('server.pem'), 'utf8') + readFileSync(p('ca.pem'), 'utf8'))

  removeStale()
  const installed: string[] = []
  const undo: Array<() => void> = []
  const home = p('home')
  try {
    if (engines.has('chromium')) {
      const db = `sql:${join(home, '.pki/nssdb')}`
      mkdirSync(join(home, '.pki/nssdb'), { recursive: true })
      run('certutil', ['-N', '-d', db, '--empty-password'])
      run('certutil', ['-A', '-d', db, '-n', name, '-t', 'C,,', '-i', p('ca.pem')])
      installed.push(`Chromium: ${join(home, '.pki/nssdb')}`)
    }
    if (engines.has('firefox')) {
      // Where Firefox looks first (SysConfD); a policy file already there keeps its policies.
      const file = FIREFOX_POLICY_FILES.find((f) => existsSync(f)) ?? FIREFOX_POLICY_FILES[0]!
      undo.push(installFirefoxPolicy(file, name, p('ca.pem'), opts.firefoxPolicies ?? {}))
      installed.push(`Firefox: ${file} (Certificates.Install)`)
    }
    if (engines.has('webkit')) {
      const file = join(SYSTEM_CA_DIR, `${name}.crt`)
      mkdirSync(SYSTEM_CA_DIR, { recursive: true })
      writeFileSync(file, readFileSync(p('ca.pem')))
      undo.push(() => {
        rmSync(file, { force: true })
        run('update-ca-certificates', ['--fresh'])
      })
      run('update-ca-certificates', [])
      installed.push(`system store: ${file}`)
    }
  } catch (e) {
    for (const u of undo.reverse()) u()
    rmSync(dir, { recursive: true, force: true })
    throw new Error(`cannot install the test CA (${e instanceof Error ? e.message : String(e)}); the matrices need root, openssl, certutil (libnss3-tools) and update-ca-certificates (ca-certificates)`)
  }
  let done = false
  return {
    certFile: p('chain.pem'),
    keyFile: p('server.key'),
    caFile: p('ca.pem'),
    home,
    hosts,
    installed,
    uninstall() {
      if (done) return
      done = true
      for (const u of undo.reverse()) {
        try {
          u()
        } catch (e) {
          console.error(`test CA: ${e instanceof Error ? e.message : String(e)}`)
        }
      }
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
