// Bad input for POST /api/antibot/tasks: each case gets a 4xx with a JSON {"error"} that names
// the problem, nothing is stored, and nothing ever produces a 5xx. Run on every test driver,
// since what PostgreSQL's jsonb refuses is part of the list.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { countTasks } from '../db/tasks'
import { DISCARD_BYTES } from '../src/http/body'
import { buildTestApp, specBotResults } from './support/app'
import { openTestDatabase, testDrivers, type TestDatabase } from './support/db'

// Opening (and dropping) a test database takes what it takes on a loaded machine: no clock of its
// own (0), so a busy machine never fails a suite before its first test (issue 57).
const HOOK_TIMEOUT_MS = 0

const URL_ = 'http://localhost/api/antibot/tasks'
const LIMIT = 64 * 1024
type App = Awaited<ReturnType<typeof buildTestApp>>['app']

const bot = (patch: (r: ReturnType<typeof specBotResults>) => unknown) => JSON.stringify({ tool: 'bot-detector', results: patch(specBotResults()) })
/** Valid JSON text of exactly `bytes` bytes (UTF-8), padded inside an extra results key. */
function bodyOfSize(bytes: number): string {
  const base = JSON.stringify({ tool: 'bot-detector', results: { ...specBotResults(), pad: '' } })
  const text = base.replace('"pad":""', `"pad":"${'x'.repeat(bytes - Buffer.byteLength(base))}"`)
  if (Buffer.byteLength(text) !== bytes) throw new Error('bad padding')
  return text
}
/** Results with `levels` nested objects inside; the body is level 1 and results level 2. */
function deepResults(totalDepth: number): string {
  let inner: unknown = {}
  for (let d = totalDepth; d > 3; d--) inner = { n: inner }
  return JSON.stringify({ tool: 'bot-detector', results: { ...specBotResults(), deep: inner } })
}

