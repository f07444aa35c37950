// Whose connection a record of the HTTPS listener describes (issue 24), on each database driver:
// clients on two loopback addresses (Linux lets a client bind any 127.x address), 127.0.0.70
// loading the page and 127.0.0.71 borrowing its nonce with another TLS stack (curl held to TLS
// 1.2 and HTTP/1.1). A nonce's evidence is read as its submitter's: only the records of its
// address, the others listed apart; the borrower cannot crowd out the page's own records; a
// trusted proxy's PROXY protocol header and X-Forwarded-For name the client, an untrusted
// peer's do not; a dual-stack listener files an IPv4 client as IPv4, and IPv6 by its /64.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { connect } from 'node:net'
import { connect as tlsConnect } from 'node:tls'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { issueNonce, readNonce } from '../../db/nonces'
import { parseCidr } from '../../src/core/ip'
import { AWAY_ITEMS } from '../../src/evidence/binding'
import { startTlsListener, type TlsListener } from '../../src/listeners/tls'
import { openTestDatabase, testDrivers, type TestDatabase } from '../support/db'

const A = '127.0.0.70'
const B = '127.0.0.71'
const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567'
/** A fresh nonce of the page's alphabet; random, so no two tests in a database share one. */
const newNonce = () => `bind${Array.from(crypto.getRandomValues(new Uint8Array(22)), (b) => BASE32[b % 32]).join('')}`

function curl(args: string[]): Promise<string> {
  return new Promise((resolve) => execFile('curl', ['-sk', '-m', '10', ...args], { timeout: 20_000 }, (_, stdout) => resolve(stdout)))
}

/** `GET /evidence/<nonce>` from `from`: A with curl's defaults (TLS 1.3, h2), B with TLS 1.2 and HTTP/1.1. */
const fetchEvidence = (port: number, nonce: string, from: string, host = '127.0.0.1') =>
  curl([...(from === B ? ['--tls-max', '1.2', '--http1.1'] : ['--http2']), '--interface', from, `https://${host.includes(':') ? `[${host}]` : host}:${port}/evidence/${nonce}`])

/** An HTTP/1.1 `GET /evidence/<nonce>` over TLS with a PROXY protocol header before the hello, from `from`. */
function viaProxyHeader(port: number, nonce: string, header: string, from: string): Promise<string> {
  return new Promise((resolve) => {
    let out = ''
    const raw = connect({ port, host: '127.0.0.1', localAddress: from }, () => {
      raw.write(header)
      const tls = tlsConnect({ socket: raw, rejectUnauthorized: false, ALPNProtocols: ['http/1.1'] }, () => tls.write(`GET /evidence/${nonce} HTTP/1.1\r\nHost: x\r\n\r\n`))
      tls.on('data', (d: Buffer) => (out += d.toString()))
      tls.on('error', () => {})
      tls.on('close', () => resolve(out))
    })
    raw.on('error', () => resolve(out))
    setTimeout(() => {
      raw.destroy()
      resolve(out)
    }, 5000)
  })
}

/** What comes back on a plain TCP connection from `from` after writing `bytes`. */
function plainExchange(port: number, bytes: string, from: string): Promise<string> {
  return new Promise((resolve) => {
    let out = ''
    const s = connect({ port, host: '127.0.0.1', localAddress: from }, () => s.write(bytes))
    s.on('data', (d: Buffer) => (out += d.toString()))
    s.on('error', () => {})
    s.on('close', () => resolve(out))
    setTimeout(() => s.destroy(), 3000)
  })
}

