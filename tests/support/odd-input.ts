// Odd values for the property tests of the dashboard's forms and the operator API
// (tests/input-fuzz.test.ts), with fast-check: text carrying control characters, line breaks
// or unpaired surrogates, far and impossible dates (each with the instant an independent
// oracle expects, or null), long strings, and JSON values of every type. The oracles here
// share no code with src/ on purpose: they say what the service should decide.

import fc from 'fast-check'

/** C0 and C1 controls, DEL, U+2028 and U+2029: never accepted in a name, an email or a plan. */
export const CONTROL_CHARS = [
  ...Array.from({ length: 0x20 }, (_, i) => String.fromCharCode(i)),
  ...Array.from({ length: 0x21 }, (_, i) => String.fromCharCode(0x7f + i)),
  '\u2028',
  '\u2029',
]

export const hasControl = (s: string) => [...s].some((c) => CONTROL_CHARS.includes(c))
/** What PostgreSQL's text cannot hold or what no form field should: controls, U+0000, lone surrogates. */
export const isCleanText = (s: string) => !hasControl(s) && s.isWellFormed()

const loneSurrogate = fc.constantFrom('\ud800', '\udbff', '\udc00', '\udfff')

/** `base` with one control character or lone surrogate put in at some position. */
export const tainted = (base: fc.Arbitrary<string>) =>
  fc.tuple(base, fc.oneof(fc.constantFrom(...CONTROL_CHARS), loneSurrogate), fc.nat()).map(([s, bad, at]) => {
    const i = s.length ? at % (s.length + 1) : 0
    return s.slice(0, i) + bad + s.slice(i)
  })

/** Long strings: around the limits (100 for names, 254 for emails, 64 for plans) and far past the 16 KiB bodies. */
export const longString = fc.oneof(
  fc.integer({ min: 60, max: 300 }).map((n) => 'x'.repeat(n)),
  fc.integer({ min: 1_000, max: 20_000 }).map((n) => 'é'.repeat(n)),
  fc.integer({ min: 1, max: 200 }).map((n) => `${'a'.repeat(n)}@${'b'.repeat(n)}.example`),
)

const ordinaryText = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.string({ maxLength: 30, unit: 'grapheme' }),
  fc.constantFrom('', ' ', 'ci', '  padded  ', '<script>alert(1)</script>', "'; drop table accounts; --", '😀 漢字', 'free', 'pro', 'a@b.c'),
)

// --- Dates ------------------------------------------------------------------------------------

/** Days from 1970-01-01 to the civil date (proleptic Gregorian), Howard Hinnant's algorithm. */
function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y
  const era = Math.floor(yy / 400)
  const yoe = yy - era * 400
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy
  return era * 146097 + doe - 719468
}
const leap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0
const monthDays = (y: number, m: number) => [31, leap(y) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]!

const EARLIEST = 0
const LATEST = daysFromCivil(10000, 1, 1) * 86_400_000 - 1

export interface DateCase {
  text: string
  /** The instant the service must store, or null when it must refuse the text. */
  expected: number | null
}

const pad = (v: number, w = 2) => String(v).padStart(w, '0')

/** ISO 8601 texts from components chosen around every boundary, with the oracle's verdict. */
export const dateCase: fc.Arbitrary<DateCase> = fc
  .record({
    y: fc.oneof(fc.integer({ min: 0, max: 9999 }), fc.constantFrom(0, 1, 99, 100, 1969, 1970, 2000, 2026, 2027, 2100, 9999)),
    m: fc.integer({ min: 0, max: 13 }),
    d: fc.integer({ min: 0, max: 32 }),
    time: fc.option(
      fc.record({
        h: fc.integer({ min: 0, max: 24 }),
        min: fc.integer({ min: 0, max: 60 }),
        s: fc.option(fc.integer({ min: 0, max: 60 })),
        zone: fc.oneof(fc.constant(null), fc.record({ sign: fc.constantFrom(1, -1), h: fc.integer({ min: 0, max: 24 }), m: fc.integer({ min: 0, max: 60 }) })),
      }),
    ),
  })
  .map(({ y, m, d, time }) => {
    let text = `${pad(y, 4)}-${pad(m)}-${pad(d)}`
    let valid = m >= 1 && m <= 12 && d >= 1 && d <= monthDays(y, m)
    let ms = valid ? daysFromCivil(y, m, d) * 86_400_000 : 0
    if (time) {
      text += `T${pad(time.h)}:${pad(time.min)}${time.s === null ? '' : `:${pad(time.s)}`}`
      valid &&= time.h <= 23 && time.min <= 59 && (time.s ?? 0) <= 59
      ms += ((time.h * 60 + time.min) * 60 + (time.s ?? 0)) * 1000
      if (time.zone) {
        text += `${time.zone.sign > 0 ? '+' : '-'}${pad(time.zone.h)}:${pad(time.zone.m)}`
        valid &&= time.zone.h <= 23 && time.zone.m <= 59
        ms -= time.zone.sign * (time.zone.h * 60 + time.zone.m) * 60_000
      } else text += 'Z'
    }
    return { text, expected: valid && ms >= EARLIEST && ms <= LATEST ? ms : null }
  })

/** The cases from the security review, and other texts no date parser should guess at. */
export const namedDateCases: DateCase[] = [
  { text: '9999-12-31T23:59:59-23:59', expected: null },
  { text: '0000-01-01', expected: null },
  { text: '1969-12-31T23:59:59Z', expected: null },
  { text: '10000-01-01', expected: null },
  { text: '+275760-09-13', expected: null },
  { text: '-000001-01-01', expected: null },
  { text: '2027-01-31T10:00:00', expected: null },
  { text: '2027-02-29', expected: null },
  { text: '2028-02-29', expected: Date.UTC(2028, 1, 29) },
  { text: '9999-12-31T23:59:59Z', expected: Date.UTC(9999, 11, 31, 23, 59, 59) },
  { text: '1970-01-01T00:00:00Z', expected: 0 },
]

export const anyDateCase = fc.oneof({ weight: 4, arbitrary: dateCase }, { weight: 1, arbitrary: fc.constantFrom(...namedDateCases) })

/** Text for any field: ordinary, tainted, long, or a date (valid or not). */
export const oddText = fc.oneof(
  ordinaryText,
  tainted(ordinaryText),
  longString,
  tainted(longString),
  anyDateCase.map((c) => c.text),
)

/** Any JSON value a client might put in a field instead of what it should. */
export const oddJson = fc.oneof(
  { weight: 6, arbitrary: oddText as fc.Arbitrary<unknown> },
  { weight: 1, arbitrary: fc.oneof(fc.integer(), fc.double(), fc.constantFrom(0, -1, 2_000_000_001, 1.5, 1e300)) },
  { weight: 1, arbitrary: fc.constantFrom(null, true, false, [], {}, ['free'], { $gt: '' }) },
)