// [name, body text, expected status, what the error must name]
const JSON_CASES: Array<[string, string, number, RegExp]> = [
  ['malformed JSON', '{"tool": "bot-detector", "results": {', 400, /not valid JSON/],
  ['trailing garbage after the JSON', `${bot((r) => r)} x`, 400, /not valid JSON/],
  ['an empty body', '', 400, /body is empty/],
  ['only whitespace', '   \n', 400, /body is empty/],
  ['top level an array', JSON.stringify([{ tool: 'bot-detector', results: specBotResults() }]), 422, /JSON object.*got an array/],
  ['top level a number', '42', 422, /JSON object.*got a number/],
  ['top level null', 'null', 422, /JSON object.*got null/],
  ['top level a string', '"bot-detector"', 422, /JSON object.*got a string/],
  ['top level a boolean', 'true', 422, /JSON object.*got a boolean/],
  ['an unknown tool', JSON.stringify({ tool: 'no-such-tool', results: specBotResults() }), 422, /unknown tool "no-such-tool"/],
  ['a tool in the wrong case', JSON.stringify({ tool: 'Bot-Detector', results: specBotResults() }), 422, /unknown tool "Bot-Detector"/],
  ['a missing tool', JSON.stringify({ results: specBotResults() }), 422, /"tool" is required/],
  ['a tool that is a number', JSON.stringify({ tool: 1, results: specBotResults() }), 422, /"tool" must be a string, got a number/],
  ['a tool that is null', JSON.stringify({ tool: null, results: specBotResults() }), 422, /"tool" must be a string, got null/],
  ['a tool that is an array', JSON.stringify({ tool: ['bot-detector'], results: specBotResults() }), 422, /"tool" must be a string, got an array/],
  ['missing results', JSON.stringify({ tool: 'bot-detector' }), 422, /"results" is required/],
  ['results an array', JSON.stringify({ tool: 'bot-detector', results: [] }), 422, /"results" must be an object, got an array/],
  ['results null', JSON.stringify({ tool: 'bot-detector', results: null }), 422, /"results" must be an object, got null/],
  ['results a string', JSON.stringify({ tool: 'bot-detector', results: '{}' }), 422, /"results" must be an object, got a string/],
  ['results a number', JSON.stringify({ tool: 'bot-detector', results: 5 }), 422, /"results" must be an object, got a number/],
  ['an unknown top-level field', JSON.stringify({ tool: 'bot-detector', results: specBotResults(), score: 100 }), 422, /unknown field "score"/],
  ['a prototype key at the top level', `{"tool":"bot-detector","results":${JSON.stringify(specBotResults())},"__proto__":{"x":1}}`, 422, /unknown field "__proto__"/],
  ['bot-detector results missing summary', bot(({ summary: _s, ...r }) => r), 422, /results\.summary/],
  ['bot-detector results missing canvas', bot(({ canvas: _c, ...r }) => r), 422, /results\.canvas/],
  ['leaks.webdriver a string', bot((r) => ({ ...r, leaks: { ...r.leaks, webdriver: 'false' } })), 422, /results\.leaks\.webdriver/],
  ['leaks.selenium missing', bot((r) => ({ ...r, leaks: { webdriver: false, phantomjs: false } })), 422, /results\.leaks\.selenium/],
  ['navigator.language a number', bot((r) => ({ ...r, navigator: { ...r.navigator, language: 1 } })), 422, /results\.navigator\.language/],
  ['screen.width not an integer', bot((r) => ({ ...r, screen: { ...r.screen, width: 1920.5 } })), 422, /results\.screen\.width/],
  ['webgl a string', bot((r) => ({ ...r, webgl: 'ANGLE' })), 422, /results\.webgl/],
  ['scoring.webdriver not a verdict', bot((r) => ({ ...r, scoring: { ...r.scoring, webdriver: 'maybe' } })), 422, /results\.scoring\.webdriver/],
  ['score 101', bot((r) => ({ ...r, summary: { ...r.summary, score: 101 } })), 422, /results\.summary\.score/],
  ['score -1', bot((r) => ({ ...r, summary: { ...r.summary, score: -1 } })), 422, /results\.summary\.score/],
  ['score 2.5', bot((r) => ({ ...r, summary: { ...r.summary, score: 2.5 } })), 422, /results\.summary\.score/],
  ['score a string', bot((r) => ({ ...r, summary: { ...r.summary, score: '90' } })), 422, /results\.summary\.score/],
  ['summary.total missing', bot((r) => ({ ...r, summary: { passed: 3, failed: 0, warnings: 0, score: 90 } })), 422, /results\.summary\.total/],
  ['nesting deeper than 32', deepResults(33), 422, /nesting is deeper than 32 levels/],
  ['nesting thousands of levels deep', `{"tool":"bot-detector","results":${'{"a":'.repeat(10000)}{}${'}'.repeat(10000)}}`, 422, /results(\.a)+: nesting is deeper than 32 levels/],
  ['U+0000 in a string', bot((r) => r).replace('"a1b2c3"', '"a1\\u0000b2"'), 422, /results\.canvas\.hash: string contains U\+0000/],
  ['U+0000 in a key', bot((r) => r).replace('"hash"', '"ha\\u0000sh"'), 422, /key contains U\+0000/],
  ['a lone high surrogate in a string', bot((r) => r).replace('"a1b2c3"', '"\\ud800"'), 422, /results\.canvas\.hash: string contains an unpaired UTF-16 surrogate/],
  ['a lone low surrogate in a key', bot((r) => ({ ...r, extra: 1 })).replace('"extra"', '"\\udc00"'), 422, /key contains an unpaired UTF-16 surrogate/],
  ['a number out of range', bot((r) => ({ ...r, extra: 0 })).replace('"extra":0', '"extra":1e400'), 422, /results\.extra: number is out of range/],
]

