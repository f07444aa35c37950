// The TLS evidence listener on 127.0.0.1 with real clients (curl over HTTP/2 and HTTP/1.1,
// headless Chromium) and hostile ones (not TLS, a truncated hello, garbage after the
// handshake, a client that never finishes), on each database driver. Round trips: curl on
// loopback, a hand-written HTTP/2 client that answers PINGs late or never, and curl through a
// TCP relay that holds every byte 120 ms each way (the signature of a TCP-terminating proxy).

import { requirePrerequisite } from '../support/prerequisites'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { execFile, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, existsSync, readFileSync } from 'node:fs'
import { connect, createServer, type Server, type Socket } from 'node:net'
import { connect as tlsConnect } from 'node:tls'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { issueNonce, readNonce } from '../../db/nonces'
import { startTlsListener } from '../../src/listeners/tls'
import { fixture } from '../../src/evidence/fixtures/load'
import { concatBytes } from '../../src/evidence/bytes'
import { H2_FRAME, H2_PREFACE, h2PingFrame, readH2Ping, splitH2Frames, type H2Frame } from '../../src/evidence/http2'
import type { RttRecord } from '../../src/evidence/tls-records'
import { openTestDatabase, testDrivers, type TestDatabase } from '../support/db'
import { uniqueNonce } from '../support/unique'

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const newNonce = uniqueNonce

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

/**
 * A TCP relay on 127.0.0.1 that holds every chunk `delayMs` before passing it on, each way:
 * it terminates the client's TCP connection and opens its own to the target, as a SOCKS or
 * HTTP CONNECT proxy does, and stands for a distant one.
 */
