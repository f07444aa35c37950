// The HTTPS listener's certificate: the configured files (TLS_CERT_FILE, TLS_KEY_FILE), or a
// self-signed one made on first start in DATA_DIR/tls/ and reused afterwards.
//
// Configured files are read again when they change (an ACME client renewing them): every new
// connection asks for the secure context, and at most once a second that looks at the files'
// modification times and sizes; a changed pair is loaded into a new context, which connections
// from then on get (open ones keep theirs). A pair that does not load (the key and the
// certificate written at different moments, a file half written) keeps the old context and is
// tried again on the next check.
//
// The self-signed certificate is written here, without openssl (the container image has none):
// an X.509 v3 DER structure around a P-256 key from node:crypto, signed with it. It is an
// end-entity certificate (CA:FALSE, serverAuth) for localhost, 127.0.0.1, ::1 and this
// machine's host name, so a browser can be told to trust it as it is (Firefox: `certutil -A -t
// "P,,"`; a CA:TRUE certificate would be refused as "CA used as end entity").

import { generateKeyPairSync, randomBytes, sign } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { createSecureContext, type SecureContext } from 'node:tls'

export interface Certificate {
  cert: Buffer
  key: Buffer
  /** Where it came from, for the start-up log line. */
  source: string
}

export interface CertificateOptions {
  certFile?: string | undefined
  keyFile?: string | undefined
  dataDir: string
}

/** The certificate in use, for each new connection; picks up changed files. */
export interface CertificateStore {
  /** The secure context for a new connection (checks the files at most once a second). */
  context(): SecureContext
  /** Where it came from, for the start-up log line. */
  readonly source: string
  /** The certificate (PEM) in use now. */
  cert(): Buffer
}

/** How often the configured files are looked at, at most. */
const RECHECK_MS = 1000

/**
 * The configured certificate or key cannot be used (a file missing or unreadable, not PEM, a key
 * that is not the certificate's): its message names the variable and the file, and what to set.
 */
export class CertificateError extends Error {}

const FIX = 'set TLS_CERT_FILE and TLS_KEY_FILE to a readable PEM certificate (full chain) and its private key, or unset both for a self-signed pair'

function readConfigured(variable: string, file: string): Buffer {
  try {
    return readFileSync(file)
  } catch (e) {
    throw new CertificateError(`${variable} ${file} cannot be read (${e instanceof Error ? e.message : String(e)}): ${FIX}`)
  }
}

export function loadCertificate(opts: CertificateOptions): Certificate {
  if (opts.certFile || opts.keyFile) {
    if (!opts.certFile || !opts.keyFile) throw new CertificateError(`only ${opts.certFile ? 'TLS_CERT_FILE' : 'TLS_KEY_FILE'} is set: set both TLS_CERT_FILE and TLS_KEY_FILE, or neither for a self-signed certificate`)
    return { cert: readConfigured('TLS_CERT_FILE', opts.certFile), key: readConfigured('TLS_KEY_FILE', opts.keyFile), source: opts.certFile }
  }
  const dir = join(opts.dataDir, 'tls')
  const certPath = join(dir, 'cert.pem')
  const keyPath = join(dir, 'key.pem')
  if (!existsSync(certPath) || !existsSync(keyPath)) {
    mkdirSync(dir, { recursive: true, mode: 0o700 })
    const made = selfSignedCertificate({ commonName: 'antibot', dnsNames: localNames(), ips: ['127.0.0.1', '::1'], days: 3650 })
    // Written under temporary names and renamed, so that a second instance starting on the same
    // DATA_DIR never reads half a file.
    const tmp = `.${process.pid}-${Date.now()}`
    writeFileSync(keyPath + tmp, made.key, { mode: 0o600 })
    writeFileSync(certPath + tmp, made.cert)
    renameSync(keyPath + tmp, keyPath)
    renameSync(certPath + tmp, certPath)
  }
  return { cert: readFileSync(certPath), key: readFileSync(keyPath), source: `self-signed ${certPath}` }
}

/**
 * Loads the certificate and keeps its secure context; with configured files, a changed pair
 * replaces it (see the top of this file). Throws when the first load fails.
 */
export function certificateStore(opts: CertificateOptions, log: (line: string) => void = () => {}): CertificateStore {
  let current = loadCertificate(opts)
  let context: SecureContext
  try {
    context = createSecureContext({ cert: current.cert, key: current.key })
  } catch (e) {
    // Not PEM, or a key that does not go with the certificate.
    throw new CertificateError(`the certificate ${current.source} and its key do not load (${e instanceof Error ? e.message : String(e)}): ${FIX}`)
  }
  const files = opts.certFile && opts.keyFile ? [opts.certFile, opts.keyFile] : null
  const stamp = () => (files ? files.map((f) => { const s = statSync(f, { throwIfNoEntry: false }); return s ? `${s.mtimeMs}:${s.size}` : 'missing' }).join('|') : '')
  let seen = stamp()
  let checkedAt = performance.now()
  let failedStamp: string | null = null
  return {
    source: current.source,
    cert: () => current.cert,
    context() {
      if (!files || performance.now() - checkedAt < RECHECK_MS) return context
      checkedAt = performance.now()
      const now = stamp()
      if (now === seen) return context
      try {
        const next = loadCertificate(opts)
        const nextContext = createSecureContext({ cert: next.cert, key: next.key })
        current = next
        context = nextContext
        seen = now
        failedStamp = null
        log(`tls listener: certificate reloaded from ${files[0]}`)
      } catch (e) {
        // Say it once per state of the files; the next change is tried again.
        if (failedStamp !== now) log(`tls listener: the changed certificate or key does not load (${e instanceof Error ? e.message : String(e)}); keeping the previous one`)
        failedStamp = now
      }
      return context
    },
  }
}

