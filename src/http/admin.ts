// The operator API: plans and keys, behind ADMIN_TOKEN. Disabled (404) when no token is set.
// Every field is checked before the database is touched (422 naming the field), and an
// account is created only together with its key (one transaction), so a refused or failed
// create leaves nothing behind. Operators may put a key on any plan, self-serve or not, and
// are not held to MAX_KEYS_PER_ACCOUNT (see docs/api.md, "Operator API and CLI").

import { timingSafeEqual } from 'node:crypto'
import { Elysia } from 'elysia'
import type { Static, TSchema } from '@sinclair/typebox'
import { TypeCompiler } from '@sinclair/typebox/compiler'
import { getKey, getMonthUsage, getPlanUsage, insertKeyForEmail, updateKey, type KeyRecord } from '../../db/keys'
import { getPlanByName, listPlans, upsertPlan, type PlanRecord } from '../../db/plans'
import { listRecentTasks } from '../../db/tasks'
import { HttpError } from '../core/errors'
import { isUuid } from '../core/ids'
import { generateApiKey, hashSecret, keyHint } from '../core/keys'
import { formatTimestamp, monthKey, nextMonthStart } from '../core/month'
import { readTimestampInput } from '../core/time-input'
import { CONTROL, DEFAULT_KEY_NAME } from '../core/account-input'
import { isToolId } from '../../common/tools'
import type { Db } from '../../db/client'
import { KeyInput, KeyPatch, PLAN_NAME_PATTERN, PlanInput } from './api-schemas'
import { orThrow, readJson as readJsonBody } from './body'
import type { AppDeps } from './deps'
import { json } from './json'
import * as operations from './operations'

export const MAX_ADMIN_BODY_BYTES = 16 * 1024

