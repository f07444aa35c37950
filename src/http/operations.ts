// What each API route says about itself in the OpenAPI document: its `detail` (an OpenAPI
// operation object). Request bodies and responses point at the TypeBox schemas published as
// components (src/http/api-schemas.ts); error responses carry the exact texts the service
// sends, and tests/openapi.test.ts checks the examples against real responses.

import type { DocumentDecoration } from 'elysia'
import { DATABASE_UNAVAILABLE, ERROR_TEXT } from '../core/errors'
import { ExactError } from './api-schemas'
import { MAX_TASK_BODY_BYTES, submissionFailure, type SubmissionFailure } from './submission'
import { headerRef, schemaRef, toJsonSchema } from './openapi'

type Examples = Record<string, { summary: string; error: string }>

/**
 * An operation object for a route's `detail`. These are OpenAPI 3.1 objects; Elysia types
 * `detail` with OpenAPI 3.0's types, whose schema objects lack 3.1's `const` and type arrays,
 * hence the one cast here. tests/openapi.test.ts checks the document's shape instead.
 */
const operation = (op: Record<string, unknown>) => op as DocumentDecoration

const json = (schema: unknown, extra: Record<string, unknown> = {}) => ({ 'application/json': { schema, ...extra } })

/** An error response whose `error` may be one of several texts, shown as named examples. */
function errorResponse(description: string, examples: Examples, headers?: Record<string, unknown>) {
  return {
    description,
    ...(headers ? { headers } : {}),
    content: json(schemaRef('Error'), {
      examples: Object.fromEntries(Object.entries(examples).map(([name, e]) => [name, { summary: e.summary, value: { error: e.error } }])),
    }),
  }
}

/** An error response with exactly one possible text, pinned by the schema (`const`). */
function exactErrorResponse(description: string, text: string, headers: Record<string, unknown>) {
  return { description, headers, content: json(toJsonSchema(ExactError(text)), { example: { error: text } }) }
}

