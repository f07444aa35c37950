// The API docs page's curl examples, from the OpenAPI document's own example body.

import { webdriverFlag } from '../checks/webdriver-flag'
import { type ApiDocument, pretty } from './openapi-parts'

/** A POSIX shell single-quoted word. */
const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`

export function curlExamples(doc: ApiDocument, baseUrl: string) {
  const create = doc.paths['/api/antibot/tasks']?.post
  const example = create?.requestBody?.content?.['application/json']?.example ?? { tool: 'bot-detector', results: {} }
  const tasks = `${baseUrl}/api/antibot/tasks`
  return {
    create: `curl -sS -X POST ${shellQuote(tasks)} \\\n  -H 'Content-Type: application/json' \\\n  -d ${shellQuote(JSON.stringify(example))}`,
    created: pretty({ task_id: '3f1c2a9e-8b4d-4c6e-9f0a-1b2c3d4e5f60' }),
    byQuery: `curl -sS ${shellQuote(`${tasks}/<task_id>?apikey=<API_KEY>`)}`,
    byHeader: `curl -sS -H 'Authorization: Bearer <API_KEY>' \\\n  ${shellQuote(`${tasks}/<task_id>`)}`,
    headers: `curl -sS -i -H 'Authorization: Bearer <API_KEY>' ${shellQuote(`${tasks}/<task_id>`)}`,
    run: `curl -sS -H 'Authorization: Bearer <API_KEY>' \\\n  ${shellQuote(`${baseUrl}/api/antibot/runs/<run_id>`)}`,
    runBody: pretty(RUN_EXAMPLE),
    compare: `curl -sS -H 'Authorization: Bearer <API_KEY>' \\\n  ${shellQuote(`${baseUrl}/api/antibot/compare?base=<run_id>&head=<run_id>`)}`,
    compareBody: pretty(COMPARISON_EXAMPLE),
    scan: `ANTIBOT_API_KEY=<API_KEY> ANTIBOT_URL=${shellQuote(baseUrl)} \\\n  npm run --silent scan -- --run <run_id> --expect human --baseline <run_id> --json`,
  }
}

const TASK_A = '0b6e5c1e-4f2a-4c3d-9e8f-1a2b3c4d5e6f'
const TASK_B = '7d1f9a20-3b4c-4d5e-8f60-718293a4b5c6'

/** A run's body, its tasks cut to one (a real run holds one per tool, each as GET /api/antibot/tasks/{id} serves it). */
const RUN_EXAMPLE = {
  run_id: '5c3b1a2d-8e9f-4a0b-9c1d-2e3f4a5b6c7d',
  created_at: '2026-11-21T13:36:28+00:00',
  complete: true,
  tools: ['bot-detector', 'ip-leak', '…'],
  tasks: [
    {
      task_id: TASK_A,
      tool: 'bot-detector',
      score: 100,
      ip_address: '203.0.113.7',
      user_agent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36',
      results: { summary: { total: 41, passed: 41, failed: 0, warnings: 0, score: 100 }, verdict: 'human', tested: true, verified: true, checks: ['…'] },
      created_at: '2026-11-21T13:36:28+00:00',
    },
    '…',
  ],
}

/** A comparison's body: bot-detector got worse between two runs, one tool shown. */
/** A check as a comparison names it (the example's: navigator.webdriver turned true). */
const WEBDRIVER = { id: webdriverFlag.id, name: webdriverFlag.name }

const COMPARISON_EXAMPLE = {
  base: { id: '5c3b1a2d-8e9f-4a0b-9c1d-2e3f4a5b6c7d', kind: 'run' },
  head: { id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d', kind: 'run' },
  same_ruleset: true,
  tools: [
    {
      tool: 'bot-detector',
      base_task_id: TASK_A,
      head_task_id: TASK_B,
      base: { score: 100, verdict: 'human' },
      head: { score: 40, verdict: 'bot' },
      ruleset: { base: 'r1-0123456789abcdef', head: 'r1-0123456789abcdef', same: true },
      changed: [{ ...WEBDRIVER, base: 'pass', head: 'fail' }],
      new_failures: [WEBDRIVER],
      fixed_failures: [],
      new_warnings: [],
    },
    '…',
  ],
  identity: [{ id: 'user_agent', name: 'User agent', tool: 'bot-detector', base: 'Mozilla/5.0 … Chrome/155.0.0.0 …', head: 'Mozilla/5.0 … HeadlessChrome/156.0.0.0 …' }],
  changed: 1,
  new_failures: 1,
  fixed_failures: 0,
  new_warnings: 0,
}

/** The comparison's fields, for the docs page's table. */
export const COMPARISON_FIELDS: ReadonlyArray<[string, string]> = [
  ['base, head', 'Each side: its id and whether it is a run or a task (kind).'],
  ['same_ruleset', 'Whether every tool of both sides was judged under one ruleset (the same checks, weights and code); when false, a changed verdict may be the service’s change, not yours.'],
  ['tools[]', 'Per tool: both task ids, each side’s score and verdict, both rulesets, the checks whose verdict changed (changed: id, name, base and head verdict), and the checks that newly failed, were fixed or newly warn.'],
  ['identity[]', 'The identity values that changed between the sides (user agent, JA4, the HTTP/2 fingerprint, the visitor id, canvas and audio hashes), each with the tool it comes from and both values.'],
  ['changed, new_failures, fixed_failures, new_warnings', 'Those counts over every tool.'],
]
