// The page's proof that it ran (issue 56), through app.handle on each driver: a submission
// carrying the answer to its own page load's layout challenge passes page-ran; the answer of
// another page load (a recording), boxes of no size (a DOM emulator), no answer, or no nonce
// fail it, and bot-detector's verdict is then `bot`. The browser's side is tests/page-proof.e2e.ts.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { CHROME_UA, humanChrome } from '../src/core/tools/bot-detector.fixture'
import { buildTestApp, makeKey } from './support/app'
import { openTestDatabase, testDrivers, type TestDatabase } from './support/db'
import { proofFor } from './support/page-proof'

const BASE = 'http://localhost'
const HEADERS = { 'user-agent': CHROME_UA, 'sec-ch-ua': '"Google Chrome";v="131", "Chromium";v="131", "Not_A Brand";v="24"', 'sec-ch-ua-mobile': '?0', 'sec-ch-ua-platform': '"Windows"' }


interface Task {
  results: { verdict?: string; frameworks?: string[]; server: { proof?: string; proof_detail?: string }; checks: Array<{ id: string; verdict: string; observed: unknown }> }
}

for (const driver of testDrivers()) {
  describe(`the page proof (${driver})`, () => {
    let database: TestDatabase
    let app: Awaited<ReturnType<typeof buildTestApp>>['app']
    let key: string
    beforeAll(async () => {
      database = await openTestDatabase(driver)
      ;({ app } = await buildTestApp(database.db))
      key = (await makeKey(database.db)).key
    }, 60_000)
    afterAll(() => database?.destroy())

    const nonce = async (tool = 'bot-detector') => /data-nonce="([a-z2-7]{26})"/.exec(await (await app.handle(new Request(`${BASE}/tools/${tool}`, { headers: HEADERS }))).text())![1]!
    const submit = async (body: unknown): Promise<Task> => {
      const res = await app.handle(new Request(`${BASE}/api/antibot/tasks`, { method: 'POST', headers: { 'content-type': 'application/json', ...HEADERS }, body: JSON.stringify(body) }))
      expect(res.status).toBe(201)
      const { task_id } = (await res.json()) as { task_id: string }
      return (await (await app.handle(new Request(`${BASE}/api/antibot/tasks/${task_id}`, { headers: { authorization: `Bearer ${key}` } }))).json()) as Task
    }
    const pageRan = (t: Task) => t.results.checks.find((c) => c.id === 'page-ran')!
    /** A fresh run of the person's browser (its timings differ, so no run digest repeats). */
    const run = (k: number) => {
      const s = humanChrome() as unknown as Record<string, { ms: number }>
      s.window!.ms += k
      return s as Record<string, unknown>
    }

    test("the answer to this page load's challenge passes; the task's server record says so", async () => {
      const n = await nonce()
      const task = await submit({ tool: 'bot-detector', nonce: n, results: { signals: { ...run(1), proof: proofFor(n) } } })
      expect(task.results.server.proof).toBe('valid')
      expect(pageRan(task)).toMatchObject({ verdict: 'pass', observed: expect.stringMatching(/^all \d+ boxes where layout puts them$/) })
    })

    test("another page load's answer (a recording), boxes of no size, no answer and no nonce each fail, and the verdict is bot", async () => {
      const recorded = proofFor(await nonce())
      const zeros = { ...recorded, value: { ...recorded.value, boxes: recorded.value.boxes.map(() => 0) } }
      const cases: Array<[string, (n: string) => Record<string, unknown>, boolean]> = [
        ['wrong', () => ({ proof: recorded }), true],
        ['wrong', () => ({ proof: zeros }), true],
        ['missing', () => ({}), true],
        ['no-nonce', (n) => ({ proof: proofFor(n) }), false],
      ]
      for (const [i, [state, extra, withNonce]] of cases.entries()) {
        const n = await nonce()
        const task = await submit({ tool: 'bot-detector', ...(withNonce ? { nonce: n } : {}), results: { signals: { ...run(10 + i), ...extra(n) } } })
        expect(task.results.server.proof).toBe(state)
        expect(pageRan(task).verdict).toBe('fail')
        expect(task.results.verdict).toBe('bot')
        expect(task.results.frameworks).toContain('browserless')
      }
    })

    test('tls-fingerprint and http-headers judge it too; a tool that does not take the challenge has no proof', async () => {
      // Their other signals as a page sends them when an API is missing: only the proof matters here.
      const none = { ok: false, error: { kind: 'unsupported', message: 'not in this test' }, ms: 1 }
      const others: Record<string, string[]> = { 'tls-fingerprint': ['navigator', 'uaData', 'stack', 'connection', 'evidence'], 'http-headers': ['navigator', 'languages', 'uaData', 'privacy', 'context'] }
      for (const tool of ['tls-fingerprint', 'http-headers']) {
        const rest = Object.fromEntries(others[tool]!.map((k) => [k, none]))
        const n = await nonce(tool)
        const task = await submit({ tool, nonce: n, results: { signals: { ...rest, proof: proofFor(n) } } })
        expect(task.results.server.proof).toBe('valid')
        expect(pageRan(task).verdict).toBe('pass')
        const other = await submit({ tool, nonce: await nonce(tool), results: { signals: { ...rest, proof: proofFor(n) } } })
        expect(pageRan(other).verdict).toBe('fail')
      }
      const n = await nonce('screen-display')
      const task = await submit({ tool: 'screen-display', nonce: n, results: {} })
      expect(task.results.server.proof).toBeUndefined()
      expect(task.results.checks.find((c) => c.id === 'page-ran')).toBeUndefined()
    })
  })
}
