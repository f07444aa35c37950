// A recorded page run replayed under a fresh nonce (issue 46): the service keeps each page run's
// digest with its task and looks it up before judging the next. Through app.handle on each
// driver: a person's run, the same run posted again under another page's nonce (the nonce
// inside the signals changed too, as a careful replayer does), and another run of the same
// browser, whose timings differ.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { runDigest } from '../src/core/run-digest'
import { CHROME_UA, humanChrome } from '../src/core/tools/bot-detector.fixture'
import { buildTestApp, makeKey } from './support/app'
import { openTestDatabase, testDrivers, type TestDatabase } from './support/db'

const BASE = 'http://localhost'
const CHROME_HEADERS = { 'user-agent': CHROME_UA, 'sec-ch-ua': '"Google Chrome";v="131", "Chromium";v="131", "Not_A Brand";v="24"', 'sec-ch-ua-mobile': '?0', 'sec-ch-ua-platform': '"Windows"' }

interface Task {
  results: { verdict: string; frameworks: string[]; checks: Array<{ id: string; verdict: string; observed: unknown }> }
}

describe('the run digest', () => {
  const body = (nonce: string, signals: unknown) => ({ tool: 'bot-detector', nonce, results: { signals } })
  const a = 'a'.repeat(26)
  const b = 'b'.repeat(26)
  test('the same run under another nonce, the nonce inside it replaced too, has the same digest; another run has another', () => {
    const run = humanChrome() as unknown as Record<string, unknown>
    const inside = (nonce: string) => ({ ...run, tlsEvidence: { ok: true, ms: 5, value: { port: 8443, nonce, reached: true, ms: 4 } } })
    expect(runDigest(body(a, inside(a)))).toBe(runDigest(body(b, inside(b))))
    const other = structuredClone(run) as Record<string, { ms: number }>
    other.window!.ms += 1
    expect(runDigest(body(a, other))).not.toBe(runDigest(body(a, run)))
  })
  test('only a page run has one: a nonce and signals', () => {
    expect(runDigest({ tool: 'bot-detector', results: { signals: humanChrome() } })).toBeNull()
    expect(runDigest({ tool: 'bot-detector', nonce: a, results: { summary: {} } })).toBeNull()
    expect(runDigest({ tool: 'bot-detector', nonce: a, results: { signals: {} } })).toBeNull()
  })
})

for (const driver of testDrivers()) {
  describe(`a replayed page run (${driver})`, () => {
    let database: TestDatabase
    let app: Awaited<ReturnType<typeof buildTestApp>>['app']
    let key: string
    beforeAll(async () => {
      database = await openTestDatabase(driver)
      ;({ app } = await buildTestApp(database.db))
      key = (await makeKey(database.db)).key
    }, 60_000)
    afterAll(() => database?.destroy())

    const nonce = async () => /data-nonce="([a-z2-7]{26})"/.exec(await (await app.handle(new Request(`${BASE}/tools/bot-detector`, { headers: CHROME_HEADERS }))).text())![1]!
    const submit = async (body: unknown): Promise<Task> => {
      const res = await app.handle(new Request(`${BASE}/api/antibot/tasks`, { method: 'POST', headers: { 'content-type': 'application/json', ...CHROME_HEADERS }, body: JSON.stringify(body) }))
      expect(res.status).toBe(201)
      const { task_id } = (await res.json()) as { task_id: string }
      return (await (await app.handle(new Request(`${BASE}/api/antibot/tasks/${task_id}`, { headers: { authorization: `Bearer ${key}` } }))).json()) as Task
    }
    const replayed = (t: Task) => t.results.checks.find((c) => c.id === 'replayed-run')!

    test('the first run passes; the same run under a fresh nonce is a replay, decisive; another run of the browser passes', async () => {
      const signals = humanChrome() as unknown as Record<string, { ms: number }>
      const first = await submit({ tool: 'bot-detector', nonce: await nonce(), results: { signals } })
      expect(replayed(first).verdict).toBe('pass')
      const again = await submit({ tool: 'bot-detector', nonce: await nonce(), results: { signals } })
      expect(replayed(again)).toMatchObject({ verdict: 'fail', observed: 'a stored task has this run already' })
      expect(again.results.verdict).toBe('bot')
      expect(again.results.frameworks).toContain('replay')
      const next = structuredClone(signals)
      next.window!.ms += 3
      expect(replayed(await submit({ tool: 'bot-detector', nonce: await nonce(), results: { signals: next } })).verdict).toBe('pass')
    })
  })
}
