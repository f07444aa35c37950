// Evidence per page nonce is bounded (issue 13): the listeners answer anyone, so one nonce
// could otherwise collect as much as a client sends, all of it copied into the task. Here each
// listener is flooded for one page nonce — 20 TLS connections with ~12 KB of headers each
// (HTTP/1.1 and HTTP/2), 300 DNS queries for the nonce's names, 20 TURN allocations with the
// page's credentials and their Bindings — then the page's task is submitted with an 81-byte
// body, and the stored task must keep to the caps (src/evidence/caps.ts), count the rest
// exactly, and stay under the documented size. Also: the caps hold when many observations of
// one nonce race, on one connection pool or on two (two instances on one PostgreSQL).

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { connect } from 'node:net'
import { connect as tlsConnect } from 'node:tls'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import { openPostgres, rows } from '../../db/client'
import { fileEvidence, issueNonce, readNonce, type FileOutcome } from '../../db/nonces'
import { EVIDENCE_CAPS, EVIDENCE_KINDS, jsonBytes, MAX_EVIDENCE_BYTES, MAX_TASK_RESULTS_BYTES, type EvidenceKind } from '../../src/evidence/caps'
import { buildDnsMessage, DNS_TYPE } from '../../src/evidence/dns'
import { buildStun, longTermKey, parseStun, STUN_ATTRIBUTE as A, STUN_METHOD, textAttribute, u32Attribute, type StunMessage } from '../../src/evidence/stun'
import { startDnsListener, type DnsListener } from '../../src/listeners/dns'
import { startStunListener } from '../../src/listeners/stun'
import { startTlsListener } from '../../src/listeners/tls'
import { buildTestApp, makeKey } from '../support/app'
import { openTestDatabase, testDrivers, type TestDatabase } from '../support/db'

const ZONE = 'caps.antibot.test'
const TLS_CONNECTIONS = { http1: 10, http2: 10 }
const DNS_QUERIES = 300
const TURN_SOCKETS = 20

/**
 * ~12 KB of request headers: 100 of 100-character values, as much as the listener accepts (an
 * HTTP/2 header list counts 32 bytes a field besides names and values: 14.6 of its 16 KiB).
 */
const BIG_HEADERS = Array.from({ length: 100 }, (_, i) => [`X-Flood-${String(i).padStart(3, '0')}`, 'v'.repeat(100)] as const)

function run(cmd: string, args: string[]): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => execFile(cmd, args, { timeout: 30_000 }, (err, stdout) => resolve({ code: err ? 1 : 0, stdout })))
}

/** One HTTP/1.1 request over TLS with the big headers; resolves with the response's status line. */
function http1Flood(port: number, nonce: string): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    const head = [`GET /evidence/${nonce} HTTP/1.1`, 'Host: 127.0.0.1', ...BIG_HEADERS.map(([k, v]) => `${k}: ${v}`), '', ''].join('\r\n')
    const s = tlsConnect({ port, host: '127.0.0.1', rejectUnauthorized: false, ALPNProtocols: ['http/1.1'] }, () => s.write(head))
    s.on('data', (d: Buffer) => chunks.push(d))
    s.on('error', () => {})
    s.on('close', () => resolve(Buffer.concat(chunks).toString('latin1').split('\r\n')[0] ?? ''))
  })
}

/** One HTTP/2 request by curl with the big headers; resolves with the status code. */
async function http2Flood(port: number, nonce: string): Promise<string> {
  const headers = BIG_HEADERS.flatMap(([k, v]) => ['-H', `${k}: ${v}`])
  return (await run('curl', ['-sk', '--http2', '-m', '20', '-o', '/dev/null', '-w', '%{http_code}', ...headers, `https://127.0.0.1:${port}/evidence/${nonce}`])).stdout
}

/** Sends `queries` over one TCP connection at once and resolves when every answer is in. */
function dnsOverTcp(port: number, queries: Uint8Array[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1')
    let buf = Buffer.alloc(0)
    let answers = 0
    s.on('data', (d: Buffer) => {
      buf = Buffer.concat([buf, d])
      while (buf.length >= 2 && buf.length >= 2 + buf.readUInt16BE(0)) {
        buf = buf.subarray(2 + buf.readUInt16BE(0))
        if (++answers === queries.length) {
          s.end()
          resolve(answers)
        }
      }
    })
    s.on('error', reject)
    s.write(Buffer.concat(queries.map((q) => Buffer.concat([Buffer.from([q.length >> 8, q.length & 0xff]), q]))))
  })
}

