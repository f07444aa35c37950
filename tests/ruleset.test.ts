// The ruleset on every task (issue 47): tasks stored through the real submission path carry the
// service's `results.ruleset`, never a client's; and re-judging a stored task — its stored
// signals (or spec sections) and the server evidence stored with it, under the same ruleset —
// gives the stored checks again, byte for byte. Through app.handle on each driver.
//
// "Byte for byte" is of each value in a canonical form (members sorted): the database stores
// results as jsonb, which orders an object's members its own way (shorter names first), and a
// served check has its shared texts put back (src/core/check-text.ts); every value, string and
// number is compared exactly.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { recordEvidence } from '../db/nonces'
import type { JudgeContext } from '../src/checks/define'
import { RULESET_PATTERN, rulesetOf } from '../src/core/ruleset'
import { assembleResults } from '../src/core/tools/assemble'
import { CHROME_UA, HEADLESS_UA, humanChrome, playwrightHeadless, SPEC_EXAMPLE_RESULTS } from '../src/core/tools/bot-detector.fixture'
import { desktopChrome } from '../src/core/tools/browser-fingerprint.fixture'
import { CHROMIUM_PERSON } from '../src/core/tools/canvas-fingerprint.fixture'
import { signals as dnsSignals, q } from '../src/core/tools/dns-leak.fixture'
import { signals as fontSignals } from '../src/core/tools/font-detection.fixture'
import type { ServerObservation } from '../src/core/tools/observation'
import { chromium156 as permissionsChromium } from '../src/core/tools/permissions-api.fixture'
import { chromium156 as screenChromium } from '../src/core/tools/screen-display.fixture'
import { SPEC_KEPT } from '../src/core/tools/verified'
import { browserIn } from '../src/core/tools/timezone-geo.fixture'
import { TOOL_IDS, type ToolId } from '../common/tools'
import { buildTestApp, makeKey } from './support/app'
import { openTestDatabase, testDrivers, type TestDatabase } from './support/db'

const BASE = 'http://localhost'
const CHROME_HEADERS = { 'user-agent': CHROME_UA, 'sec-ch-ua': '"Google Chrome";v="131", "Chromium";v="131", "Not_A Brand";v="24"', 'sec-ch-ua-mobile': '?0', 'sec-ch-ua-platform': '"Windows"' }
const HEADLESS_HEADERS = { 'user-agent': HEADLESS_UA, 'sec-ch-ua': '"Not:A-Brand";v="8", "Chromium";v="156"', 'sec-ch-ua-mobile': '?0', 'sec-ch-ua-platform': '"Linux"' }
/** What a client may write as the ruleset, hoping to pass its task off as judged by other rules. */
const FORGED_RULESET = 'r1-0123456789abcdef'

type Stored = Record<string, unknown> & {
  ruleset?: string
  checks: unknown[]
  dropped?: string[]
  signals?: unknown
  server: { ip: string; user_agent: string; received_at: string; headers: Array<[string, string]>; nonce: string; evidence: NonNullable<ServerObservation['evidence']>; evidence_dropped?: Record<string, number>; evidence_elsewhere?: ServerObservation['evidenceElsewhere']; proof?: ServerObservation['proof']; proof_detail?: string }
}

/** The value with every object's members in name order, as JSON text. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_, v) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v))
}

/** What the service observed of the submitting request, read back from the stored `server` member. */
function observationOf(server: Stored['server']): ServerObservation {
  return {
    ip: server.ip,
    userAgent: server.user_agent,
    headers: server.headers,
    receivedAt: Date.parse(server.received_at),
    nonce: server.nonce as ServerObservation['nonce'],
    evidence: server.evidence,
    ...(server.evidence_dropped ? { evidenceDropped: server.evidence_dropped } : {}),
    ...(server.evidence_elsewhere ? { evidenceElsewhere: server.evidence_elsewhere } : {}),
    // The page proof as the submission path judged it (src/http/observe.ts).
    ...(server.proof ? { proof: server.proof, proofDetail: server.proof_detail ?? '' } : {}),
  }
}

