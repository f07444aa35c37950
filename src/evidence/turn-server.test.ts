import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { fixture } from './fixtures/load'
import { buildStun, longTermKey, parseStun, STUN_ATTRIBUTE as A, STUN_METHOD, textAttribute, u32Attribute, verifyMessageIntegrity, type StunMessage } from './stun'
import { authenticated, checkServerNonce, firstStep, serverNonce, type TurnServerOptions } from './turn-server'

const KEY = new Uint8Array(32).fill(9)
const NOW = new Date('2025-03-01T12:00:00.000Z')
const SOURCE = { address: '198.51.100.4', port: 40000 }
const o: TurnServerOptions = { key: KEY, realm: 'antibot', now: NOW, nonceTtlSeconds: 600, software: 'antibot' }
const later = (s: number) => new Date(NOW.getTime() + s * 1000)

function parse(bytes: Uint8Array): StunMessage {
  const r = parseStun(bytes)
  if (!r.ok) throw new Error(r.detail)
  return r.value
}

function allocate(cred: { username: string; nonce: string; password: string; realm?: string } | null, id = 1): Uint8Array {
  const attrs = [u32Attribute(A.requestedTransport, 17 << 24)]
  if (!cred) return buildStun({ method: STUN_METHOD.allocate, class: 'request', transactionId: new Uint8Array(12).fill(id), attributes: attrs, fingerprint: true })
  const realm = cred.realm ?? 'antibot'
  return buildStun({
    method: STUN_METHOD.allocate,
    class: 'request',
    transactionId: new Uint8Array(12).fill(id),
    attributes: [...attrs, textAttribute(A.username, cred.username), textAttribute(A.realm, realm), textAttribute(A.nonce, cred.nonce)],
    integrityKey: longTermKey(cred.username, realm, cred.password),
    fingerprint: true,
  })
}

describe('stateless server nonce', () => {
  test('valid for its source until it expires', () => {
    const n = serverNonce(KEY, SOURCE, NOW, 600)
    // 16 characters: a NONCE attribute of 20 bytes, so the 401 stays small (amplification).
    expect(n).toMatch(/^[A-Za-z0-9_-]{16}$/)
    expect(checkServerNonce(KEY, n, SOURCE, NOW)).toBe('valid')
    expect(checkServerNonce(KEY, n, SOURCE, later(599))).toBe('valid')
    expect(checkServerNonce(KEY, n, SOURCE, later(600))).toBe('expired')
  })

  test('foreign from another address or port, under another key, or altered; malformed when not our form', () => {
    const n = serverNonce(KEY, SOURCE, NOW, 600)
    expect(checkServerNonce(KEY, n, { ...SOURCE, port: 40001 }, NOW)).toBe('foreign')
    expect(checkServerNonce(KEY, n, { ...SOURCE, address: '198.51.100.5' }, NOW)).toBe('foreign')
    expect(checkServerNonce(new Uint8Array(32), n, SOURCE, NOW)).toBe('foreign')
    const bytes = Buffer.from(n, 'base64url')
    // A later expiry with the old MAC: the MAC covers the expiry.
    const later = Buffer.from(bytes)
    later.writeUInt32BE(bytes.readUInt32BE(0) + 3600, 0)
    expect(checkServerNonce(KEY, later.toString('base64url'), SOURCE, NOW)).toBe('foreign')
    const flipped = Buffer.from(bytes)
    flipped[11]! ^= 1
    expect(checkServerNonce(KEY, flipped.toString('base64url'), SOURCE, NOW)).toBe('foreign')
    for (const junk of ['', '.', 'abc', `${n}x`, n.slice(1), `${n.slice(0, 15)}+`, `${n.slice(0, 15)}=`, 'f//499k954d6OL34oL9FSTvy64sA']) expect(checkServerNonce(KEY, junk, SOURCE, NOW)).toBe('malformed')
  })

  test('never throws on arbitrary text', () => {
    fc.assert(fc.property(fc.string({ maxLength: 80 }), (s) => ['valid', 'expired', 'foreign', 'malformed'].includes(checkServerNonce(KEY, s, SOURCE, NOW))))
  })
})

