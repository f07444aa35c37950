// The TLS evidence listener on 127.0.0.1 with real clients (curl over HTTP/2 and HTTP/1.1,
// headless Chromium) and hostile ones (not TLS, a truncated hello, garbage after the
// handshake, a client that never finishes), on each database driver.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { execFile, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, existsSync, readFileSync } from 'node:fs'
import { connect, type Socket } from 'node:net'
import { connect as tlsConnect } from 'node:tls'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { issueNonce, readNonce } from '../../db/nonces'
import { startTlsListener } from '../../src/listeners/tls'
import { fixture } from '../../src/evidence/fixtures/load'
import { openTestDatabase, testDrivers, type TestDatabase } from '../support/db'

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
let counter = 0
const newNonce = () => `tlstest${(Date.now() + counter++).toString(32)}`.padEnd(26, 'a').slice(0, 26).replace(/[^a-z2-7]/g, 'b')

function run(cmd: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(cmd, args, { timeout: 30_000 }, (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }))
  })
}

/** Opens a TCP connection, writes `bytes`, and resolves with what came back when it closes (or after `ms`). */
function rawExchange(port: number, bytes: Uint8Array, ms = 3000): Promise<{ data: Buffer; closed: boolean }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    const s: Socket = connect(port, '127.0.0.1', () => s.write(bytes))
    const timer = setTimeout(() => {
      s.destroy()
      resolve({ data: Buffer.concat(chunks), closed: false })
    }, ms)
    s.on('data', (d: Buffer) => chunks.push(d))
    s.on('error', () => {})
    s.on('close', () => {
      clearTimeout(timer)
      resolve({ data: Buffer.concat(chunks), closed: true })
    })
  })
}