/**
 * What the judging read besides the request, as the stored task says it was: a live page run
 * had not been seen before (the task is its first), and browser-fingerprint's count of the
 * same visitor id is in its `fingerprint.commonness`.
 */
function contextOf(stored: Stored): JudgeContext {
  const commonness = (stored.fingerprint as { commonness?: { tasks: number; addresses: number } | null } | undefined)?.commonness
  return { ...(stored.server.nonce === 'valid' ? { runSeen: { seen: false } } : {}), ...(commonness ? { fingerprintSeen: commonness } : {}) }
}

/** The stored task judged again: its signals, or a spec body's sections, or nothing (a client that sent none). */
function rejudge(tool: ToolId, stored: Stored) {
  const submitted: Record<string, unknown> = {}
  if (stored.signals !== undefined) submitted.signals = stored.signals
  else if (tool === 'bot-detector' && stored.scoring !== undefined) for (const k of [...SPEC_KEPT, 'summary'] as const) submitted[k] = stored[k]
  const again = assembleResults(tool, submitted, observationOf(stored.server), contextOf(stored))
  if (!again.ok) throw new Error(`Cannot re-judge the ${tool} task: ${again.error}`)
  return again.results as Stored
}

for (const driver of testDrivers()) {
  describe(`the ruleset on stored tasks (${driver})`, () => {
    let database: TestDatabase
    let app: Awaited<ReturnType<typeof buildTestApp>>['app']
    let clock: Awaited<ReturnType<typeof buildTestApp>>['clock']
    let key: string
    beforeAll(async () => {
      database = await openTestDatabase(driver)
      ;({ app, clock } = await buildTestApp(database.db))
      key = (await makeKey(database.db)).key
    }, 60_000)
    afterAll(() => database?.destroy())

    const nonceOf = async (tool: string, headers: Record<string, string>) => {
      const res = await app.handle(new Request(`${BASE}/tools/${tool}`, { headers }))
      expect(res.status).toBe(200)
      return /data-nonce="([a-z2-7]{26})"/.exec(await res.text())![1]!
    }
    /** Submits and reads the task back as a client does. */
    const store = async (tool: ToolId, results: Record<string, unknown>, headers: Record<string, string>, nonce?: string): Promise<Stored> => {
      const res = await app.handle(
        new Request(`${BASE}/api/antibot/tasks`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ tool, results, ...(nonce ? { nonce } : {}) }) }),
      )
      expect(res.status).toBe(201)
      const { task_id } = (await res.json()) as { task_id: string }
      const got = await app.handle(new Request(`${BASE}/api/antibot/tasks/${task_id}`, { headers: { authorization: `Bearer ${key}` } }))
      expect(got.status).toBe(200)
      return ((await got.json()) as { results: Stored }).results
    }
    /** Re-judges the stored task and expects the same checks, summary and ruleset. */
    const expectSameJudgement = (tool: ToolId, stored: Stored) => {
      const again = rejudge(tool, stored)
      expect(stored.ruleset).toMatch(RULESET_PATTERN)
      expect(again.ruleset).toBe(stored.ruleset!)
      expect(canonical(again.checks)).toBe(canonical(stored.checks))
      // Everything else the service wrote too (summary, sections, verdict, consistency, server) — only `dropped` names what the client sent,
      // and `uniqueness` is the population as it was when the task was stored (counts, not a judgement: not the ruleset's).
      const { dropped: _d, uniqueness: _u, ...storedRest } = stored
      const { dropped: _a, uniqueness: _v, ...againRest } = again
      expect(canonical(againRest)).toBe(canonical(storedRest))
    }

    test('bot-detector: a person’s Chrome with its live nonce and the TLS evidence filed under it', async () => {
      const nonce = await nonceOf('bot-detector', CHROME_HEADERS)
      expect(await recordEvidence(database.db, { nonce, kind: 'tls', data: { ja4: 't13d1517h2_8daaf6152771_cb7bf5808d99' }, now: clock(), clientIp: 'unknown' })).toBe(true)
      const stored = await store('bot-detector', { signals: humanChrome() }, CHROME_HEADERS, nonce)
      expect(stored.verified).toBe(true)
      expect(stored.server.evidence.map((e) => e.kind)).toEqual(['tls'])
      expect(stored.ruleset).toBe(rulesetOf('bot-detector'))
      expectSameJudgement('bot-detector', stored)
    })

    test('bot-detector: headless Chromium, a bot', async () => {
      const stored = await store('bot-detector', { signals: playwrightHeadless().signals }, HEADLESS_HEADERS)
      expect(stored.verdict).toBe('bot')
      expectSameJudgement('bot-detector', stored)
    })

    test('a client’s own `ruleset` is dropped and named, and the service’s stored: with signals and in a spec-shaped body', async () => {
      const withSignals = await store('bot-detector', { signals: humanChrome(), ruleset: FORGED_RULESET }, CHROME_HEADERS)
      const spec = await store('bot-detector', { ...SPEC_EXAMPLE_RESULTS, ruleset: FORGED_RULESET }, { 'user-agent': 'python-requests/2.32.3' })
      const unsent = await store('http-headers', { ruleset: FORGED_RULESET }, CHROME_HEADERS)
      for (const [tool, stored] of [['bot-detector', withSignals], ['bot-detector', spec], ['http-headers', unsent]] as const) {
        expect(stored.dropped).toEqual(['ruleset'])
        expect(stored.ruleset).toBe(rulesetOf(tool))
        expect(JSON.stringify(stored)).not.toContain(FORGED_RULESET)
        expectSameJudgement(tool, stored)
      }
    })

    test('every other tool with a page’s signals: the ruleset of its tool, and the same checks when re-judged', async () => {
      const dnsNonce = await nonceOf('dns-leak', CHROME_HEADERS)
      for (const [n, resolver] of [[1, '81.2.69.10'], [2, '172.69.1.2']] as const) {
        expect(await recordEvidence(database.db, { nonce: dnsNonce, kind: 'dns', data: q(n, resolver), now: clock(), clientIp: 'unknown' })).toBe(true)
      }
      const bodies: Array<[ToolId, unknown, string?]> = [
        ['browser-fingerprint', desktopChrome()],
        ['canvas-fingerprint', CHROMIUM_PERSON],
        ['dns-leak', dnsSignals, dnsNonce],
        ['font-detection', fontSignals()],
        ['permissions-api', permissionsChromium()],
        ['screen-display', screenChromium()],
        ['timezone-geo', browserIn('Europe/Berlin')],
      ]
      const rulesets = new Set<string>()
      for (const [tool, signals, nonce] of bodies) {
        const stored = await store(tool, { signals }, CHROME_HEADERS, nonce)
        expect(stored.checks.length).toBeGreaterThan(1)
        // dns-leak's is judged on the DNS listener's evidence filed under its nonce.
        expect(stored.server.evidence.length).toBe(nonce ? 2 : 0)
        expect(stored.ruleset).toBe(rulesetOf(tool))
        rulesets.add(stored.ruleset!)
        expectSameJudgement(tool, stored)
      }
      expect(rulesets.size).toBe(bodies.length)
    })

    test('every tool but bot-detector (whose body has the spec’s shape), from a client that sent no signals (curl): the ruleset on the untested task too', async () => {
      for (const tool of TOOL_IDS.filter((t) => t !== 'bot-detector')) {
        const stored = await store(tool, {}, { 'user-agent': 'curl/8.5.0' })
        expect(stored.ruleset).toBe(rulesetOf(tool))
        expectSameJudgement(tool, stored)
      }
    })
  })
}