/** localhost and this machine's host name when it is a DNS name. */
function localNames(): string[] {
  const names = ['localhost']
  const h = hostname().toLowerCase()
  if (h && h !== 'localhost' && /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/.test(h)) names.push(h)
  return names
}

// --- A self-signed X.509 v3 certificate in DER, by hand (RFC 5280) ---

function der(tag: number, content: Uint8Array): Buffer {
  const n = content.length
  const len = n < 0x80 ? [n] : n < 0x100 ? [0x81, n] : n < 0x10000 ? [0x82, n >> 8, n & 0xff] : [0x83, n >> 16, (n >> 8) & 0xff, n & 0xff]
  return Buffer.concat([Buffer.from([tag, ...len]), content])
}
const seq = (...items: Uint8Array[]) => der(0x30, Buffer.concat(items))
const set = (...items: Uint8Array[]) => der(0x31, Buffer.concat(items))
const octets = (b: Uint8Array) => der(0x04, b)
const bits = (b: Uint8Array, unused = 0) => der(0x03, Buffer.concat([Buffer.from([unused]), b]))
const utf8 = (s: string) => der(0x0c, Buffer.from(s, 'utf8'))
const explicit = (n: number, inner: Uint8Array) => der(0xa0 + n, inner)

function oid(dotted: string): Buffer {
  const arcs = dotted.split('.').map(Number)
  const out = [arcs[0]! * 40 + arcs[1]!]
  for (const arc of arcs.slice(2)) {
    const chunk = [arc & 0x7f]
    for (let v = Math.floor(arc / 128); v > 0; v = Math.floor(v / 128)) chunk.unshift((v & 0x7f) | 0x80)
    out.push(...chunk)
  }
  return der(0x06, Buffer.from(out))
}

function integer(bytes: Uint8Array): Buffer {
  let b = Buffer.from(bytes)
  while (b.length > 1 && b[0] === 0 && b[1]! < 0x80) b = b.subarray(1)
  return der(0x02, b[0]! >= 0x80 ? Buffer.concat([Buffer.from([0]), b]) : b)
}

/** UTCTime through 2049, GeneralizedTime from 2050 (RFC 5280 §4.1.2.5). */
function time(d: Date): Buffer {
  const iso = d.toISOString().replace(/[-:T]/g, '').slice(0, 14)
  return d.getUTCFullYear() < 2050 ? der(0x17, Buffer.from(`${iso.slice(2)}Z`)) : der(0x18, Buffer.from(`${iso}Z`))
}

function ipBytes(ip: string): Buffer {
  if (ip.includes(':')) {
    const [head, tail] = ip.split('::') as [string, string | undefined]
    const h = head ? head.split(':') : []
    const t = tail ? tail.split(':') : []
    const groups = tail === undefined ? h : [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t]
    return Buffer.from(groups.flatMap((g) => [parseInt(g, 16) >> 8, parseInt(g, 16) & 0xff]))
  }
  return Buffer.from(ip.split('.').map(Number))
}

/** A P-256 key and a self-signed end-entity certificate for these names, both PEM. */
export function selfSignedCertificate(opts: { commonName: string; dnsNames: string[]; ips: string[]; days: number; now?: Date }): { cert: string; key: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  const now = opts.now ?? new Date()
  const notBefore = new Date(now.getTime() - 60 * 60 * 1000)
  const notAfter = new Date(now.getTime() + opts.days * 86_400_000)
  const name = seq(set(seq(oid('2.5.4.3'), utf8(opts.commonName))))
  const ecdsaSha256 = seq(oid('1.2.840.10045.4.3.2'))
  const serial = randomBytes(16)
  serial[0] = (serial[0]! & 0x7f) | 0x01
  const san = seq(...opts.dnsNames.map((n) => der(0x82, Buffer.from(n, 'ascii'))), ...opts.ips.map((ip) => der(0x87, ipBytes(ip))))
  const extensions = seq(
    seq(oid('2.5.29.19'), der(0x01, Buffer.from([0xff])), octets(seq())), // basicConstraints, critical: CA:FALSE
    seq(oid('2.5.29.15'), der(0x01, Buffer.from([0xff])), octets(bits(Buffer.from([0x80]), 7))), // keyUsage, critical: digitalSignature
    seq(oid('2.5.29.37'), octets(seq(oid('1.3.6.1.5.5.7.3.1')))), // extKeyUsage: serverAuth
    seq(oid('2.5.29.17'), octets(san)), // subjectAltName
  )
  const spki = publicKey.export({ type: 'spki', format: 'der' })
  const tbs = seq(explicit(0, integer(Buffer.from([2]))), integer(serial), ecdsaSha256, name, seq(time(notBefore), time(notAfter)), name, spki, explicit(3, extensions))
  const signature = sign('sha256', tbs, privateKey)
  const certDer = seq(tbs, ecdsaSha256, bits(signature))
  const pem = (label: string, body: Buffer) => `-----BEGIN ${label}-----\n${body.toString('base64').match(/.{1,64}/g)!.join('\n')}\n-----END ${label}-----\n`
  return { cert: pem('CERTIFICATE', certDer), key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() }
}
