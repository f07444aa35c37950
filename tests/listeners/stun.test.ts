// The STUN/TURN listener on 127.0.0.1 with real datagrams, on each database driver: Binding
// answers, the TURN Allocate exchange with a page's credentials (evidence filed under its
// nonce), wrong or used credentials (nothing filed), and garbage that must not stop it.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import fc from 'fast-check'
import { rows } from '../../db/client'
import { issueNonce, readNonce } from '../../db/nonces'
import { generateNonce } from '../../src/core/nonce'
import { buildStun, longTermKey, parseStun, STUN_ATTRIBUTE as A, STUN_METHOD, textAttribute, u32Attribute, type StunMessage } from '../../src/evidence/stun'
import { startStunListener } from '../../src/listeners/stun'
import { openTestDatabase, testDrivers, type TestDatabase } from '../support/db'

interface Client {
  port: number
  /** Sends and waits for the answer with the same transaction ID (null after `ms`). */
  ask(bytes: Uint8Array, ms?: number, to?: number): Promise<StunMessage | null>
  send(bytes: Uint8Array): void
  close(): void
}

async function client(serverPort: number, host = '127.0.0.1'): Promise<Client> {
  const waiting = new Map<string, (m: StunMessage) => void>()
  const socket = await Bun.udpSocket({
    hostname: host,
    socket: {
      data(_s, buf) {
        const r = parseStun(new Uint8Array(buf))
        if (r.ok) waiting.get(r.value.transactionId)?.(r.value)
      },
    },
  })
  return {
    port: socket.port,
    send: (bytes) => void socket.send(bytes, serverPort, host),
    ask(bytes, ms = 2000, to = serverPort) {
      const id = Buffer.from(bytes.subarray(8, 20)).toString('hex')
      return new Promise((ok) => {
        const timer = setTimeout(() => ok(null), ms)
        waiting.set(id, (m) => {
          clearTimeout(timer)
          ok(m)
        })
        socket.send(bytes, to, host)
      })
    },
    close: () => socket.close(),
  }
}

const tid = () => crypto.getRandomValues(new Uint8Array(12))
const binding = () => buildStun({ method: STUN_METHOD.binding, class: 'request', transactionId: tid() })
function allocate(cred?: { username: string; realm: string; nonce: string; password: string }): Uint8Array {
  const attributes = [u32Attribute(A.requestedTransport, 17 << 24)]
  if (!cred) return buildStun({ method: STUN_METHOD.allocate, class: 'request', transactionId: tid(), attributes })
  attributes.push(textAttribute(A.username, cred.username), textAttribute(A.realm, cred.realm), textAttribute(A.nonce, cred.nonce))
  return buildStun({ method: STUN_METHOD.allocate, class: 'request', transactionId: tid(), attributes, integrityKey: longTermKey(cred.username, cred.realm, cred.password), fingerprint: true })
}

/** The browser's exchange: Allocate, 401, Allocate with credentials under a new transaction ID. */
async function turnExchange(c: Client, username: string, password: string): Promise<StunMessage | null> {
  const challenge = await c.ask(allocate())
  expect(challenge?.errorCode?.code).toBe(401)
  return c.ask(allocate({ username, realm: challenge!.realm!, nonce: challenge!.nonce!, password }))
}

const settle = () => new Promise((r) => setTimeout(r, 150))