async function delayingRelay(target: number, delayMs: number): Promise<{ port: number; close(): void }> {
  const sockets = new Set<Socket>()
  const server: Server = createServer((client) => {
    const upstream = connect(target, '127.0.0.1')
    for (const s of [client, upstream]) {
      sockets.add(s)
      s.on('error', () => {})
      s.on('close', () => sockets.delete(s))
    }
    const pipe = (from: Socket, to: Socket) => {
      from.on('data', (d: Buffer) => void setTimeout(() => to.write(d), delayMs))
      from.on('end', () => void setTimeout(() => to.end(), delayMs))
    }
    pipe(client, upstream)
    pipe(upstream, client)
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return {
    port: (server.address() as { port: number }).port,
    close() {
      for (const s of sockets) s.destroy()
      server.close()
    },
  }
}

function h2Frame(type: number, flags: number, stream: number, payload: Uint8Array = new Uint8Array(0)): Uint8Array {
  return concatBytes([Uint8Array.of(payload.length >> 16, (payload.length >> 8) & 0xff, payload.length & 0xff, type, flags, 0, 0, 0, stream), payload])
}

/** A request header block of literals without indexing (RFC 7541 §6.2.2), no Huffman: short names and values only. */
function literalBlock(fields: Array<[string, string]>): Uint8Array {
  const enc = new TextEncoder()
  return concatBytes(fields.flatMap(([n, v]) => [Uint8Array.of(0, n.length), enc.encode(n), Uint8Array.of(v.length), enc.encode(v)]))
}

/**
 * A hand-written HTTP/2 client: preface, SETTINGS and a GET for the path, then `onPing` decides
 * what to send for each PING of the server's (nothing, or frames to write). Resolves with every
 * frame the server sent once it closes (or after `ms`).
 */
function rawH2Get(port: number, path: string, onPing: (opaque: Uint8Array) => Uint8Array[], ms = 6000): Promise<H2Frame[]> {
  return new Promise((resolve) => {
    let buffered: Uint8Array = new Uint8Array(0)
    const frames: H2Frame[] = []
    const s = tlsConnect({ port, host: '127.0.0.1', rejectUnauthorized: false, ALPNProtocols: ['h2'] }, () => {
      const block = literalBlock([[':method', 'GET'], [':scheme', 'https'], [':authority', '127.0.0.1'], [':path', path]])
      s.write(concatBytes([H2_PREFACE, h2Frame(H2_FRAME.settings, 0, 0), h2Frame(H2_FRAME.headers, 0x5, 1, block)]))
    })
    const timer = setTimeout(() => s.destroy(), ms)
    s.on('data', (d: Buffer) => {
      buffered = concatBytes([buffered, d])
      const r = splitH2Frames(buffered)
      if (!r.ok) return void s.destroy()
      buffered = buffered.slice(r.length)
      for (const f of r.frames) {
        frames.push({ ...f, payload: f.payload.slice() })
        const ping = readH2Ping(f)
        if (ping.kind === 'ping') for (const out of onPing(ping.opaque.slice())) s.write(out)
      }
    })
    s.on('error', () => {})
    s.on('close', () => {
      clearTimeout(timer)
      resolve(frames)
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
    const evidence = async (nonce: string) => (await readNonce(d.db, { nonce, tool: 'tls-fingerprint', now: now(), client: '127.0.0.1' })).evidence

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

    test('curl --http2: the record carries the TCP-handshake RTT and the PING RTT, both small on loopback', async () => {
      const nonce = await live()
      const r = await run('curl', ['-sk', '--http2', '-m', '10', `https://127.0.0.1:${listener.port}/evidence/${nonce}`])
      expect(JSON.parse(r.stdout).recorded).toBe(true)
      const rtt = ((await evidence(nonce)).find((e) => e.kind === 'http2')!.data as { rtt: RttRecord }).rtt
      expect(rtt.transport).toBe('h2')
      // Three PINGs, or fewer when a round trip would not fit the budget (a busy machine).
      expect(rtt.ping_samples.length).toBeGreaterThanOrEqual(1)
      expect(rtt.ping_samples.length).toBeLessThanOrEqual(3)
      expect(rtt.h2_ping_rtt_ms).toBe(Math.min(...rtt.ping_samples))
      if (process.platform === 'linux') {
        expect(rtt.tcp_rtt_ms!).toBeGreaterThan(0)
        // The kernel measures loopback in microseconds; these bounds only catch a wrong unit.
        expect(rtt.tcp_rtt_ms!).toBeLessThan(50)
      } else expect(rtt.tcp_rtt_ms).toBeNull()
      expect(rtt.h2_ping_rtt_ms!).toBeGreaterThan(0)
      // An answer counts only within the PINGs' budget (2 s): a bound on the unit, not the speed.
      expect(rtt.h2_ping_rtt_ms!).toBeLessThanOrEqual(2000)
    })

    test('curl --http1.1: the TCP RTT only, no PING over HTTP/1', async () => {
      const nonce = await live()
      await run('curl', ['-sk', '--http1.1', '-m', '10', `https://127.0.0.1:${listener.port}/evidence/${nonce}`])
      const rtt = ((await evidence(nonce)).find((e) => e.kind === 'http1')!.data as { rtt: RttRecord }).rtt
      expect(rtt).toMatchObject({ transport: 'http/1.1', h2_ping_rtt_ms: null, ping_samples: [] })
      if (process.platform === 'linux') expect(rtt.tcp_rtt_ms!).toBeGreaterThan(0)
    })

    test('a client that never answers the PING gets its answer anyway, with no PING RTT', async () => {
      const nonce = await live()
      const frames = await rawH2Get(listener.port, `/evidence/${nonce}`, () => [])
      // One PING went out and waited for its ACK; then the response, within the deadline.
      expect(frames.filter((f) => f.type === H2_FRAME.ping)).toHaveLength(1)
      expect(frames.map((f) => f.type)).toEqual(expect.arrayContaining([H2_FRAME.headers, H2_FRAME.data, H2_FRAME.goaway]))
      const rtt = ((await evidence(nonce)).find((e) => e.kind === 'http2')!.data as { rtt: RttRecord }).rtt
      expect(rtt).toMatchObject({ h2_ping_rtt_ms: null, ping_samples: [], transport: 'h2' })
    })

    test('frames other than the awaited ACK are skipped; the client\'s own PING is answered', async () => {
      const nonce = await live()
      const mine = Uint8Array.of(9, 9, 9, 9, 9, 9, 9, 9)
      const frames = await rawH2Get(listener.port, `/evidence/${nonce}`, (opaque) => [
        h2Frame(H2_FRAME.settings, 0x1, 0),
        h2Frame(H2_FRAME.windowUpdate, 0, 0, Uint8Array.of(0, 1, 0, 0)),
        h2PingFrame(Uint8Array.of(1, 2, 3, 4, 5, 6, 7, 8), true), // an ACK of a PING never sent
        h2Frame(H2_FRAME.ping, 0x1, 0, opaque.subarray(0, 4)), // a short, invalid ACK
        h2PingFrame(mine),
        h2Frame(0xfa, 0, 0, Uint8Array.of(1, 2)), // an unknown type (§5.5)
        h2PingFrame(opaque, true),
      ])
      const pings = frames.filter((f) => f.type === H2_FRAME.ping)
      // Up to PING_COUNT (3) PINGs, each sent after the last one's ACK: fewer when a round trip
      // would not fit the budget, as on a machine too busy to answer in time (a gate run beside
      // stress-ng sent two). Whatever their number, every one was answered past the frames before
      // its ACK, each is a sample, and the client's own PING before each ACK was answered.
      const sent = pings.filter((f) => f.flags === 0).length
      expect(sent).toBeGreaterThanOrEqual(1)
      expect(sent).toBeLessThanOrEqual(3)
      expect(pings.filter((f) => f.flags === 1).map((f) => Array.from(f.payload))).toEqual(Array.from({ length: sent }, () => Array.from(mine)))
      const rtt = ((await evidence(nonce)).find((e) => e.kind === 'http2')!.data as { rtt: RttRecord }).rtt
      expect(rtt.ping_samples).toHaveLength(sent)
      expect(rtt.h2_ping_rtt_ms!).toBeGreaterThan(0)
    })

    test('through a relay that holds bytes 120 ms each way: a short TCP RTT, a PING RTT of at least 240 ms', async () => {
      // Its own listener with the default 10 s deadline: the relayed handshake alone takes ~0.5 s.
      const slow = await startTlsListener({ db: d.db, clock: now }, { port: 0, host: '127.0.0.1', dataDir })
      const relay = await delayingRelay(slow.port, 120)
      try {
        const nonce = await live()
        const r = await run('curl', ['-sk', '--http2', '-m', '20', `https://127.0.0.1:${relay.port}/evidence/${nonce}`])
        expect(JSON.parse(r.stdout).recorded).toBe(true)
        const rtt = ((await evidence(nonce)).find((e) => e.kind === 'http2')!.data as { rtt: RttRecord }).rtt
        // The kernel's handshake ends at the relay; the PING reaches curl: 2 × 120 ms at least.
        expect(rtt.h2_ping_rtt_ms!).toBeGreaterThanOrEqual(150)
        if (process.platform === 'linux') expect(rtt.tcp_rtt_ms!).toBeLessThan(50)
      } finally {
        relay.close()
        await slow.stop()
      }
    }, 30_000)

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

    test('headless Chromium: a t13 JA4 with GREASE and the Chrome HTTP/2 fingerprint', async () => {
      requirePrerequisite(!existsSync(CHROMIUM) && `Chromium at ${CHROMIUM} (tests/gate.sh installs Debian's chromium; CHROMIUM_PATH points elsewhere)`)
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
      const slow = await rawExchange(listener.port, hello.subarray(0, 100), 15_000)
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
          setTimeout(() => resolve(false), 15_000)
        })
        expect(closed).toBe(true)
      }
      const nonce = await live()
      const r = await run('curl', ['-sk', '--http2', '-m', '10', `https://127.0.0.1:${listener.port}/evidence/${nonce}`])
      expect(JSON.parse(r.stdout).recorded).toBe(true)
    })

    test('a slowloris client that never sends its request is dropped at the deadline', async () => {
      // The listener's deadline is 1.5 s; the wait is a bound from it with room for a busy
      // machine, not a timing assertion: what is checked is that the listener closed it.
      const closed = await new Promise<boolean>((resolve) => {
        const s = tlsConnect({ port: listener.port, host: '127.0.0.1', rejectUnauthorized: false, ALPNProtocols: ['http/1.1'] }, () => s.write('GET /evidence/'))
        s.on('error', () => {})
        s.on('close', () => resolve(true))
        setTimeout(() => {
          resolve(false)
          s.destroy()
        }, 15_000)
      })
      expect(closed).toBe(true)
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
