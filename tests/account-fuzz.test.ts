// Property-based fuzz of the log-in and sign-up forms (fast-check), through app.handle on every
// test driver. Every field (email, password, the CSRF token's neighbours) gets random text,
// control characters, percent-escapes that are not UTF-8 (%FF, a truncated sequence, an
// encoded surrogate, an overlong NUL), raw bytes that are not UTF-8, lone surrogates, `&`, `=`
// and `+`, and strings from empty to past the 16 KiB form cap; fields are also left out or
// repeated. Properties: never a 5xx; only the documented statuses; a 422 names a field (or, at
// log-in, says the credentials are wrong); the status is the one an independent reading of the
// rules predicts; and the accounts table never holds a half-made account (one without an
// argon2id hash, or with an email that is not clean text), nor changes on a refusal.
//
// The seed is fixed; a failure prints it with the counterexample, and FUZZ_SEED / FUZZ_RUNS
// change it. The clock moves an hour a run, so the throttles never decide a run.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import fc from 'fast-check'
import { createAccountWithPassword } from '../db/accounts'
import { rows } from '../db/client'
import { hashPassword } from '../src/auth/password'
import { buildTestApp } from './support/app'
import { openTestDatabase, testDrivers, type TestDatabase } from './support/db'
import { checkProperty, fuzzSettings } from './support/fuzz'
import { WebClient } from './support/web-client'
import { uniqueEmail } from './support/unique'

// Opening (and dropping) a test database takes what it takes on a loaded machine: no clock of its
// own (0), so a busy machine never fails a suite before its first test (issue 57).
const HOOK_TIMEOUT_MS = 0
const FUZZ = fuzzSettings(20261122, 40)
const MAX_FORM_BYTES = 16 * 1024
const KNOWN_PASSWORD = 'correct horse battery'

// --- Building a urlencoded body byte by byte ---------------------------------------------

