// The Comparison the OpenAPI document publishes is what GET /api/antibot/compare serves: a
// real comparison (a person's Chrome against Playwright's headless Chromium, and a task against
// a run of another tool) validates against it with every reference resolved, it has a field per
// member (the docs page's field table), and its texts name no repository path.

import { describe, expect, test } from 'bun:test'
import { Value } from '@sinclair/typebox/value'
import { FormatRegistry, type TSchema } from '@sinclair/typebox'
import { compareRuns, type ComparedTask } from '../core/compare'
import { assembleResults } from '../core/tools/assemble'
import type { ServerObservation } from '../core/tools/observation'
import { chromeServer, humanChrome, playwrightHeadless } from '../core/tools/bot-detector.fixture'
import { CHROMIUM_PERSON, CHROMIUM_UA, server as canvasServer } from '../core/tools/canvas-fingerprint.fixture'
import { fieldsOf } from '../pages/openapi-parts'
import { apiComponents } from './api-schemas'

const components = apiComponents()
if (!FormatRegistry.Has('uuid')) FormatRegistry.Set('uuid', (v) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v))

/** The schema with each `$ref` to a component replaced by that component (TypeBox checks no $ref). */
function resolved(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(resolved)
  if (!schema || typeof schema !== 'object') return schema
  const ref = (schema as { $ref?: string }).$ref
  if (ref) return resolved(components[ref.replace('#/components/schemas/', '')])
  const out: Record<string | symbol, unknown> = {}
  for (const key of Reflect.ownKeys(schema)) out[key] = resolved((schema as Record<string | symbol, unknown>)[key])
  return out
}

let serial = 0
function task(tool: 'bot-detector' | 'canvas-fingerprint', signals: unknown, server: ServerObservation): ComparedTask {
  const stored = assembleResults(tool, { signals }, server)
  if (!stored.ok) throw new Error(stored.error)
  return { task_id: `00000000-0000-4000-8000-${String(++serial).padStart(12, '0')}`, tool, score: stored.score, user_agent: server.userAgent, results: { ...stored.results, ruleset: 'r1-0123456789abcdef' } }
}

describe('the Comparison schema', () => {
  const schema = resolved(components.Comparison) as TSchema
  const headless = playwrightHeadless()
  const base = { id: 'aaaaaaaa-0000-4000-8000-000000000001', kind: 'run' as const, tasks: [task('bot-detector', humanChrome(), chromeServer())] }
  const head = { id: 'bbbbbbbb-0000-4000-8000-000000000002', kind: 'run' as const, tasks: [task('bot-detector', headless.signals, headless.server)] }

  test('a served comparison validates against it, checks that changed and the user agent included', () => {
    const cmp = compareRuns(base, head)
    expect(cmp.new_failures).toBeGreaterThan(0)
    expect(cmp.identity.map((i) => i.id)).toContain('user_agent')
    expect([...Value.Errors(schema, cmp)].map((e) => `${e.path}: ${e.message}`)).toEqual([])
    // A tool on one side only: the other side null, no check lists.
    const canvas = { id: 'cccccccc-0000-4000-8000-000000000003', kind: 'task' as const, tasks: [task('canvas-fingerprint', CHROMIUM_PERSON, canvasServer(CHROMIUM_UA))] }
    const lopsided = compareRuns(base, canvas)
    expect(lopsided.tools.some((t) => t.base === null || t.head === null)).toBe(true)
    expect([...Value.Errors(schema, lopsided)].map((e) => `${e.path}: ${e.message}`)).toEqual([])
    // A member it does not describe is refused.
    expect(Value.Check(schema, { ...cmp, extra: 1 })).toBe(false)
  })

  test('it has a described field per member of a comparison, and no text of it names a repository path', () => {
    const fields = fieldsOf(components.Comparison as never)
    expect(fields.map((f) => f.name)).toEqual(['base', 'base.id', 'base.kind', 'head', 'head.id', 'head.kind', 'same_ruleset', 'tools', 'identity', 'changed', 'new_failures', 'fixed_failures', 'new_warnings'])
    for (const f of fields) expect((f.schema as { description?: string }).description, f.name).toBeTruthy()
    for (const name of ['Comparison', 'ToolComparison', 'CheckChange', 'ComparedCheck', 'IdentityChange']) {
      expect(fieldsOf(components[name] as never).length, name).toBeGreaterThan(1)
      expect(JSON.stringify(components[name]), name).not.toMatch(/\b(src|docs|db|tests)\/[\w-]+\.(ts|tsx|md)\b/)
    }
  })

  test('no published schema names a source file of the service', () => {
    const named = Object.entries(components).flatMap(([name, schema]) => [...JSON.stringify(schema).matchAll(/\b(?:src|db|tests|probes|common)\/[\w./-]+\.tsx?\b/g)].map((m) => `${name}: ${m[0]}`))
    expect(named).toEqual([])
  })
})