for (const driver of testDrivers()) {
  describe(`HTTPS listener records are bound to their client's address (${driver})`, () => {
    let d: TestDatabase
    let listener: TlsListener
    let trusting: TlsListener
    let dir: string
    const now = () => new Date()

    beforeAll(async () => {
      d = await openTestDatabase(driver)
      dir = mkdtempSync(join(tmpdir(), 'evidence-binding-'))
      listener = await startTlsListener({ db: d.db, clock: now }, { port: 0, host: '127.0.0.1', dataDir: dir })
      // Behind a proxy on 127.0.0.1 (TRUSTED_PROXIES=127.0.0.1).
      trusting = await startTlsListener({ db: d.db, clock: now, trustedProxies: [parseCidr('127.0.0.1')!] }, { port: 0, host: '127.0.0.1', dataDir: dir })
    }, 30_000)
    afterAll(async () => {
      await listener.stop()
      await trusting.stop()
      await d.destroy()
      rmSync(dir, { recursive: true, force: true })
    })

    async function pageNonce(clientIp: string): Promise<string> {
      const nonce = newNonce()
      await issueNonce(d.db, { nonce, tool: 'tls-fingerprint', turnSecret: 'x', now: now(), ttlSeconds: 600, clientIp })
      return nonce
    }
    const read = (nonce: string, client: string) => readNonce(d.db, { nonce, tool: 'tls-fingerprint', now: now(), client })
    const ja4s = (r: Awaited<ReturnType<typeof read>>) => r.evidence.filter((e) => e.kind === 'tls').map((e) => (e.data as { ja4: string }).ja4)

    test("A's nonce borrowed by B first: A is read with its own handshake only, and B's records are listed apart", async () => {
      const nonce = await pageNonce(A)
      expect(JSON.parse(await fetchEvidence(listener.port, nonce, B))).toMatchObject({ recorded: true, ja4: expect.stringMatching(/^t12/) })
      const borrowed = await read(nonce, A)
      expect(borrowed.evidence).toEqual([])
      expect(borrowed.elsewhere.map((e) => `${e.kind} ${e.address}`)).toEqual([`tls ${B}`, `http1 ${B}`])
      expect(JSON.parse(await fetchEvidence(listener.port, nonce, A))).toMatchObject({ recorded: true, ja4: expect.stringMatching(/^t13/) })
      const own = await read(nonce, A)
      expect(own.evidence.map((e) => e.kind)).toEqual(['tls', 'http2'])
      expect(ja4s(own)).toEqual([expect.stringMatching(/^t13/)])
      expect(own.elsewhere.map((e) => e.address)).toEqual([B, B])
      // Read as B's (B submitting A's nonce), it is the other way round.
      const asB = await read(nonce, B)
      expect(ja4s(asB)).toEqual([expect.stringMatching(/^t12/)])
      expect(asB.elsewhere.map((e) => `${e.kind} ${e.address}`)).toEqual([`tls ${A}`, `http2 ${A}`])
    }, 30_000)

    test("B cannot crowd out A's records: its own are capped apart, and A's handshake is still filed", async () => {
      const nonce = await pageNonce(A)
      for (let i = 0; i < 6; i++) await fetchEvidence(listener.port, nonce, B)
      const crowded = await read(nonce, A)
      expect(crowded.elsewhere.filter((e) => e.kind === 'tls')).toHaveLength(AWAY_ITEMS)
      expect(crowded.dropped).toEqual({ tls: 6 - AWAY_ITEMS, http1: 6 - AWAY_ITEMS })
      expect(JSON.parse(await fetchEvidence(listener.port, nonce, A)).recorded).toBe(true)
      expect(ja4s(await read(nonce, A))).toEqual([expect.stringMatching(/^t13/)])
    }, 60_000)

    test('from a trusted proxy, a PROXY protocol header names the client; from anyone else it is not TLS', async () => {
      const nonce = await pageNonce('203.0.113.5')
      const answer = await viaProxyHeader(trusting.port, nonce, 'PROXY TCP4 203.0.113.5 127.0.0.1 40001 443\r\n', '127.0.0.1')
      expect(answer).toContain('HTTP/1.1 200')
      expect((await read(nonce, '203.0.113.5')).evidence.map((e) => e.kind)).toEqual(['tls', 'http1'])
      expect((await read(nonce, '127.0.0.1')).elsewhere.map((e) => e.address)).toEqual(['203.0.113.5', '203.0.113.5'])
      // 127.0.0.70 is no trusted proxy: its PROXY line is not TLS, and nothing is filed.
      const other = await pageNonce('203.0.113.5')
      expect(await plainExchange(trusting.port, 'PROXY TCP4 203.0.113.5 127.0.0.1 40001 443\r\n', A)).toStartWith('HTTP/1.1 400')
      expect(await viaProxyHeader(trusting.port, other, 'PROXY TCP4 203.0.113.5 127.0.0.1 40001 443\r\n', A)).not.toContain('200')
      expect((await read(other, '203.0.113.5')).evidence).toEqual([])
    }, 30_000)

    test("X-Forwarded-For names the client only from a trusted proxy", async () => {
      const nonce = await pageNonce('203.0.113.9')
      await curl(['--http1.1', '-H', 'X-Forwarded-For: 203.0.113.9', `https://127.0.0.1:${trusting.port}/evidence/${nonce}`])
      expect((await read(nonce, '203.0.113.9')).evidence.map((e) => e.kind)).toEqual(['tls', 'http1'])
      const untrusted = await pageNonce('203.0.113.9')
      await curl(['--http1.1', '-H', 'X-Forwarded-For: 203.0.113.9', `https://127.0.0.1:${listener.port}/evidence/${untrusted}`])
      expect((await read(untrusted, '203.0.113.9')).evidence).toEqual([])
      expect((await read(untrusted, '127.0.0.1')).evidence.map((e) => e.kind)).toEqual(['tls', 'http1'])
    }, 30_000)

    test('a dual-stack listener: an IPv4 client is filed as IPv4, an IPv6 one is its /64', async () => {
      const dual = await startTlsListener({ db: d.db, clock: now }, { port: 0, host: '::', dataDir: dir })
      try {
        const v4 = await pageNonce('127.0.0.1')
        await fetchEvidence(dual.port, v4, '127.0.0.1')
        expect((await read(v4, '127.0.0.1')).evidence.map((e) => e.kind)).toEqual(['tls', 'http2'])
        const v6 = await pageNonce('::1')
        await curl(['--http2', '-g', `https://[::1]:${dual.port}/evidence/${v6}`])
        // ::2 is in ::1's /64: a host's rotating temporary addresses (RFC 8981) are one client.
        expect((await read(v6, '::2')).evidence.map((e) => e.kind)).toEqual(['tls', 'http2'])
        expect((await read(v6, '127.0.0.1')).elsewhere.map((e) => e.address)).toEqual(['::1', '::1'])
      } finally {
        await dual.stop()
      }
    }, 30_000)
  })
}