const utf8 = new TextEncoder()
const hex = (b: number) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`

/** Percent-encodes text, lone surrogates included (as their 3-byte form, which is not UTF-8). */
function percentEncode(text: string): string {
  let out = ''
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    const pair = c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00
    if (c >= 0xd800 && c <= 0xdfff && !pair) {
      out += [0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f)].map(hex).join('')
      continue
    }
    const ch = pair ? text.slice(i, i + 2) : text[i]!
    if (pair) i++
    out += /^[A-Za-z0-9*\-._]$/.test(ch) ? ch : [...utf8.encode(ch)].map(hex).join('')
  }
  return out
}

/** One piece of a field as it appears in the body: bytes, most of them ASCII. */
type Piece = Uint8Array
const ascii = (s: string): Piece => utf8.encode(s)

const CONTROLS = ['\u0000', '\u0000', '\u0000', '\u0001', '\t', '\n', '\r', '\u001b', '\u001f', '\u007f', '\u0080', '\u0085', '\u009f', '\u2028', '\u2029']
const NOT_UTF8_ESCAPES = ['%FF', '%FE', '%80', '%C3', '%E2%82', '%ED%A0%80', '%ED%BF%BF', '%C0%80', '%C1%BF', '%F4%90%80%80', '%F8%88%80%80%80']

const piece: fc.Arbitrary<Piece> = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 12 }).map((s) => ascii(percentEncode(s))) },
  { weight: 3, arbitrary: fc.string({ maxLength: 12, unit: 'binary' }).map((s) => ascii(percentEncode(s))) },
  { weight: 2, arbitrary: fc.constantFrom(...CONTROLS).map((c) => ascii(percentEncode(c))) },
  { weight: 2, arbitrary: fc.constantFrom(...NOT_UTF8_ESCAPES).map(ascii) },
  // A lone surrogate in the text the browser would have sent.
  { weight: 1, arbitrary: fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => ascii(percentEncode(String.fromCharCode(c)))) },
  // Raw bytes that are not UTF-8, unescaped: the body as a whole is not text.
  { weight: 1, arbitrary: fc.uint8Array({ minLength: 1, maxLength: 3 }).map((b) => b.map((x) => x | 0x80)) },
  // The separators themselves, unescaped: they split or join fields.
  { weight: 1, arbitrary: fc.constantFrom('&', '=', '+', '&email=', '&password=', '%', '%2', '%ZZ').map(ascii) },
  // Long runs: up to well past the form's byte cap.
  {
    weight: 1,
    arbitrary: fc.record({ n: fc.integer({ min: 200, max: 20_000 }), ch: fc.constantFrom('a', 'é', '😀', '\u0000', ' ') }).map(({ n, ch }) => ascii(percentEncode(ch).repeat(n))),
  },
)

const concat = (parts: readonly Uint8Array[]): Uint8Array<ArrayBuffer> => {
  const out = new Uint8Array(parts.reduce((k, p) => k + p.length, 0))
  let at = 0
  for (const p of parts) {
    out.set(p, at)
    at += p.length
  }
  return out
}

/** A field's encoded value: pieces, a plausible value with pieces spliced in, or a plausible value. */
const value = (plausible: fc.Arbitrary<string>): fc.Arbitrary<Uint8Array> =>
  fc.oneof(
    { weight: 2, arbitrary: fc.array(piece, { maxLength: 5 }).map(concat) },
    {
      weight: 2,
      arbitrary: fc.record({ base: plausible, at: fc.nat(), inserts: fc.array(piece, { minLength: 1, maxLength: 3 }) }).map(({ base, at, inserts }) => {
        const encoded = ascii(percentEncode(base))
        // Splice at a character boundary of the encoded text (never inside a %XX escape).
        const cut = percentEncode(base.slice(0, at % (base.length + 1))).length
        return concat([encoded.slice(0, cut), ...inserts, encoded.slice(cut)])
      }),
    },
    { weight: 3, arbitrary: plausible.map((s) => ascii(percentEncode(s))) },
  )

const plausibleEmail = fc.oneof(
  fc.emailAddress(),
  // Any Unicode before the @ (spaces and a second @ included, which the rules refuse).
  fc.tuple(fc.string({ minLength: 1, maxLength: 20, unit: 'grapheme' }), fc.domain()).map(([local, domain]) => `${local}@${domain}`),
  fc.constantFrom('a@b', 'x@y.z', ' Mixed@Case.Example ', 'İstanbul@example.test', 'no-at-sign', '@', 'a@@b', 'a@b '),
)
const plausiblePassword = fc.oneof(
  fc.string({ minLength: 8, maxLength: 30 }),
  fc.string({ minLength: 8, maxLength: 30, unit: 'grapheme' }),
  fc.string({ maxLength: 7 }),
  fc.string({ minLength: 250, maxLength: 260 }),
)

/** How a field appears: absent, once, or twice (the first counts). */
const field = (name: string, v: fc.Arbitrary<Uint8Array>) =>
  fc.oneof(
    { weight: 1, arbitrary: fc.constant([] as Uint8Array[]) },
    { weight: 6, arbitrary: v.map((x) => [concat([ascii(`${name}=`), x])]) },
    { weight: 1, arbitrary: fc.tuple(v, v).map(([a, b]) => [concat([ascii(`${name}=`), a]), concat([ascii(`${name}=`), b])]) },
  )

const form = fc.record({
  email: field('email', value(plausibleEmail)),
  password: field('password', value(plausiblePassword)),
  extra: fc.oneof(fc.constant([] as Uint8Array[]), field('x', value(fc.string({ maxLength: 10 })))),
  /** Where the CSRF token goes among the fields. */
  tokenAt: fc.nat({ max: 5 }),
  /** Use the known account's credentials instead (a log-in that should succeed), one run in six. */
  known: fc.oneof({ weight: 5, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
})
type Form = typeof form extends fc.Arbitrary<infer T> ? T : never

function body(f: Form, token: string, known: { email: string; password: string }): Uint8Array<ArrayBuffer> {
  const fields = f.known
    ? [ascii(`email=${percentEncode(known.email.toUpperCase())}`), ascii(`password=${percentEncode(known.password)}`)]
    : [...f.email, ...f.password, ...f.extra]
  const all = [...fields]
  all.splice(f.tokenAt % (all.length + 1), 0, ascii(`_csrf=${token}`))
  return all.reduce<Uint8Array<ArrayBuffer>>((acc, p, i) => concat(i === 0 ? [p] : [acc, ascii('&'), p]), new Uint8Array())
}

// --- An independent reading of the rules -------------------------------------------------

// biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to find control characters.
const UNREADABLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\ufffd]/
const cleanText = (s: string) => !UNREADABLE.test(s) && s.isWellFormed()
const emailOk = (e: string) => e !== '' && e.length <= 254 && /^[^@\s]+@[^@\s]+$/.test(e) && cleanText(e)

type Expected = { status: number; fields: URLSearchParams | null; invalid: Array<'email' | 'password'> }

function expected(kind: 'login' | 'signup', bytes: Uint8Array, known: { email: string; password: string }): Expected {
  if (bytes.length > MAX_FORM_BYTES) return { status: 413, fields: null, invalid: [] }
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    return { status: 400, fields: null, invalid: [] }
  }
  const fields = new URLSearchParams(text)
  const email = (fields.get('email') ?? '').trim().toLowerCase()
  const password = fields.get('password') ?? ''
  const invalid: Array<'email' | 'password'> = emailOk(email) ? [] : ['email']
  // Sign-up sets the rules for new passwords; log-in takes any password an account could have.
  const passwordOk = kind === 'signup' ? password.length >= 8 && password.length <= 256 && cleanText(password) : password !== '' && password.length <= 256
  if (!passwordOk) invalid.push('password')
  if (invalid.length) return { status: 422, fields, invalid }
  if (kind === 'signup') return { status: 200, fields, invalid }
  return { status: email === known.email && password === known.password ? 303 : 422, fields, invalid }
}

// --- The properties ------------------------------------------------------------------------

describe.each(testDrivers())('fuzz of the log-in and sign-up forms on %s', (driver) => {
  let tdb: TestDatabase
  let built: Awaited<ReturnType<typeof buildTestApp>>
  const known = { email: uniqueEmail('known'), password: KNOWN_PASSWORD }
  let knownHash = ''

  beforeAll(async () => {
    tdb = await openTestDatabase(driver)
    built = await buildTestApp(tdb.db)
    knownHash = await hashPassword(known.password)
    await createAccountWithPassword(tdb.db, { email: known.email, passwordHash: knownHash })
  }, HOOK_TIMEOUT_MS)
  afterAll(async () => {
    await tdb?.destroy()
  }, HOOK_TIMEOUT_MS)

  const accounts = () => rows<{ email: string; password_hash: string | null }>(tdb.db, sql`select email, password_hash from accounts order by email`)

  async function send(kind: 'login' | 'signup', f: Form) {
    // A fresh hour: the throttles' windows have all ended, so they never decide a run.
    built.clock.set(new Date(built.clock().getTime() + 3600_000))
    const c = new WebClient(built.app)
    await c.get(`/${kind}`)
    const bytes = body(f, c.csrf!, known)
    const cookie = [...c.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
    const res = await built.app.handle(
      new Request(`http://localhost/${kind}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://localhost', cookie },
        body: bytes,
      }),
    )
    return { res, html: await res.text(), want: expected(kind, bytes, known) }
  }

  function check(name: string, kind: 'login' | 'signup') {
    return checkProperty(
      name,
      form,
      async (f) => {
        const before = await accounts()
        const { res, html, want } = await send(kind, f)
        expect(res.status).toBeLessThan(500)
        expect(res.status).toBe(want.status)
        if (res.status === 422) {
          // Each field the rules refuse is named next to its input, and only those; a log-in
          // with well-formed fields that do not match says just that.
          const named = [...html.matchAll(/id="(email|password)-error"/g)].map((m) => m[1])
          expect(named).toEqual(want.invalid)
          if (want.invalid.length === 0) expect(html).toContain('Cannot log in: the email or password is not correct.')
        }
        const after = await accounts()
        for (const a of after) {
          expect(a.password_hash).toStartWith('$argon2id$')
          expect(emailOk(a.email)).toBe(true)
        }
        expect(after.find((a) => a.email === known.email)?.password_hash).toBe(knownHash)
        if (kind === 'login' || res.status !== 200) {
          expect(after).toEqual(before)
        } else {
          const email = (want.fields!.get('email') ?? '').trim().toLowerCase()
          expect(after.length - before.length).toBeLessThanOrEqual(1)
          expect(after.some((a) => a.email === email)).toBe(true)
          expect(after.filter((a) => !before.some((b) => b.email === a.email)).every((a) => a.email === email)).toBe(true)
        }
      },
      FUZZ,
    )
  }

  test('POST /login: never a 5xx, the predicted status, a named field on 422, nothing stored', () => check('login', 'login'), 120_000)
  test('POST /signup: never a 5xx, the predicted status, a named field on 422, never a half-made account', () => check('signup', 'signup'), 120_000)
})