for (const driver of testDrivers()) {
  describe(`STUN/TURN listener (${driver})`, () => {
    let db: TestDatabase
    let listener: { port: number; stop(): Promise<void> }
    const lines: string[] = []
    const now = () => new Date()

    beforeAll(async () => {
      db = await openTestDatabase(driver)
      listener = await startStunListener({ db: db.db, clock: now, log: (l) => lines.push(l) }, { port: 0, hostname: '127.0.0.1' })
    })
    afterAll(async () => {
      await listener?.stop()
      await db?.destroy()
    })

    async function page(): Promise<{ nonce: string; secret: string }> {
      const nonce = generateNonce((k) => crypto.getRandomValues(new Uint8Array(k)))
      await issueNonce(db.db, { nonce, tool: 'webrtc-leak', turnSecret: 'page-turn-secret', now: now(), ttlSeconds: 600 })
      return { nonce, secret: 'page-turn-secret' }
    }
    const evidence = async (nonce: string) => (await readNonce(db.db, { nonce, tool: 'webrtc-leak', now: now(), client: '127.0.0.1' })).evidence

    test('a Binding request is answered with the source address and port', async () => {
      const c = await client(listener.port)
      try {
        const r = await c.ask(binding())
        expect([r?.method, r?.class]).toEqual([STUN_METHOD.binding, 'success'])
        expect(r?.xorMappedAddress).toEqual({ family: 'IPv4', address: '127.0.0.1', port: c.port })
      } finally {
        c.close()
      }
    })

    test('on HOST=:: one socket serves both families: IPv4 clients are answered as IPv4, IPv6 ones as IPv6', async () => {
      const dual = await startStunListener({ db: db.db, clock: now }, { port: 0, hostname: '::' })
      const v4 = await client(dual.port, '127.0.0.1')
      const v6 = await client(dual.port, '::1')
      try {
        // The kernel gives the IPv4 client's address as ::ffff:127.0.0.1; it is answered, and filed, as IPv4.
        expect((await v4.ask(binding()))?.xorMappedAddress).toEqual({ family: 'IPv4', address: '127.0.0.1', port: v4.port })
        expect((await v6.ask(binding()))?.xorMappedAddress).toEqual({ family: 'IPv6', address: '::1', port: v6.port })
        const { nonce, secret } = await page()
        const ok = await turnExchange(v6, nonce, secret)
        expect(ok?.errorCode?.code).toBe(403)
        await settle()
        expect((await evidence(nonce)).map((e) => [e.kind, (e.data as { family: string; address: string }).family, (e.data as { address: string }).address])).toContainEqual(['turn', 'IPv6', '::1'])
      } finally {
        v4.close()
        v6.close()
        await dual.stop()
      }
    })

    test("a verified Allocate files the source under the page nonce, and ties that socket's Binding to it", async () => {
      const { nonce, secret } = await page()
      const c = await client(listener.port)
      try {
        await c.ask(binding())
        const r = await turnExchange(c, nonce, secret)
        expect(r?.errorCode?.code).toBe(403)
        // Retransmissions and later Bindings from the same socket add nothing new.
        await c.ask(binding())
        await turnExchange(c, nonce, secret)
        await settle()
        const items = await evidence(nonce)
        expect(items.map((e) => e.kind).sort()).toEqual(['stun', 'turn'])
        const turn = items.find((e) => e.kind === 'turn')!
        expect(turn.data).toEqual({ address: '127.0.0.1', port: c.port, family: 'IPv4', transport: 'udp', requestedTransport: 17, realm: 'antibot', software: null })
        expect(items.find((e) => e.kind === 'stun')!.data).toEqual({ address: '127.0.0.1', port: c.port, family: 'IPv4', transport: 'udp' })
        expect(Date.parse(turn.observedAt)).toBeGreaterThan(Date.now() - 60_000)
      } finally {
        c.close()
      }
    })

    test('a Binding after the Allocate is filed too; another socket is not', async () => {
      const { nonce, secret } = await page()
      const c = await client(listener.port)
      const other = await client(listener.port)
      try {
        await turnExchange(c, nonce, secret)
        await c.ask(binding())
        await other.ask(binding())
        await settle()
        const items = await evidence(nonce)
        expect(items.filter((e) => e.kind === 'stun').map((e) => (e.data as { port: number }).port)).toEqual([c.port])
      } finally {
        c.close()
        other.close()
      }
    })

    test('a challenge from one instance answered to another: 438 with a fresh nonce, then the Allocate is filed', async () => {
      const { nonce, secret } = await page()
      const other = await startStunListener({ db: db.db, clock: now }, { port: 0, hostname: '127.0.0.1' })
      const c = await client(listener.port)
      try {
        const challenge = await c.ask(allocate())
        const cred = { username: nonce, realm: challenge!.realm!, password: secret }
        const moved = await c.ask(allocate({ ...cred, nonce: challenge!.nonce! }), 2000, other.port)
        expect(moved?.errorCode?.code).toBe(438)
        const r = await c.ask(allocate({ ...cred, nonce: moved!.nonce! }), 2000, other.port)
        expect(r?.errorCode?.code).toBe(403)
        await settle()
        expect((await evidence(nonce)).map((e) => e.kind)).toEqual(['turn'])
      } finally {
        c.close()
        await other.stop()
      }
    })

    test('a wrong TURN secret, an unknown nonce or an expired one files nothing', async () => {
      const { nonce } = await page()
      const expired = generateNonce((k) => crypto.getRandomValues(new Uint8Array(k)))
      await issueNonce(db.db, { nonce: expired, tool: 'webrtc-leak', turnSecret: 'page-turn-secret', now: new Date(Date.now() - 3600_000), ttlSeconds: 600 })
      const c = await client(listener.port)
      try {
        expect((await turnExchange(c, nonce, 'wrong'))?.errorCode?.code).toBe(401)
        expect((await turnExchange(c, 'nosuchnonce', 'page-turn-secret'))?.errorCode?.code).toBe(401)
        expect((await turnExchange(c, expired, 'page-turn-secret'))?.errorCode?.code).toBe(401)
        await settle()
        expect(await evidence(nonce)).toEqual([])
        const [count] = await rows<{ n: number }>(db.db, sql`select count(*)::int as n from evidence where nonce = ${expired}`)
        expect(count?.n).toBe(0)
      } finally {
        c.close()
      }
    })

    test('garbage, truncated and oversized datagrams are dropped and the listener keeps answering', async () => {
      const c = await client(listener.port)
      try {
        const samples = fc.sample(fc.uint8Array({ maxLength: 300 }), 300)
        for (const s of samples) c.send(s)
        const good = allocate({ username: 'x', realm: 'antibot', nonce: 'y', password: 'z' })
        for (let n = 0; n < good.length; n += 7) c.send(good.subarray(0, n))
        c.send(new Uint8Array(4000))
        // A STUN header claiming attributes it does not have, with the cookie in place.
        c.send(Uint8Array.from([0, 3, 0, 8, 0x21, 0x12, 0xa4, 0x42, ...new Uint8Array(12), 0, 6, 0, 200]))
        // UDP drops datagrams under a burst like this one (either socket's buffer): let it drain,
        // and allow the usual retransmissions of a STUN client.
        await settle()
        let r: StunMessage | null = null
        for (let i = 0; i < 3 && !r; i++) r = await c.ask(binding(), 500)
        expect(r?.class).toBe('success')
        expect(lines.filter((l) => l.includes('dropped'))).toEqual([])
      } finally {
        c.close()
      }
    })
  })
}