function validator<T extends TSchema>(schema: T) {
  const check = TypeCompiler.Compile(schema)
  return (value: unknown, what: string) => {
    if (check.Check(value)) return value as Static<T>
    const e = check.Errors(value).First()
    const field = e?.path ? e.path.slice(1).replace(/\//g, '.') : 'body'
    throw new HttpError(422, `${what}: ${field}: ${e?.message.toLowerCase() ?? 'is not valid'}`)
  }
}
const checkPlan = validator(PlanInput)
const checkKey = validator(KeyInput)
const checkPatch = validator(KeyPatch)

async function readJson(request: Request, what: string): Promise<unknown> {
  return orThrow(await readJsonBody(request, MAX_ADMIN_BODY_BYTES), what)
}

/** A value typed by someone, quoted in an error: at most 64 characters of it. */
const shown = (value: string) => (value.length > 64 ? `${value.slice(0, 64)}…` : value)

function expiryInput(value: string | null | undefined, what: string): Date | null | undefined {
  if (value === undefined || value === null) return value
  const d = readTimestampInput(value)
  if (d.ok) return d.value
  if (d.reason === 'format') throw new HttpError(422, `${what}: expires_at must be an ISO 8601 timestamp such as 2027-01-31T00:00:00Z, got '${shown(value)}'`)
  throw new HttpError(422, `${what}: expires_at must lie between 1970-01-01T00:00:00Z and 9999-12-31T23:59:59Z once in UTC, got '${shown(value)}'`)
}

/**
 * Text an operator typed that is stored: PostgreSQL cannot store U+0000 or unpaired UTF-16
 * surrogates, and control characters and line breaks have no place in a name or an address.
 */
function textInput(value: string, field: string, what: string): string {
  if (CONTROL.test(value)) throw new HttpError(422, `${what}: ${field}: must not contain control characters or line breaks`)
  if (!value.isWellFormed()) throw new HttpError(422, `${what}: ${field}: must not contain unpaired UTF-16 surrogates`)
  return value
}

function keyNameInput(value: string | undefined, what: string): string {
  if (value === undefined) return DEFAULT_KEY_NAME
  const name = textInput(value, 'name', what).trim()
  if (name === '') throw new HttpError(422, `${what}: name: must not be blank`)
  return name
}

const PLAN_NAME = new RegExp(PLAN_NAME_PATTERN)

async function planIdByName(db: Db, name: string, what: string): Promise<number> {
  // A name no plan can have is not looked up (it may hold what the database cannot take).
  const plan = PLAN_NAME.test(name) ? await getPlanByName(db, name) : null
  if (plan) return plan.id
  const names = (await listPlans(db)).map((p) => p.name).join(', ')
  throw new HttpError(422, `${what}: unknown plan '${shown(name)}' (plans: ${names})`)
}

const planView = (p: PlanRecord) => ({ id: p.id, name: p.name, monthly_limit: p.monthlyLimit, self_serve: p.selfServe })

/** `?tool=&limit=` of GET /api/admin/tasks: a known tool or none, 1–100 tasks (20 when absent). */
export function taskListQuery(query: Record<string, string | undefined>): { tool: string | undefined; limit: number } {
  const what = 'Cannot list tasks'
  const { tool, limit } = query
  // A parameter given twice arrives as an array: refused like any other value that is not one of the allowed.
  if (tool !== undefined && !(typeof tool === 'string' && isToolId(tool))) throw new HttpError(422, `${what}: unknown tool '${shown(String(tool))}'`)
  if (limit !== undefined && !(typeof limit === 'string' && /^(?:[1-9]\d?|100)$/.test(limit))) {
    throw new HttpError(422, `${what}: limit must be a whole number from 1 to 100, got '${shown(String(limit))}'`)
  }
  return { tool, limit: limit === undefined ? 20 : Number(limit) }
}

export function keyView(k: KeyRecord) {
  return {
    id: k.id,
    name: k.name,
    email: k.email,
    prefix: k.prefix,
    last4: k.last4,
    plan: k.plan,
    status: k.status,
    expires_at: k.expiresAt ? formatTimestamp(k.expiresAt) : null,
    created_at: formatTimestamp(k.createdAt),
  }
}

export function adminApi(deps: AppDeps) {
  const { db, clock, random, adminToken } = deps
  const expected = adminToken ? Buffer.from(adminToken) : null

  return new Elysia({ name: 'admin-api', prefix: '/api/admin' })
    .onBeforeHandle({ as: 'local' }, ({ request }) => {
      if (!expected) throw new HttpError(404, 'Not found: the operator API is disabled; set ADMIN_TOKEN to enable it')
      const m = /^Bearer\s+(\S+)$/i.exec(request.headers.get('authorization') ?? '')
      const given = m ? Buffer.from(m[1]!) : null
      if (!given || given.length !== expected.length || !timingSafeEqual(given, expected)) {
        throw new HttpError(401, 'Operator token required: send Authorization: Bearer <ADMIN_TOKEN>', { 'www-authenticate': 'Bearer' })
      }
    })
    .get('/plans', async () => json((await listPlans(db)).map(planView)), { detail: operations.listPlans })
    .post(
      '/plans',
      async ({ request }) => {
        const input = checkPlan(await readJson(request, 'Cannot save plan'), 'Cannot save plan')
        const plan = await upsertPlan(db, { name: input.name, monthlyLimit: input.monthly_limit, ...(input.self_serve === undefined ? {} : { selfServe: input.self_serve }) })
        return json(planView(plan), 201)
      },
      { parse: 'none', detail: operations.savePlan },
    )
    .post(
      '/keys',
      async ({ request }) => {
        const what = 'Cannot create key'
        const input = checkKey(await readJson(request, what), what)
        const email = textInput(input.email, 'email', what)
        const name = keyNameInput(input.name, what)
        const expiresAt = expiryInput(input.expires_at, what) ?? null
        const planId = await planIdByName(db, input.plan, what)
        const key = generateApiKey(random)
        const hint = keyHint(key)
        const { id } = await insertKeyForEmail(db, email, { planId, name, keyHash: hashSecret(key), prefix: hint.prefix, last4: hint.last4, expiresAt })
        const record = (await getKey(db, id))!
        const view = keyView(record)
        return json({ id, key, prefix: view.prefix, plan: view.plan, status: view.status, expires_at: view.expires_at, name: view.name, email: view.email }, 201)
      },
      { parse: 'none', detail: operations.createKey },
    )
    .patch(
      '/keys/:id',
      async ({ request, params }) => {
        const what = 'Cannot update key'
        if (!isUuid(params.id)) throw new HttpError(404, `${what}: no key with id '${params.id}'`)
        const input = checkPatch(await readJson(request, what), what)
        const expiresAt = expiryInput(input.expires_at, what)
        const planId = input.plan === undefined ? undefined : await planIdByName(db, input.plan, what)
        const changes = {
          ...(input.status !== undefined ? { status: input.status } : {}),
          ...(expiresAt !== undefined ? { expiresAt } : {}),
          ...(planId !== undefined ? { planId } : {}),
        }
        if (!(await updateKey(db, params.id, changes))) throw new HttpError(404, `${what}: no key with id '${params.id}'`)
        return json(keyView((await getKey(db, params.id))!))
      },
      { parse: 'none', detail: operations.updateKey },
    )
    .get('/tasks', async ({ query }) => json(await listRecentTasks(db, taskListQuery(query))), { detail: operations.listTasks })
    .get(
      '/keys/:id',
      async ({ params }) => {
        const record = isUuid(params.id) ? await getKey(db, params.id) : null
        if (!record) throw new HttpError(404, `Key not found: no key with id '${params.id}'`)
        const now = clock()
        const usage = await getMonthUsage(db, record.id, monthKey(now))
        // What the limit bounds: the account's allowance on the key's plan (issue 57).
        const used = await getPlanUsage(db, record.id, monthKey(now))
        return json({
          ...keyView(record),
          usage: {
            month: monthKey(now).slice(0, 7),
            used,
            key_used: usage.count,
            limit: record.monthlyLimit,
            remaining: Math.max(0, record.monthlyLimit - used),
            resets_at: formatTimestamp(nextMonthStart(now)),
            last_used_at: usage.lastUsedAt ? formatTimestamp(usage.lastUsedAt) : null,
          },
        })
      },
      { detail: operations.getKey },
    )
}