/** A bot-detector results object of the interface spec's shape: the request example. */
export const BOT_DETECTOR_EXAMPLE = {
  summary: { total: 3, passed: 3, failed: 0, warnings: 0, score: 100 },
  leaks: { webdriver: false, selenium: false, phantomjs: false },
  navigator: { userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36', platform: 'Linux x86_64', language: 'en-US' },
  screen: { width: 1920, height: 1080, colorDepth: 24 },
  webgl: { vendor: 'Google Inc. (Intel)', renderer: 'ANGLE (Intel, Mesa Intel(R) UHD Graphics 620, OpenGL 4.6)' },
  canvas: { hash: '9f2c61a4' },
  scoring: { webdriver: 'pass', selenium: 'pass', phantomjs: 'pass' },
}

const noStore = { 'Cache-Control': headerRef('Cache-Control') }
const rateLimit = { 'RateLimit-Policy': headerRef('RateLimit-Policy'), RateLimit: headerRef('RateLimit') }

// The texts POST /api/antibot/tasks answers with, from the one place that words them.
const CREATE = 'Cannot create task'
export const COMPARE_MISSING = 'Cannot compare: give base and head, each a run id or a task id (GET /api/antibot/compare?base=<id>&head=<id>)'
const created = (f: SubmissionFailure) => submissionFailure(f, CREATE).error
const invalid = (why: string) => created({ code: 'invalid', why })

export const createTask = operation({
  operationId: 'createTask',
  summary: 'Create a task',
  description:
    'Stores the results of one tool run and returns its identifier. The tool pages call this when their tests finish, and expose the identifier as `document.body.dataset.task`. No authentication; not counted against any key. The service records the client’s IP address and User-Agent and the time; the task’s `score` is `results.summary.score`. Of `results`, the task keeps only what the service reads — the page’s `signals`, or the sections of a bot-detector body of the spec’s shape — and drops any other member (`verdict`, `frameworks`, `checks`, `server`, …), naming it in `results.dropped`; a spec-shaped body is scored from its own `scoring` entries and stored with `verified: false`. A rejected body stores nothing. When the operator has set a per-address limit (TASK_RATE_LIMIT, off by default) and the client’s address has used it up, the answer is 429 with `Retry-After`; when the database cannot be reached, 503 with `Retry-After`.',
  tags: ['Tasks'],
  security: [],
  requestBody: {
    required: true,
    description: 'JSON, at most 65536 bytes (also when sent chunked), nested at most 32 levels deep. Strings must be storable by PostgreSQL: no U+0000, no unpaired surrogates.',
    content: json(schemaRef('CreateTaskBody'), { example: { tool: 'bot-detector', results: BOT_DETECTOR_EXAMPLE } }),
  },
  responses: {
    201: { description: 'The task was stored.', content: json(schemaRef('TaskCreated'), { example: { task_id: '3f1c2a9e-8b4d-4c6e-9f0a-1b2c3d4e5f60' } }) },
    400: errorResponse('The body could not be read as JSON.', {
      empty: { summary: 'No body', error: created({ code: 'empty' }) },
      notUtf8: { summary: 'Bytes that are not UTF-8', error: created({ code: 'not_utf8' }) },
      syntax: { summary: 'A JSON syntax error (the parser’s message follows)', error: created({ code: 'bad_json', reason: 'JSON Parse error: Unexpected EOF' }) },
    }),
    409: errorResponse('The page nonce in the body was already used by another task (a replayed submission). Nothing is stored; reload the tool page for a fresh nonce.', {
      nonceUsed: { summary: 'Nonce already used', error: created({ code: 'nonce_used' }) },
    }),
    413: errorResponse('The body is larger than 65536 bytes.', {
      tooLarge: { summary: 'Too large', error: created({ code: 'too_large', maxBytes: MAX_TASK_BODY_BYTES }) },
    }),
    415: errorResponse('The Content-Type is not application/json.', {
      wrongType: { summary: 'Another media type', error: created({ code: 'media_type', expected: 'application/json', got: 'text/plain' }) },
      noType: { summary: 'No Content-Type', error: created({ code: 'media_type', expected: 'application/json', got: '' }) },
    }),
    422: errorResponse('The JSON is not a valid submission; the text names the first problem.', {
      notObject: { summary: 'Not an object', error: invalid('the body must be a JSON object with "tool" and "results", got an array') },
      unknownTool: { summary: 'Unknown tool', error: invalid('unknown tool "no-such-tool"') },
      missingResults: { summary: 'Missing field', error: invalid('"results" is required') },
      wrongType: { summary: 'Wrong type', error: invalid('"results" must be an object, got a string') },
      unknownField: { summary: 'Unknown field', error: invalid('unknown field "extra" (allowed: "tool", "results", "nonce")') },
      schema: { summary: 'Results not of the tool’s shape', error: invalid('results.leaks.webdriver: expected boolean') },
      unstorable: { summary: 'A string PostgreSQL cannot store', error: invalid('results.note: string contains U+0000, which PostgreSQL cannot store') },
    }),
  },
})

export const getTask = operation({
  operationId: 'getTask',
  summary: 'Get a task',
  description:
    'Returns the stored task `task_id` (as returned at creation or read from `data-task`). Needs an API key, as the `apikey` query parameter or as `Authorization: Bearer <API_KEY>`; when both are sent, the header wins. The checks run in this order: a key that is missing, malformed or unknown gets 401; a key that is inactive, expired or at its monthly limit gets 403; a task that does not exist (including a `task_id` that is not a UUID) gets 404. Only a 200 counts against the key’s monthly limit (UTC calendar month), which is its plan’s limit as one allowance of the key’s account: all the account’s keys on the plan share it, so creating, rotating, deactivating or deleting keys never adds fetches; the limit check and the count are one atomic step, so concurrent fetches (through any of those keys) never exceed it. A key that has asked for too many ids that do not exist (100 in 10 minutes by default) gets 429 with `Retry-After` for every id until that window ends, after the 401 and 403 checks; misses and 429s are never counted. When the database cannot be reached: 503 with `Retry-After`.',
  tags: ['Tasks'],
  security: [{ ApiKeyQuery: [] }, { ApiKeyBearer: [] }],
  responses: {
    200: { description: 'The task. This fetch was counted.', headers: { ...rateLimit, ...noStore }, content: json(schemaRef('Task')) },
    401: exactErrorResponse('The API key is missing or not valid.', ERROR_TEXT.unauthorized, { 'WWW-Authenticate': headerRef('WWW-Authenticate'), ...noStore }),
    403: exactErrorResponse('The key is inactive, expired, or has reached its request limit.', ERROR_TEXT.forbidden, {
      ...rateLimit,
      'Retry-After': headerRef('Retry-After'),
      ...noStore,
    }),
    404: exactErrorResponse('No task exists for the given task_id.', ERROR_TEXT.taskNotFound, { ...rateLimit, ...noStore }),
  },
})

const keyedRead = (what: string, notFound: string) => ({
  security: [{ ApiKeyQuery: [] }, { ApiKeyBearer: [] }],
  responses: {
    200: { description: `${what}. This read was counted, once.`, headers: { ...rateLimit, ...noStore } },
    401: exactErrorResponse('The API key is missing or not valid.', ERROR_TEXT.unauthorized, { 'WWW-Authenticate': headerRef('WWW-Authenticate'), ...noStore }),
    403: exactErrorResponse('The key is inactive, expired, or has reached its request limit.', ERROR_TEXT.forbidden, { ...rateLimit, 'Retry-After': headerRef('Retry-After'), ...noStore }),
    404: exactErrorResponse(notFound, ERROR_TEXT.taskNotFound, { ...rateLimit, ...noStore }),
  },
})

const runRead = keyedRead('The run', 'No task of that run exists (the run page has not stored one yet, or the id is not a UUID): the task endpoint’s text.')
export const getRun = operation({
  operationId: 'getRun',
  summary: 'Get a run',
  description:
    'Returns the tasks one visit to `/run` stored (one per tool), by the run id the page puts in `data-run`. The task endpoint’s key rules, texts and order (401, 403, 429, 404); a successful read counts as one request against the key’s monthly limit, however many tasks it returns, in the same atomic step as the key check.',
  tags: ['Tasks'],
  ...runRead,
  responses: { ...runRead.responses, 200: { ...runRead.responses[200], content: json(schemaRef('Run')) } },
})

const pairRead = keyedRead('The comparison', 'One of the two ids is neither a run nor a task.')
export const compareRuns = operation({
  operationId: 'compareRuns',
  summary: 'Compare two runs or tasks',
  description:
    '`base` and `head` are each a run id or a task id. Per tool: the checks whose verdict changed, new and fixed failures, the identity values that changed, and whether both sides were judged under one ruleset. Key rules and texts as for a task; a 400 when `base` or `head` is missing; a successful comparison counts as one request.',
  tags: ['Tasks'],
  parameters: [
    { name: 'base', in: 'query', required: true, schema: { type: 'string', format: 'uuid' }, description: 'The earlier run or task.' },
    { name: 'head', in: 'query', required: true, schema: { type: 'string', format: 'uuid' }, description: 'The later run or task.' },
  ],
  ...pairRead,
  responses: {
    ...pairRead.responses,
    200: { ...pairRead.responses[200], content: json(schemaRef('Comparison')) },
    400: errorResponse('`base` or `head` is missing.', { missing: { summary: 'No head', error: COMPARE_MISSING } }),
  },
})

// --- Operator API --------------------------------------------------------------------------

const OPERATOR = { tags: ['Operator'], security: [{ OperatorToken: [] }] }
const OPERATOR_401 = 'Operator token required: send Authorization: Bearer <ADMIN_TOKEN>'
const OPERATOR_DISABLED = 'Not found: the operator API is disabled; set ADMIN_TOKEN to enable it'

const operator401 = errorResponse('The operator token is missing or wrong.', { token: { summary: 'No or wrong token', error: OPERATOR_401 } }, {
  'WWW-Authenticate': headerRef('WWW-Authenticate'),
})

/** The errors of an operator route that reads a JSON body (`what` starts every text). */
function bodyErrors(what: string, maxBytes: number, invalid: Examples) {
  return {
    400: errorResponse('The body could not be read as JSON.', { syntax: { summary: 'A JSON syntax error', error: `${what}: the body is not valid JSON (JSON Parse error: Unexpected EOF)` } }),
    401: operator401,
    413: errorResponse(`The body is larger than ${maxBytes} bytes.`, { tooLarge: { summary: 'Too large', error: `${what}: the body is larger than ${maxBytes} bytes` } }),
    415: errorResponse('The Content-Type is not application/json.', { wrongType: { summary: 'No Content-Type', error: `${what}: Content-Type must be application/json, got none` } }),
    422: errorResponse('The JSON does not match the schema, or names something that does not exist.', invalid),
  }
}

const disabled = (extra: Examples = {}) =>
  errorResponse('The operator API is disabled (no ADMIN_TOKEN), or the key does not exist.', { disabled: { summary: 'Disabled', error: OPERATOR_DISABLED }, ...extra })

const ADMIN_BODY_BYTES = 16384

export const listPlans = operation({
  operationId: 'listPlans',
  summary: 'List plans',
  ...OPERATOR,
  responses: {
    200: { description: 'Every plan, self-serve or not.', content: json({ type: 'array', items: schemaRef('Plan') }) },
    401: operator401,
    404: disabled(),
  },
})

export const savePlan = operation({
  operationId: 'savePlan',
  summary: 'Create a plan or change it',
  description:
    'Creates the plan, or changes the monthly limit (and, when `self_serve` is sent, the visibility) of the plan with this name. A new limit applies at once to every key on the plan; it bounds each account’s fetches through all its keys on the plan together, per UTC month. Of the seeded plans only `free` is self-serve. A new plan is not self-serve unless `self_serve` is `true`: accounts cannot choose it on the dashboard, and only an operator can put keys on it. Keys already on a plan stay on it when it stops being self-serve.',
  ...OPERATOR,
  requestBody: { required: true, content: json(schemaRef('PlanInput'), { example: { name: 'team', monthly_limit: 100000, self_serve: false } }) },
  responses: {
    201: { description: 'The plan as saved.', content: json(schemaRef('Plan')) },
    ...bodyErrors('Cannot save plan', ADMIN_BODY_BYTES, {
      schema: { summary: 'A field of the wrong type', error: 'Cannot save plan: monthly_limit: expected integer' },
    }),
    404: disabled(),
  },
})

export const createKey = operation({
  operationId: 'createKey',
  summary: 'Create a key',
  description:
    'Creates an API key on any plan (self-serve or not) for the account with this email, creating the account when it does not exist, in one transaction: a refused key leaves no account behind. Operators are not held to MAX_KEYS_PER_ACCOUNT (their keys still count towards it for the account’s own creates). The key itself is in this response only; the service stores its SHA-256.',
  ...OPERATOR,
  requestBody: { required: true, content: json(schemaRef('KeyInput'), { example: { email: 'ops@example.com', plan: 'free', name: 'ci', expires_at: '2027-01-31T00:00:00Z' } }) },
  responses: {
    201: { description: 'The key, with its secret.', content: json(schemaRef('KeyCreated')) },
    ...bodyErrors('Cannot create key', ADMIN_BODY_BYTES, {
      unknownPlan: { summary: 'No such plan', error: "Cannot create key: unknown plan 'gold' (plans: free, pro, business)" },
      expiry: { summary: 'Not a timestamp', error: "Cannot create key: expires_at must be an ISO 8601 timestamp such as 2027-01-31T00:00:00Z, got 'tomorrow'" },
      expiryRange: {
        summary: 'A timestamp outside 1970–9999 (UTC)',
        error: "Cannot create key: expires_at must lie between 1970-01-01T00:00:00Z and 9999-12-31T23:59:59Z once in UTC, got '9999-12-31T23:59:59-23:59'",
      },
      control: { summary: 'A control character in a text field', error: 'Cannot create key: email: must not contain control characters or line breaks' },
    }),
    404: disabled(),
  },
})

export const updateKey = operation({
  operationId: 'updateKey',
  summary: 'Change a key',
  description: 'Changes a key’s status, expiry (null removes it) or plan; fields left out stay as they are.',
  ...OPERATOR,
  requestBody: { required: true, content: json(schemaRef('KeyPatch'), { example: { status: 'inactive' } }) },
  responses: {
    200: { description: 'The key as changed, without its secret.', content: json(schemaRef('Key')) },
    ...bodyErrors('Cannot update key', ADMIN_BODY_BYTES, {
      status: { summary: 'A status that does not exist', error: 'Cannot update key: status: expected union value' },
    }),
    404: disabled({ noKey: { summary: 'No such key', error: "Cannot update key: no key with id '3f1c2a9e-8b4d-4c6e-9f0a-1b2c3d4e5f60'" } }),
  },
})

export const getKey = operation({
  operationId: 'getKey',
  summary: 'Get a key with this month’s usage',
  description: 'The key (without its secret) with its counted fetches this UTC calendar month, its limit, and when the count resets.',
  ...OPERATOR,
  responses: {
    200: { description: 'The key and its usage.', content: json(schemaRef('KeyWithUsage')) },
    401: operator401,
    404: disabled({ noKey: { summary: 'No such key', error: "Key not found: no key with id '3f1c2a9e-8b4d-4c6e-9f0a-1b2c3d4e5f60'" } }),
  },
})

export const listTasks = operation({
  operationId: 'listTasks',
  summary: 'List recent tasks',
  description: 'The newest tasks first, without their results (fetch one with `GET /api/antibot/tasks/{task_id}` and a key). For operators watching a run whose page does not hand out its task id, such as a person’s browser in the detection matrix. Not counted against any key.',
  ...OPERATOR,
  parameters: [
    { name: 'tool', in: 'query', required: false, description: 'Only tasks of this tool.', schema: { type: 'string', example: 'bot-detector' } },
    { name: 'limit', in: 'query', required: false, description: 'At most this many tasks (1–100, default 20).', schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } },
  ],
  responses: {
    200: {
      description: 'The tasks, newest first.',
      content: json({
        type: 'array',
        items: {
          type: 'object',
          required: ['task_id', 'tool', 'score', 'created_at'],
          additionalProperties: false,
          properties: { task_id: { type: 'string', format: 'uuid' }, tool: { type: 'string' }, score: { type: 'integer', minimum: 0, maximum: 100 }, created_at: { type: 'string' } },
        },
      }),
    },
    401: operator401,
    404: disabled(),
    422: errorResponse('A query parameter is not valid.', {
      unknownTool: { summary: 'Unknown tool', error: "Cannot list tasks: unknown tool 'no-such-tool'" },
      limit: { summary: 'Limit out of range', error: "Cannot list tasks: limit must be a whole number from 1 to 100, got '500'" },
    }),
  },
})

// --- Operations ----------------------------------------------------------------------------

export const health = operation({
  operationId: 'health',
  summary: 'Health check',
  description: 'Answers 200 when the database answers within two seconds, 503 otherwise. Needs no authentication.',
  tags: ['Operations'],
  security: [],
  responses: {
    200: { description: 'The service and its database are up.', content: json(schemaRef('Health'), { example: { status: 'ok', database: 'ok' } }) },
    503: {
      description: 'The database did not answer.',
      headers: { 'Retry-After': { description: 'Seconds to wait before checking again.', schema: { type: 'integer', const: DATABASE_UNAVAILABLE.retryAfterSeconds } } },
      content: json(schemaRef('Health'), { example: { status: 'unavailable', database: 'unreachable' } }),
    },
  },
})