/** A UDP STUN client: `ask` sends and waits for the answer with the same transaction ID, resending up to 3 times. */
async function stunClient(serverPort: number) {
  const waiting = new Map<string, (m: StunMessage) => void>()
  const socket = await Bun.udpSocket({
    hostname: '127.0.0.1',
    socket: {
      data(_s, buf) {
        const r = parseStun(new Uint8Array(buf))
        if (r.ok) waiting.get(r.value.transactionId)?.(r.value)
      },
    },
  })
  const askOnce = (bytes: Uint8Array, ms: number) =>
    new Promise<StunMessage | null>((ok) => {
      const id = Buffer.from(bytes.subarray(8, 20)).toString('hex')
      const timer = setTimeout(() => ok(null), ms)
      waiting.set(id, (m) => {
        clearTimeout(timer)
        ok(m)
      })
      socket.send(bytes, serverPort, '127.0.0.1')
    })
  return {
    async ask(bytes: Uint8Array): Promise<StunMessage | null> {
      // A retransmission is harmless: the listener files each (kind, nonce, source) once. Each
      // wait is longer than the last, as a STUN client's retransmission timer (RFC 8489 §6.2.1):
      // a verified Allocate waits on the database, which a busy machine answers late (all 20 at
      // once went unanswered within 3 × 1.5 s beside stress-ng and a second test run).
      for (const ms of [1500, 3000, 6000, 12_000]) {
        const m = await askOnce(bytes, ms)
        if (m) return m
      }
      return null
    },
    close: () => socket.close(),
  }
}

const tid = () => crypto.getRandomValues(new Uint8Array(12))

async function turnAndBinding(port: number, nonce: string, secret: string): Promise<[number | undefined, string | undefined]> {
  const c = await stunClient(port)
  try {
    const transport = [u32Attribute(A.requestedTransport, 17 << 24)]
    const challenge = await c.ask(buildStun({ method: STUN_METHOD.allocate, class: 'request', transactionId: tid(), attributes: transport }))
    const realm = challenge?.realm ?? ''
    const auth = await c.ask(
      buildStun({
        method: STUN_METHOD.allocate,
        class: 'request',
        transactionId: tid(),
        attributes: [...transport, textAttribute(A.username, nonce), textAttribute(A.realm, realm), textAttribute(A.nonce, challenge?.nonce ?? '')],
        integrityKey: longTermKey(nonce, realm, secret),
        fingerprint: true,
      }),
    )
    const binding = await c.ask(buildStun({ method: STUN_METHOD.binding, class: 'request', transactionId: tid() }))
    return [auth?.errorCode?.code, binding?.class]
  } finally {
    c.close()
  }
}

/** Stored (per kind) and counted-as-dropped (per kind) for a nonce, straight from the tables. */
async function tally(db: TestDatabase, nonce: string): Promise<{ stored: Record<string, number>; dropped: Record<string, number> }> {
  const stored = await rows<{ kind: string; n: number }>(db.db, sql`select kind, count(*)::int as n from evidence where nonce = ${nonce} group by kind`)
  const [row] = await rows<{ dropped: string }>(db.db, sql`select evidence_dropped::text as dropped from page_nonces where nonce = ${nonce}`)
  return { stored: Object.fromEntries(stored.map((r) => [r.kind, r.n])), dropped: JSON.parse(row?.dropped ?? '{}') }
}

/** Waits until `total` observations of each kind are accounted for (the listeners file after answering). */
async function settled(db: TestDatabase, nonce: string, totals: Partial<Record<EvidenceKind, number>>) {
  for (let i = 0; i < 200; i++) {
    const t = await tally(db, nonce)
    if (Object.entries(totals).every(([k, n]) => (t.stored[k] ?? 0) + (t.dropped[k] ?? 0) >= n!)) return t
    await new Promise((r) => setTimeout(r, 100))
  }
  return tally(db, nonce)
}