for (const driver of testDrivers()) {
  describe(`TLS evidence listener (${driver})`, () => {
    let d: TestDatabase
    let listener: Awaited<ReturnType<typeof startTlsListener>>
    let dataDir: string
    const now = () => new Date()

    beforeAll(async () => {
      d = await openTestDatabase(driver)
      dataDir = mkdtempSync(join(tmpdir(), 'tls-listener-'))
      listener = await startTlsListener({ db: d.db, clock: now }, { port: 0, host: '127.0.0.1', dataDir, timeoutMs: 1500 })
    }, 30_000)
    afterAll(async () => {
      await listener.stop()
      await d.destroy()
      rmSync(dataDir, { recursive: true, force: true })
    })

    async function live(): Promise<string> {
      const nonce = newNonce()
      await issueNonce(d.db, { nonce, tool: 'tls-fingerprint', turnSecret: 'x', now: now(), ttlSeconds: 600 })
      return nonce
    }
    const evidence = async (nonce: string) => (await readNonce(d.db, { nonce, tool: 'tls-fingerprint', now: now() })).evidence

    test('makes a self-signed certificate in DATA_DIR/tls and reuses it on the next start', async () => {
      const cert = readFileSync(join(dataDir, 'tls', 'cert.pem'), 'utf8')
      expect(cert).toContain('BEGIN CERTIFICATE')
      const again = await startTlsListener({ db: d.db, clock: now }, { port: 0, host: '127.0.0.1', dataDir })
      await again.stop()
      expect(readFileSync(join(dataDir, 'tls', 'cert.pem'), 'utf8')).toBe(cert)
    })

    test('curl --http2: files the ClientHello and the Akamai fingerprint under the nonce', async () => {
      const nonce = await live()
      const r = await run('curl', ['-sk', '--http2', '-m', '10', '-D', '-', `https://127.0.0.1:${listener.port}/evidence/${nonce}`])
      expect(r.stdout).toContain('HTTP/2 200')
      expect(r.stdout.toLowerCase()).toContain('access-control-allow-origin: *')
      const body = JSON.parse(r.stdout.slice(r.stdout.indexOf('{')))
      expect(body.recorded).toBe(true)
      const ev = await evidence(nonce)
      expect(ev.map((e) => e.kind)).toEqual(['tls', 'http2'])
      const tls = ev[0]!.data as Record<string, unknown>
      expect(tls.ja4).toMatch(/^t13i\d{4}h2_/)
      expect(tls.sni).toBeNull()
      expect(tls.alpn).toEqual(['h2', 'http/1.1'])
      expect(tls.grease).toBe(false)
      expect((tls.negotiated as { alpn: string }).alpn).toBe('h2')
      const h2 = ev[1]!.data as Record<string, unknown>
      expect(h2.akamai).toMatch(/\|m,p,s,a$/)
      expect(h2.path).toBe(`/evidence/${nonce}`)
      expect(h2.user_agent).toMatch(/^curl\//)
    })

    test('curl --http1.1: header names in wire order and case, and the version', async () => {
      const nonce = await live()
      const r = await run('curl', ['-sk', '--http1.1', '-m', '10', '-H', 'X-Odd-Case: 1', `https://127.0.0.1:${listener.port}/evidence/${nonce}`])
      expect(JSON.parse(r.stdout).recorded).toBe(true)
      const ev = await evidence(nonce)
      expect(ev.map((e) => e.kind)).toEqual(['tls', 'http1'])
      expect((ev[0]!.data as { ja4: string }).ja4).toMatch(/^t13i\d{4}h1_/)
      const h1 = ev[1]!.data as { version: string; headers: Array<[string, string]> }
      expect(h1.version).toBe('HTTP/1.1')
      expect(h1.headers.map(([n]) => n)).toEqual(['Host', 'User-Agent', 'Accept', 'X-Odd-Case'])
    })

    test('an unknown nonce or another path is answered 404 and files nothing', async () => {
      const r = await run('curl', ['-sk', '--http2', '-m', '10', '-o', '/dev/null', '-w', '%{http_code}', `https://127.0.0.1:${listener.port}/evidence/${'a'.repeat(26)}`])
      expect(r.stdout).toBe('404')
      const r2 = await run('curl', ['-sk', '--http1.1', '-m', '10', '-o', '/dev/null', '-w', '%{http_code}', `https://127.0.0.1:${listener.port}/`])
      expect(r2.stdout).toBe('404')
    })

    test.skipIf(!existsSync(CHROMIUM))('headless Chromium: a t13 JA4 with GREASE and the Chrome HTTP/2 fingerprint', async () => {
      const nonce = await live()
      const profile = mkdtempSync(join(tmpdir(), 'tls-chromium-'))
      try {
        await run(CHROMIUM, ['--headless', '--no-sandbox', '--disable-gpu', '--ignore-certificate-errors', `--user-data-dir=${profile}`, '--dump-dom', `https://127.0.0.1:${listener.port}/evidence/${nonce}`])
      } finally {
        rmSync(profile, { recursive: true, force: true })
      }
      const ev = await evidence(nonce)
      const tls = ev.find((e) => e.kind === 'tls')!.data as Record<string, unknown>
      expect(tls.ja4).toMatch(/^t13i15\d\dh2_8daaf6152771_/)
      expect(tls.grease).toBe(true)
      const h2 = ev.find((e) => e.kind === 'http2')!.data as Record<string, unknown>
      expect(h2.akamai).toBe('1:65536;2:0;4:6291456;6:262144|15663105|0|m,a,s,p')
    }, 30_000)

    test('plain HTTP on the TLS port gets a 400, and the listener keeps serving', async () => {
      const r = await rawExchange(listener.port, new TextEncoder().encode('GET / HTTP/1.1\r\nHost: x\r\n\r\n'))
      expect(r.data.toString()).toStartWith('HTTP/1.1 400')
      expect(r.closed).toBe(true)
    })

    test('a truncated hello is dropped at the deadline; an invalid one at once', async () => {
      const hello = fixture('tls-chromium-ip.hex')
      const slow = await rawExchange(listener.port, hello.subarray(0, 100), 4000)
      expect(slow.closed).toBe(true)
      const bad = new Uint8Array(hello)
      bad[5] = 2 // a ServerHello where the ClientHello should be
      const r = await rawExchange(listener.port, bad)
      expect(r.closed).toBe(true)
      expect(r.data.length).toBe(0)
    })

    test('garbage after the handshake closes that connection only', async () => {
      for (const alpn of [['h2'], ['http/1.1']]) {
        const closed = await new Promise<boolean>((resolve) => {
          const s = tlsConnect({ port: listener.port, host: '127.0.0.1', rejectUnauthorized: false, ALPNProtocols: alpn }, () => s.write(Buffer.alloc(4096, 0xff)))
          s.on('data', () => {})
          s.on('error', () => {})
          s.on('close', () => resolve(true))
          setTimeout(() => resolve(false), 4000)
        })
        expect(closed).toBe(true)
      }
      const nonce = await live()
      const r = await run('curl', ['-sk', '--http2', '-m', '10', `https://127.0.0.1:${listener.port}/evidence/${nonce}`])
      expect(JSON.parse(r.stdout).recorded).toBe(true)
    })

    test('a slowloris client that never sends its request is dropped at the deadline', async () => {
      const t0 = Date.now()
      const closed = await new Promise<boolean>((resolve) => {
        const s = tlsConnect({ port: listener.port, host: '127.0.0.1', rejectUnauthorized: false, ALPNProtocols: ['http/1.1'] }, () => s.write('GET /evidence/'))
        s.on('error', () => {})
        s.on('close', () => resolve(true))
        setTimeout(() => resolve(false), 5000)
      })
      expect(closed).toBe(true)
      expect(Date.now() - t0).toBeLessThan(4000)
    })

    test('random bytes never crash it', async () => {
      for (let i = 0; i < 20; i++) {
        const junk = crypto.getRandomValues(new Uint8Array(1 + Math.floor(Math.random() * 2000)))
        if (i % 2 === 0) junk[0] = 22
        if (i % 4 === 0) junk[1] = 3
        await rawExchange(listener.port, junk, 300)
      }
      expect(spawnSync('true').status).toBe(0)
      const nonce = await live()
      const r = await run('curl', ['-sk', '--http1.1', '-m', '10', `https://127.0.0.1:${listener.port}/evidence/${nonce}`])
      expect(JSON.parse(r.stdout).recorded).toBe(true)
    })
  })
}