describe.each(testDrivers())('bad input to POST /api/antibot/tasks on %s', (driver) => {
  let tdb: TestDatabase
  let app: App

  beforeAll(async () => {
    tdb = await openTestDatabase(driver)
    ;({ app } = await buildTestApp(tdb.db))
  }, HOOK_TIMEOUT_MS)
  afterAll(async () => {
    await tdb?.destroy()
  }, HOOK_TIMEOUT_MS)

  /** Sends the request and asserts the status, a JSON {"error"} naming the problem, and no row stored. */
  async function expectRefused(request: Request, status: number, names: RegExp) {
    const before = await countTasks(tdb.db)
    const res = await app.handle(request)
    const raw = await res.text()
    expect({ status: res.status, raw }).toMatchObject({ status })
    expect(res.headers.get('content-type')).toStartWith('application/json')
    const body = JSON.parse(raw) as Record<string, unknown>
    expect(Object.keys(body)).toEqual(['error'])
    expect(typeof body.error).toBe('string')
    expect(body.error as string).toStartWith('Cannot create task: ')
    expect(body.error as string).toMatch(names)
    expect(await countTasks(tdb.db)).toBe(before)
  }

  const jsonPost = (body: BodyInit, headers: Record<string, string> = {}) =>
    new Request(URL_, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body })

  test('the good body these cases are made from is accepted', async () => {
    const res = await app.handle(jsonPost(bot((r) => r)))
    expect(res.status).toBe(201)
  })

  test.each(JSON_CASES)('refuses %s', async (_name, text, status, names) => {
    await expectRefused(jsonPost(text), status, names)
  })

  test('refuses a body that is not UTF-8', async () => {
    const bytes = new Uint8Array([...new TextEncoder().encode('{"tool":"bot-detector","x":"'), 0xff, 0xfe, ...new TextEncoder().encode('"}')])
    await expectRefused(jsonPost(bytes), 400, /not valid UTF-8/)
  })

  test('refuses a wrong content type with 415', async () => {
    const text = bot((r) => r)
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonp', 'text/json']) {
      await expectRefused(new Request(URL_, { method: 'POST', headers: { 'content-type': type }, body: text }), 415, /Content-Type must be application\/json/)
    }
  })

  test('refuses a missing content type with 415', async () => {
    const request = new Request(URL_, { method: 'POST', body: new TextEncoder().encode(bot((r) => r)) })
    expect(request.headers.get('content-type')).toBeNull()
    await expectRefused(request, 415, /Content-Type must be application\/json, got none/)
  })

  test('accepts a body of exactly 64 KiB', async () => {
    const res = await app.handle(jsonPost(bodyOfSize(LIMIT)))
    expect(res.status).toBe(201)
  })

  test('refuses a body one byte over 64 KiB with 413', async () => {
    await expectRefused(jsonPost(bodyOfSize(LIMIT + 1)), 413, /larger than 65536 bytes/)
  })

  test('refuses a body whose Content-Length is over 64 KiB with 413', async () => {
    const text = bodyOfSize(LIMIT + 4096)
    const request = jsonPost(text, { 'content-length': String(Buffer.byteLength(text)) })
    expect(request.headers.get('content-length')).toBe(String(LIMIT + 4096))
    await expectRefused(request, 413, /larger than 65536 bytes/)
  })

  test('refuses a chunked body without Content-Length once it passes 64 KiB', async () => {
    let sent = 0
    const chunk = new TextEncoder().encode('x'.repeat(1024))
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"tool":"bot-detector","results":{"pad":"'))
      },
      pull(controller) {
        // An endless body: the reader must stop at the cap, not wait for the end.
        sent += chunk.byteLength
        controller.enqueue(chunk)
      },
    })
    const request = new Request(URL_, { method: 'POST', headers: { 'content-type': 'application/json' }, body: stream, duplex: 'half' } as RequestInit)
    expect(request.headers.get('content-length')).toBeNull()
    await expectRefused(request, 413, /larger than 65536 bytes/)
    // The answer is decided at the cap; what comes after is read on and thrown away, for a
    // bounded amount (src/http/body.ts discardRest), so that a client still writing reads it.
    let before = -1
    for (let i = 0; i < 500 && sent !== before; i++) {
      before = sent
      await new Promise((r) => setTimeout(r, 20))
    }
    expect(sent).toBeLessThanOrEqual(LIMIT + DISCARD_BYTES + 2 * chunk.byteLength)
  })

  test('accepts nesting of exactly 32 levels', async () => {
    const res = await app.handle(jsonPost(deepResults(32)))
    expect(res.status).toBe(201)
  })

  test('accepts paired surrogates (emoji) and other unicode', async () => {
    const text = bot((r) => r).replace('"a1b2c3"', '"\\ud83d\\ude00 😀 漢字 é"')
    expect(JSON.parse(text).results.canvas.hash).toBe('😀 😀 漢字 é')
    const res = await app.handle(jsonPost(text))
    expect(res.status).toBe(201)
  })
})