/** Records of each kind in their real shape, with every list and string far longer than the caps allow. */
function largestRecords(): Record<EvidenceKind, (i: number) => unknown> {
  const long = (c: string, n: number) => c.repeat(n)
  const nums = (n: number) => Array.from({ length: n }, (_, i) => 0x1301 + i)
  const rtt = { tcp_rtt_ms: 123.456, h2_ping_rtt_ms: 234.567, ping_samples: [234.567, 345.678, 456.789], transport: 'h2' }
  return {
    tls: (i) => ({
      version: '13', legacyVersion: 771, ja3: long('1', 3000), ja3_hash: long('a', 32), ja3n: long('2', 3000), ja3n_hash: long('b', 32),
      ja4: `t13d9999h2_${long('c', 12)}_${long('d', 12)}`, ja4_r: long('3', 3000), ja4_o: long('4', 3000),
      ciphers: nums(1000), extensions: nums(1000), groups: nums(1000), point_formats: nums(200), signature_algorithms: nums(1000), versions: nums(100), key_shares: nums(100),
      alpn: Array.from({ length: 100 }, () => long('h', 255)), sni: `${i}${long('s', 253)}`, grease: true, compress_certificate: nums(100), alps: 17613, record_size_limit: 16385,
      malformed_extensions: nums(1000), negotiated: { protocol: 'TLSv1.3', alpn: 'h2', cipher: 'TLS_AES_256_GCM_SHA384' },
    }),
    http2: (i) => ({
      akamai: long('1', 3000), akamai_hash: long('e', 32), settings: Array.from({ length: 500 }, (_, k) => [k, 4294967295]), window_update: 2147483647,
      priority: Array.from({ length: 500 }, (_, k) => ({ stream: k, exclusive: true, dependsOn: k, weight: 256 })), headers_priority: { exclusive: true, dependsOn: 0, weight: 256 },
      pseudo_header_order: [':method', ':authority', ':scheme', ':path'], header_order: Array.from({ length: 500 }, (_, k) => `x-${k}-${long('n', 100)}`),
      path: `/evidence/${i}${long('p', 5000)}`, user_agent: long('Mozilla ', 1000), rtt,
    }),
    http1: (i) => ({ version: 'HTTP/1.1', method: 'GET', path: `/evidence/${i}${long('p', 5000)}`, headers: Array.from({ length: 500 }, (_, k) => [`X-${k}-${long('N', 100)}`, long('v', 8000)]), bare_line_feeds: false, rtt: { ...rtt, transport: 'http/1.1' } }),
    dns: (i) => ({
      name: `${long('a', 26)}-${i}.${Array.from({ length: 3 }, () => long('Z', 63)).join('.')}`, label: i, qtype: 'TYPE65535', resolver: 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', resolverPort: 65535,
      transport: 'udp', mixedCase: true, rd: true, edns: { udpPayloadSize: 65535, version: 0, dnssecOk: true, options: nums(1000), cookie: true }, ecs: 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ff00/120', receivedAt: '2026-11-15T12:00:00.000Z',
    }),
    stun: (i) => ({ address: 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', port: 60000 + i, family: 'IPv6', transport: 'udp' }),
    turn: (i) => ({ address: 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', port: 60000 + i, family: 'IPv6', transport: 'udp', requestedTransport: 17, realm: 'antibot', software: long('S', 763) }),
  }
}

for (const driver of testDrivers()) {
  describe(`evidence caps (${driver})`, () => {
    let db: TestDatabase
    let app: Awaited<ReturnType<typeof buildTestApp>>['app']
    let clock: Awaited<ReturnType<typeof buildTestApp>>['clock']
    let key: string
    let tls: Awaited<ReturnType<typeof startTlsListener>>
    let dns: DnsListener
    let stun: { port: number; stop(): Promise<void> }
    let dataDir: string
    // The app listens, so that the page and the submission have a client address (127.0.0.1,
    // as the listeners' records): a task is judged on its own address's records only.
    let base: string

    beforeAll(async () => {
      db = await openTestDatabase(driver)
      ;({ app, clock } = await buildTestApp(db.db))
      app.listen({ port: 0, hostname: '127.0.0.1' })
      base = `http://127.0.0.1:${app.server!.port}`
      key = (await makeKey(db.db)).key
      dataDir = mkdtempSync(join(tmpdir(), 'evidence-caps-'))
      const deps = { db: db.db, clock }
      // All 20 connections come from one address at once: more than a network may have in
      // handshake by default (connection-budget.ts), which is not what this test is about.
      tls = await startTlsListener(deps, { port: 0, host: '127.0.0.1', dataDir, connections: { perNetwork: 64, handshakesPerNetwork: 64, perRange: 2048, total: 2048 } })
      dns = await startDnsListener(deps, { port: 0, hostname: '127.0.0.1', zone: ZONE, answerIpv4: null, answerIpv6: null })
      stun = await startStunListener(deps, { port: 0, hostname: '127.0.0.1' })
    }, 60_000)
    afterAll(async () => {
      await app?.stop()
      await tls?.stop()
      await dns?.stop()
      await stun?.stop()
      await db?.destroy()
      if (dataDir) rmSync(dataDir, { recursive: true, force: true })
    })

    const page = async (tool: string) => {
      const html = await (await fetch(`${base}/tools/${tool}`)).text()
      return { nonce: /data-nonce="([a-z2-7]{26})"/.exec(html)![1]!, secret: /data-turn-secret="([0-9A-Za-z]+)"/.exec(html)![1]! }
    }

    // One nonce per tool whose judges read the listeners' evidence: each floods every listener.
    for (const tool of ['dns-leak', 'http-headers', 'webrtc-leak', 'tls-fingerprint', 'vpn-detector']) {
      test(`${tool}: every listener flooded for one nonce; the task keeps to the caps, counts the rest, and stays under ${MAX_TASK_RESULTS_BYTES} bytes`, async () => {
        const { nonce, secret } = await page(tool)
        // TLS: all connections at once, so that their observations race for the caps.
        const [h1, h2] = await Promise.all([
          Promise.all(Array.from({ length: TLS_CONNECTIONS.http1 }, () => http1Flood(tls.port, nonce))),
          Promise.all(Array.from({ length: TLS_CONNECTIONS.http2 }, () => http2Flood(tls.port, nonce))),
        ])
        // Every connection was answered as for a live nonce (counted when not kept).
        expect(h1).toEqual(Array(TLS_CONNECTIONS.http1).fill('HTTP/1.1 200 OK'))
        expect(h2).toEqual(Array(TLS_CONNECTIONS.http2).fill('200'))
        // DNS: 300 queries for <nonce>-<n>, over five TCP connections at once.
        const queries = Array.from({ length: DNS_QUERIES }, (_, n) =>
          buildDnsMessage({ id: n, flags: {}, questions: [{ name: `${nonce}-${n}.${ZONE}`, type: n % 2 ? DNS_TYPE.AAAA : DNS_TYPE.A, class: 1 }], edns: { udpPayloadSize: 1232 } }),
        )
        const answered = await Promise.all(Array.from({ length: 5 }, (_, i) => dnsOverTcp(dns.port, queries.slice(i * 60, i * 60 + 60))))
        expect(answered.reduce((a, b) => a + b, 0)).toBe(DNS_QUERIES)
        // STUN/TURN: 20 sockets, each with a verified Allocate (403) and a Binding.
        const exchanges = await Promise.all(Array.from({ length: TURN_SOCKETS }, () => turnAndBinding(stun.port, nonce, secret)))
        expect(exchanges).toEqual(Array(TURN_SOCKETS).fill([403, 'success']))

        const sent: Record<EvidenceKind, number> = {
          tls: TLS_CONNECTIONS.http1 + TLS_CONNECTIONS.http2,
          http1: TLS_CONNECTIONS.http1,
          http2: TLS_CONNECTIONS.http2,
          dns: DNS_QUERIES,
          turn: TURN_SOCKETS,
          stun: TURN_SOCKETS,
        }
        const t = await settled(db, nonce, sent)
        const expectedStored = Object.fromEntries(EVIDENCE_KINDS.map((k) => [k, Math.min(sent[k], EVIDENCE_CAPS[k].items)]))
        const expectedDropped = Object.fromEntries(EVIDENCE_KINDS.filter((k) => sent[k] > EVIDENCE_CAPS[k].items).map((k) => [k, sent[k] - EVIDENCE_CAPS[k].items]))
        expect(t.stored).toEqual(expectedStored)
        expect(t.dropped).toEqual(expectedDropped)

        // The page submits: 81 bytes, as in the report.
        const body = JSON.stringify({ tool, results: {}, nonce })
        const created = await fetch(`${base}/api/antibot/tasks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
        expect(created.status).toBe(201)
        const id = ((await created.json()) as { task_id: string }).task_id
        const res = await fetch(`${base}/api/antibot/tasks/${id}`, { headers: { authorization: `Bearer ${key}` } })
        expect(res.status).toBe(200)
        const task = (await res.json()) as { results: { server: { evidence: Array<{ kind: EvidenceKind; data: Record<string, unknown> }>; evidence_dropped?: Record<string, number> } } }
        const evidence = task.results.server.evidence
        const perKind = Object.fromEntries(EVIDENCE_KINDS.map((k) => [k, evidence.filter((e) => e.kind === k).length]))
        expect(perKind).toEqual(expectedStored)
        expect(task.results.server.evidence_dropped).toEqual(expectedDropped)
        for (const e of evidence) expect(jsonBytes(e.data)).toBeLessThanOrEqual(EVIDENCE_CAPS[e.kind].itemBytes)
        // The HTTP/1 records held ~12 KB of headers each: cut down, and marked.
        for (const e of evidence.filter((e) => e.kind === 'http1' || e.kind === 'http2')) expect(e.data.truncated).toBe(true)
        const evidenceBytes = jsonBytes(evidence)
        const resultsBytes = jsonBytes(task.results)
        console.log(`${driver} ${tool}: results ${resultsBytes} bytes (evidence ${evidenceBytes}, ${evidence.length} items; dropped ${JSON.stringify(task.results.server.evidence_dropped)})`)
        expect(evidenceBytes).toBeLessThanOrEqual(MAX_EVIDENCE_BYTES)
        expect(resultsBytes).toBeLessThanOrEqual(MAX_TASK_RESULTS_BYTES)
        expect(Buffer.byteLength(body)).toBeLessThanOrEqual(81)
      }, 120_000)
    }

    // The listeners' records at their largest: every field as long as a client can make it, so
    // that each stored item is cut to its kind's size, and every kind over its cap.
    const worst = largestRecords()
    for (const tool of ['dns-leak', 'http-headers', 'webrtc-leak', 'tls-fingerprint', 'vpn-detector', 'ip-leak']) {
      test(`${tool}: the largest records of every kind, beyond every cap: the task stays under ${MAX_TASK_RESULTS_BYTES} bytes`, async () => {
        const { nonce } = await page(tool)
        for (const kind of EVIDENCE_KINDS) {
          for (let i = 0; i < EVIDENCE_CAPS[kind].items + 3; i++) expect(await fileEvidence(db.db, { nonce, kind, data: worst[kind](i), now: clock(), clientIp: '127.0.0.1' })).toBe(i < EVIDENCE_CAPS[kind].items ? 'filed' : 'dropped')
        }
        const created = await fetch(`${base}/api/antibot/tasks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ tool, results: {}, nonce }) })
        expect(created.status).toBe(201)
        const id = ((await created.json()) as { task_id: string }).task_id
        const task = (await (await fetch(`${base}/api/antibot/tasks/${id}`, { headers: { authorization: `Bearer ${key}` } })).json()) as { results: { server: { evidence: unknown[]; evidence_dropped: Record<string, number> } } }
        expect(task.results.server.evidence).toHaveLength(EVIDENCE_KINDS.reduce((n, k) => n + EVIDENCE_CAPS[k].items, 0))
        expect(task.results.server.evidence_dropped).toEqual(Object.fromEntries(EVIDENCE_KINDS.map((k) => [k, 3])))
        const evidenceBytes = jsonBytes(task.results.server.evidence)
        const resultsBytes = jsonBytes(task.results)
        console.log(`${driver} ${tool}, largest records: results ${resultsBytes} bytes (evidence ${evidenceBytes})`)
        expect(evidenceBytes).toBeLessThanOrEqual(MAX_EVIDENCE_BYTES)
        expect(resultsBytes).toBeLessThanOrEqual(MAX_TASK_RESULTS_BYTES)
      }, 60_000)
    }

    test('observations of one nonce racing on one connection pool: exactly the cap is stored, the rest counted', async () => {
      const nonce = 'racingracingracingracingaa'
      await issueNonce(db.db, { nonce, tool: 'dns-leak', turnSecret: 'x', now: clock(), ttlSeconds: 600 })
      const outcomes = await Promise.all(Array.from({ length: 100 }, (_, i) => fileEvidence(db.db, { nonce, kind: 'dns', data: { name: `n${i}` }, now: clock() })))
      const count = (o: FileOutcome) => outcomes.filter((x) => x === o).length
      expect([count('filed'), count('dropped'), count('no-nonce')]).toEqual([EVIDENCE_CAPS.dns.items, 100 - EVIDENCE_CAPS.dns.items, 0])
      expect(await tally(db, nonce)).toEqual({ stored: { dns: EVIDENCE_CAPS.dns.items }, dropped: { dns: 100 - EVIDENCE_CAPS.dns.items } })
      const read = await readNonce(db.db, { nonce, tool: 'dns-leak', now: clock(), client: '127.0.0.1' })
      expect([read.evidence.length, read.dropped]).toEqual([EVIDENCE_CAPS.dns.items, { dns: 100 - EVIDENCE_CAPS.dns.items }])
    })

    if (driver === 'postgres') {
      test('two instances (two connection pools) on one PostgreSQL: the cap still holds', async () => {
        const other = openPostgres(db.url!, { max: 10 })
        try {
          const nonce = 'twoinstancestwoinstancesaa'
          await issueNonce(db.db, { nonce, tool: 'webrtc-leak', turnSecret: 'x', now: clock(), ttlSeconds: 600 })
          const outcomes = await Promise.all(Array.from({ length: 60 }, (_, i) => fileEvidence(i % 2 ? other.db : db.db, { nonce, kind: 'turn', data: { port: i }, now: clock() })))
          expect(outcomes.filter((o) => o === 'filed')).toHaveLength(EVIDENCE_CAPS.turn.items)
          expect(await tally(db, nonce)).toEqual({ stored: { turn: EVIDENCE_CAPS.turn.items }, dropped: { turn: 60 - EVIDENCE_CAPS.turn.items } })
        } finally {
          await other.close()
        }
      })
    }

    test('an item too large even cut down is counted, not stored; a used or unknown nonce counts nothing', async () => {
      const nonce = 'oversizeoversizeoversizeaa'
      await issueNonce(db.db, { nonce, tool: 'tls-fingerprint', turnSecret: 'x', now: clock(), ttlSeconds: 600 })
      // Deeper than any record, wider than any limit: every level is cut, and it still does not fit.
      const huge = { a: Array.from({ length: 64 }, () => ({ b: 'x'.repeat(600), c: Array.from({ length: 64 }, () => 'y'.repeat(600)) })) }
      expect(await fileEvidence(db.db, { nonce, kind: 'stun', data: { ...huge, d: Array.from({ length: 64 }, (_, i) => `k${i}`.repeat(40)) }, now: clock() })).toBe('dropped')
      const big = await fileEvidence(db.db, { nonce, kind: 'tls', data: { ja3: 'z'.repeat(100_000), ciphers: Array.from({ length: 5000 }, (_, i) => i) }, now: clock(), clientIp: '127.0.0.1' })
      expect(big).toBe('filed')
      const read = await readNonce(db.db, { nonce, tool: 'tls-fingerprint', now: clock(), client: '127.0.0.1' })
      expect(read.dropped).toEqual({ stun: 1 })
      expect(read.evidence[0]!.data).toMatchObject({ truncated: true })
      expect(jsonBytes(read.evidence[0]!.data)).toBeLessThanOrEqual(EVIDENCE_CAPS.tls.itemBytes)
      expect(await fileEvidence(db.db, { nonce: 'unknownunknownunknownunkna', kind: 'dns', data: {}, now: clock() })).toBe('no-nonce')
      const [row] = await rows<{ n: number }>(db.db, sql`select count(*)::int as n from page_nonces where evidence_dropped <> '{}'::jsonb and nonce = 'unknownunknownunknownunkna'`)
      expect(row?.n).toBe(0)
    })
  })
}