describe('answers', () => {
  test('a Binding request gets its source address back, with FINGERPRINT when it had one', () => {
    const step = firstStep(fixture('stun-chromium-binding.hex'), SOURCE, o)
    expect(step).toMatchObject({ do: 'reply', binding: true })
    const r = parse((step as { reply: Uint8Array }).reply)
    expect([r.method, r.class, r.xorMappedAddress]).toEqual([STUN_METHOD.binding, 'success', { family: 'IPv4', ...SOURCE }])
  })

  test("Chromium's first Allocate gets a 401 with our realm and a nonce for its source", () => {
    const step = firstStep(fixture('turn-chromium-allocate.hex'), SOURCE, o)
    const r = parse((step as { reply: Uint8Array }).reply)
    expect(r.errorCode?.code).toBe(401)
    expect(r.realm).toBe('antibot')
    expect(checkServerNonce(KEY, r.nonce!, SOURCE, NOW)).toBe('valid')
  })

  test('an authenticated Allocate with the right password is verified and answered 403, integrity-protected', () => {
    const nonce = serverNonce(KEY, SOURCE, NOW, 600)
    const bytes = allocate({ username: 'pagenonce', nonce, password: 'turnsecret' }, 2)
    const step = firstStep(bytes, SOURCE, o)
    expect(step).toMatchObject({ do: 'authenticate', username: 'pagenonce' })
    if (step.do !== 'authenticate') throw new Error('unreachable')
    const a = authenticated(bytes, step.request, 'turnsecret', o)
    expect(a).toMatchObject({ verified: true, method: 'allocate', requestedTransport: 17 })
    const r = parse(a.reply)
    expect([r.class, r.errorCode?.code, r.fingerprint]).toEqual(['error', 403, 'valid'])
    expect(verifyMessageIntegrity(a.reply, r, longTermKey('pagenonce', 'antibot', 'turnsecret'))).toBe(true)
  })

  test('a wrong password or an unknown page nonce is challenged again, never verified', () => {
    const nonce = serverNonce(KEY, SOURCE, NOW, 600)
    const bytes = allocate({ username: 'pagenonce', nonce, password: 'guess' })
    const step = firstStep(bytes, SOURCE, o)
    if (step.do !== 'authenticate') throw new Error('expected authenticate')
    for (const secret of ['turnsecret', null]) {
      const a = authenticated(bytes, step.request, secret, o)
      expect(a.verified).toBe(false)
      expect(parse(a.reply).errorCode?.code).toBe(401)
    }
  })

  test('an expired server nonce, or one from another instance, gets 438 with a fresh one; a malformed nonce or another realm gets 401', () => {
    const old = serverNonce(KEY, SOURCE, NOW, 600)
    const stale = parse((firstStep(allocate({ username: 'u', nonce: old, password: 'p' }), SOURCE, { ...o, now: later(700) }) as { reply: Uint8Array }).reply)
    expect(stale.errorCode?.code).toBe(438)
    expect(checkServerNonce(KEY, stale.nonce!, SOURCE, later(700))).toBe('valid')
    const otherInstance = serverNonce(new Uint8Array(32).fill(1), SOURCE, NOW, 600)
    const moved = parse((firstStep(allocate({ username: 'u', nonce: otherInstance, password: 'p' }), SOURCE, o) as { reply: Uint8Array }).reply)
    expect([moved.errorCode?.code, checkServerNonce(KEY, moved.nonce!, SOURCE, NOW)]).toEqual([438, 'valid'])
    const malformed = firstStep(allocate({ username: 'u', nonce: 'a1b2c3d4.e5f60718', password: 'p' }), SOURCE, o) as { reply: Uint8Array }
    expect(parse(malformed.reply).errorCode?.code).toBe(401)
    const realm = firstStep(allocate({ username: 'u', nonce: old, password: 'p', realm: 'other' }), SOURCE, o) as { reply: Uint8Array }
    expect(parse(realm.reply).errorCode?.code).toBe(401)
  })

  test('a nonce issued to another source is not accepted, so a captured Allocate cannot be replayed from elsewhere', () => {
    const nonce = serverNonce(KEY, SOURCE, NOW, 600)
    const step = firstStep(allocate({ username: 'u', nonce, password: 'p' }), { ...SOURCE, port: 1 }, o)
    expect(step.do).toBe('reply')
    expect(parse((step as { reply: Uint8Array }).reply).errorCode?.code).toBe(438)
  })

  test('responses, indications, other methods and other protocols', () => {
    const id = new Uint8Array(12)
    expect(firstStep(buildStun({ method: STUN_METHOD.binding, class: 'success', transactionId: id }), SOURCE, o).do).toBe('ignore')
    expect(firstStep(buildStun({ method: STUN_METHOD.send, class: 'indication', transactionId: id }), SOURCE, o).do).toBe('ignore')
    expect(firstStep(Uint8Array.of(0x40, 0, 0, 4, 1, 2, 3, 4), SOURCE, o).do).toBe('ignore')
    // TURN methods that need an allocation (there never is one here) and unknown methods get no answer.
    for (const method of [STUN_METHOD.createPermission, STUN_METHOD.channelBind, STUN_METHOD.refresh, 0x00b, 0x0fff]) {
      expect(firstStep(buildStun({ method, class: 'request', transactionId: id }), SOURCE, o).do).toBe('ignore')
    }
    const noTransport = firstStep(buildStun({ method: STUN_METHOD.allocate, class: 'request', transactionId: id }), SOURCE, o) as { reply: Uint8Array }
    expect(parse(noTransport.reply).errorCode?.code).toBe(400)
    const unknown = firstStep(buildStun({ method: STUN_METHOD.binding, class: 'request', transactionId: id, attributes: [{ type: 0x7777, value: Uint8Array.of(1) }] }), SOURCE, o) as { reply: Uint8Array }
    expect(parse(unknown.reply).errorCode?.code).toBe(420)
  })

  test('random datagrams and random attributes never throw', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.boolean(), (body, framed) => {
        const padded = body.subarray(0, body.length - (body.length % 4))
        const bytes = framed ? Uint8Array.from([0x00, 0x03, padded.length >> 8, padded.length & 0xff, 0x21, 0x12, 0xa4, 0x42, ...new Uint8Array(12), ...padded]) : body
        const step = firstStep(bytes, SOURCE, o)
        if (step.do === 'authenticate') authenticated(bytes, step.request, 'secret', o)
      }),
      { numRuns: 1000 },
    )
  })
})
