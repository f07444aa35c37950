// The JSON shapes of the HTTP API as TypeBox schemas. The operator API validates its request
// bodies with these; the task API validates by hand (src/core/task-input.ts) to give exact
// error texts, and these describe what it accepts and serves. The OpenAPI document
// (src/http/openapi.ts) publishes all of them as components.

import { Type, type TSchema } from '@sinclair/typebox'
import { BotDetectorSpecResults, resultsSchema, } from '../core/results'
import { TOOLS, type ToolId } from '../../common/tools'
import { VERDICTS } from '../core/scoring'
import { BOT_VERDICTS } from '../checks/automation-verdict'
import { SCORE_BANDS } from '../core/task-verdict'
import { IDENTITY_IDS } from '../core/compare'

/** Points at a published component; the document's test checks that every reference resolves. */
export const ref = <T = unknown>(name: string, options: Record<string, unknown> = {}) =>
  Type.Unsafe<T>({ $ref: `#/components/schemas/${name}`, ...options })

export const ErrorBody = Type.Object(
  { error: Type.String({ description: 'What could not be done, and why.' }) },
  { additionalProperties: false, description: 'The body of every error response.' },
)

/** An error body whose `error` is exactly one text. */
export const ExactError = (text: string) => Type.Object({ error: Type.Literal(text) }, { additionalProperties: false })

export const ToolIdSchema = Type.Union(
  TOOLS.map((t) => Type.Literal(t.id)),
  { description: `A tool identifier: ${TOOLS.map((t) => `\`${t.id}\` (${t.title})`).join(', ')}.` },
)

const Timestamp = (description: string) =>
  Type.String({
    format: 'date-time',
    pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\+00:00$',
    description: `${description} UTC, in the form \`YYYY-MM-DDTHH:MM:SS+00:00\` (no fractional seconds).`,
    examples: ['2026-11-15T12:00:00+00:00'],
  })

const Uuid = (description: string) =>
  Type.String({ format: 'uuid', minLength: 36, maxLength: 36, description, examples: ['3f1c2a9e-8b4d-4c6e-9f0a-1b2c3d4e5f60'] })

// --- Tasks ---------------------------------------------------------------------------------

export const CreateTaskBody = Type.Object(
  {
    tool: ToolIdSchema,
    results: ref<Record<string, unknown>>('SubmittedResults'),
  },
  { additionalProperties: false, description: 'A tool run to store. At most 64 KiB, nested at most 32 levels deep.' },
)

export const TaskCreated = Type.Object({ task_id: Uuid('Identifier of the new task (a version 4 UUID).') }, { additionalProperties: false })

export const Task = Type.Object(
  {
    task_id: Uuid('Unique identifier in UUID format (36 characters, hyphen-separated hex groups).'),
    tool: ToolIdSchema,
    score: Type.Integer({ minimum: 0, maximum: 100, description: 'Overall score, 0 to 100; equals `results.summary.score`.' }),
    ip_address: Type.String({
      description: 'IP address recorded for the run: the connecting address, or the client named in X-Forwarded-For when the request came through a trusted proxy (TRUSTED_PROXIES).',
    }),
    user_agent: Type.String({ description: 'User-Agent header of the submitting request.' }),
    results: ref('TaskResults'),
    created_at: Timestamp('When the task was created.'),
  },
  { additionalProperties: false, description: 'The stored result of one tool run.' },
)

export const Run = Type.Object(
  {
    run_id: Uuid('The run: the value of `data-run` on the run page (/run) once every task is stored.'),
    created_at: Timestamp('When its first task was stored.'),
    complete: Type.Boolean({ description: 'Whether every tool of `tools` has its task (false while the page still runs, or when a tool could not store one).' }),
    tools: Type.Array(ToolIdSchema, { description: 'The tools a run holds, in the order `tasks` follows.' }),
    tasks: Type.Array(ref('Task'), { description: 'Each tool’s task exactly as GET /api/antibot/tasks/{task_id} serves it, in the order of `tools`.' }),
  },
  { additionalProperties: false, description: 'The tasks one visit to /run stored, one per tool.' },
)

const Side = (which: string) =>
  Type.Object(
    {
      id: Uuid(`The ${which} run's or task's id, as given in \`${which}\`.`),
      kind: Type.Union([Type.Literal('run'), Type.Literal('task')], { description: 'Whether that id is a run (every tool of one visit) or a single task.' }),
    },
    { additionalProperties: false, description: `The ${which} side.` },
  )

const CheckVerdict = (side: string) =>
  Type.Union([...VERDICTS.map((v) => Type.Literal(v)), Type.Null()], { description: `The check's verdict on the ${side} side; null when that side's results do not have the check (another ruleset).` })

export const ComparedCheck = Type.Object(
  { id: Type.String({ description: 'The check’s id, as in the tool’s results.' }), name: Type.String({ description: 'What the check tests, in words.' }) },
  { additionalProperties: false, description: 'A check a comparison names.' },
)

export const CheckChange = Type.Object(
  { id: Type.String({ description: 'The check’s id.' }), name: Type.String({ description: 'What the check tests, in words.' }), base: CheckVerdict('base'), head: CheckVerdict('head') },
  { additionalProperties: false, description: 'A check whose verdict differs between the two sides.' },
)

const TaskSummary = (side: string) =>
  Type.Union(
    [
      Type.Object(
        {
          score: Type.Integer({ minimum: 0, maximum: 100, description: 'The task’s score, 0 to 100.' }),
          verdict: Type.Union([...['untested', ...BOT_VERDICTS, ...SCORE_BANDS].map((v) => Type.Literal(v))], { description: 'Its report’s headline as one word: bot-detector’s human, suspicious or bot; another tool’s band of its score (ordinary, suspicious, detected); untested when its main evidence was missing.' }),
        },
        { additionalProperties: false },
      ),
      Type.Null(),
    ],
    { description: `The ${side} task's score and verdict; null when the ${side} side has no task of this tool.` },
  )

const TaskIdOrNull = (side: string) => Type.Union([Uuid(`The ${side} side's task of this tool.`), Type.Null()], { description: `The ${side} side's task of this tool; null when it has none.` })
const Checks = (what: string) => Type.Array(ref('ComparedCheck'), { description: what })

export const ToolComparison = Type.Object(
  {
    tool: Type.String({ description: 'The tool’s id.' }),
    base_task_id: TaskIdOrNull('base'),
    head_task_id: TaskIdOrNull('head'),
    base: TaskSummary('base'),
    head: TaskSummary('head'),
    ruleset: Type.Object(
      {
        base: Type.Union([Type.String(), Type.Null()], { description: 'The ruleset the base task was judged under; null when it has none.' }),
        head: Type.Union([Type.String(), Type.Null()], { description: 'The ruleset the head task was judged under; null when it has none.' }),
        same: Type.Boolean({ description: 'Whether both were judged under one ruleset.' }),
      },
      { additionalProperties: false, description: 'The ruleset (checks, weights and code) of each side.' },
    ),
    changed: Type.Array(ref('CheckChange'), { description: 'The checks whose verdict changed (empty when the tool is on one side only).' }),
    new_failures: Checks('The checks that fail on the head side and did not on the base side (only `fail` counts; a warning is not a failure).'),
    fixed_failures: Checks('The checks that failed on the base side and no longer do.'),
    new_warnings: Checks('The checks that warn on the head side and did not on the base side.'),
  },
  { additionalProperties: false, description: 'One tool in a comparison; a tool on one side only has the other side null and no check lists.' },
)

export const IdentityChange = Type.Object(
  {
    id: Type.Union(IDENTITY_IDS.map((v) => Type.Literal(v)), { description: 'Which value: the user agent, JA4, the HTTP/2 fingerprint, the visitor id, a canvas hash or the audio sum.' }),
    name: Type.String({ description: 'The value’s name in words.' }),
    tool: Type.String({ description: 'The tool it was read from.' }),
    base: Type.Union([Type.String(), Type.Null()], { description: 'The value on the base side; null when that side did not have it.' }),
    head: Type.Union([Type.String(), Type.Null()], { description: 'The value on the head side; null when that side did not have it.' }),
  },
  { additionalProperties: false, description: 'An identity value that differs between the two sides.' },
)

const Count = (what: string) => Type.Integer({ minimum: 0, description: `How many checks ${what}, over every tool.` })

export const Comparison = Type.Object(
  {
    base: Side('base'),
    head: Side('head'),
    same_ruleset: Type.Boolean({ description: 'Whether every tool on both sides was judged under one ruleset; when false, a changed verdict may be the service’s change rather than the browser’s.' }),
    tools: Type.Array(ref('ToolComparison'), { description: 'Per tool, in the tools’ order: both tasks, their scores and verdicts, and the checks that changed.' }),
    identity: Type.Array(ref('IdentityChange'), { description: 'The identity values that changed (only those).' }),
    changed: Count('changed verdict'),
    new_failures: Count('newly fail'),
    fixed_failures: Count('no longer fail'),
    new_warnings: Count('newly warn'),
  },
  {
    additionalProperties: false,
    description: 'Two runs (or tasks) side by side: per tool, the checks whose verdict changed, new and fixed failures, the identity values that changed, and whether both were judged under one ruleset.',
  },
)

export const SignalsSubmission = Type.Object(
  {
    signals: Type.Optional(
      Type.Object({}, {
        additionalProperties: true,
        description: 'What the tool page collected, in the tool’s own shape; the service validates it and judges it. Omitted by clients that run no JavaScript.',
      }),
    ),
  },
  {
    additionalProperties: true,
    description: 'Results as the tool pages send them. The service derives `checks`, `summary` and the score itself; any sent by the client are replaced.',
  },
)

/** Component name of a tool's stored results, e.g. `ScreenDisplayResults`. */
function resultsComponentName(tool: ToolId): string {
  return `${tool.replace(/(^|-)([a-z])/g, (_, __, c: string) => c.toUpperCase())}Results`
}

/**
 * The results schemas as components, one per tool (`BotDetectorResults`, `IpLeakResults`, …),
 * each from resultsSchema(tool).
 */
export function resultsComponents(): Record<string, TSchema> {
  const components: Record<string, TSchema> = {}
  const names: string[] = []
  for (const { id } of TOOLS) {
    const name = resultsComponentName(id)
    components[name] = { ...resultsSchema(id), description: `Results of the \`${id}\` tool.` }
    names.push(name)
  }
  const mapping = TOOLS.map(({ id }) => `\`${id}\` → ${resultsComponentName(id)}`).join('; ')
  components.TaskResults = Type.Unsafe({
    anyOf: names.map((n) => ({ $ref: `#/components/schemas/${n}` })),
    description: `The tool's results; the shape depends on \`tool\`: ${mapping}. Every shape may carry more keys than it lists.`,
  })
  components.BotDetectorSubmission = { ...BotDetectorSpecResults, description: 'bot-detector results in the shape the interface spec shows (more keys allowed, but not kept: they are dropped and named in `results.dropped`). The service keeps the six sections as sent, recomputes `summary` from the scoring entries and adds `checks` and `server`. The score is then the client’s own word: the task is never `verified`, whatever nonce it carries (`results.unverified.code` is `client-scored`).' }
  components.SignalsSubmission = SignalsSubmission
  components.SubmittedResults = Type.Unsafe({
    type: 'object',
    anyOf: [{ $ref: '#/components/schemas/BotDetectorSubmission' }, { $ref: '#/components/schemas/SignalsSubmission' }],
    description:
      'For `bot-detector`: an object of the interface spec’s shape (BotDetectorSubmission), or signals. For the other tools: the signals their page collected (SignalsSubmission), or `{}` from a client that runs no JavaScript: the task is then judged on what the service observed (headers, address, and the listeners’ evidence under `nonce`), and every client-side check is `na`. The score is `results.summary.score` as the service computes it: from its own checks, or, for a BotDetectorSubmission, from the body’s `scoring` entries (never `verified`). Of `results` a task keeps only `signals` or a BotDetectorSubmission’s sections; any other member — `verdict`, `frameworks`, `checks`, `server`, `verified`, `summary` beside signals, a tool’s sections — is dropped (named in `results.dropped`), never stored as the service’s.',
  })
  return components
}

// --- Operator API --------------------------------------------------------------------------

/** What a plan's name may be: lower-case letters, digits, `-` and `_`. */
export const PLAN_NAME_PATTERN = '^[a-z0-9][a-z0-9_-]*$'

export const PlanInput = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 64, pattern: PLAN_NAME_PATTERN }),
    monthly_limit: Type.Integer({ minimum: 0, maximum: 2_000_000_000, description: 'Counted fetches allowed per UTC calendar month.' }),
    self_serve: Type.Optional(
      Type.Boolean({
        description:
          'Whether accounts may choose the plan for their own keys on the dashboard. Left out: `false` for a new plan, unchanged for an existing one. Operators can put a key on any plan either way.',
      }),
    ),
  },
  { additionalProperties: false },
)

export const KeyStatusSchema = Type.Union([Type.Literal('active'), Type.Literal('inactive')])

const ExpiryInput = Type.Union([Type.String(), Type.Null()], {
  description:
    'ISO 8601 timestamp (e.g. `2027-01-31T00:00:00Z`, or a date for midnight UTC) from 1970-01-01T00:00:00Z to 9999-12-31T23:59:59Z once in UTC; null for no expiry. The key stops working at that instant.',
})

export const KeyInput = Type.Object(
  {
    email: Type.String({
      minLength: 3,
      maxLength: 254,
      pattern: '^[^@\\s]+@[^@\\s]+$',
      description: 'Account the key belongs to; created (together with the key) when it does not exist. No control characters.',
    }),
    plan: Type.String({ minLength: 1, description: 'Name of an existing plan, self-serve or not.' }),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'A label for the key (default `default`); trimmed, not blank, no control characters or line breaks.' })),
    expires_at: Type.Optional(ExpiryInput),
  },
  { additionalProperties: false },
)

export const KeyPatch = Type.Object(
  {
    status: Type.Optional(KeyStatusSchema),
    expires_at: Type.Optional(ExpiryInput),
    plan: Type.Optional(Type.String({ minLength: 1, description: 'Name of an existing plan, self-serve or not.' })),
  },
  { additionalProperties: false },
)

export const Plan = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    monthly_limit: Type.Integer({ minimum: 0 }),
    self_serve: Type.Boolean({ description: 'Whether accounts may choose it on the dashboard.' }),
  },
  { additionalProperties: false },
)

const Expiry = Type.Union([Timestamp('When the key stops working.'), Type.Null()])

export const KeyCreated = Type.Object(
  {
    id: Uuid('Identifier of the key (not the secret).'),
    key: Type.String({ description: 'The API key. Shown only in this response; the service keeps only its SHA-256.', examples: ['ab_…'] }),
    prefix: Type.String({ description: 'The first characters of the key, to recognise it later.' }),
    plan: Type.String(),
    status: KeyStatusSchema,
    expires_at: Expiry,
    name: Type.String(),
    email: Type.String(),
  },
  { additionalProperties: false },
)

const keyFields = {
  id: Uuid('Identifier of the key (not the secret).'),
  name: Type.String(),
  email: Type.String(),
  prefix: Type.String(),
  last4: Type.String({ description: 'The last four characters of the key.' }),
  plan: Type.String(),
  status: KeyStatusSchema,
  expires_at: Expiry,
  created_at: Timestamp('When the key was created.'),
}

export const Key = Type.Object(keyFields, { additionalProperties: false, description: 'A key, without its secret.' })

export const KeyWithUsage = Type.Object(
  {
    ...keyFields,
    usage: Type.Object(
      {
        month: Type.String({ pattern: '^\\d{4}-\\d{2}$', description: 'The UTC calendar month counted, `YYYY-MM`.' }),
        used: Type.Integer({ minimum: 0, description: 'Successful fetches (200) this month through any of the account’s keys on this key’s plan: the one allowance the plan’s limit bounds.' }),
        key_used: Type.Integer({ minimum: 0, description: 'Of those, the fetches through this key.' }),
        limit: Type.Integer({ minimum: 0 }),
        remaining: Type.Integer({ minimum: 0 }),
        resets_at: Timestamp('When the count starts again (the first instant of next month).'),
        last_used_at: Type.Union([Timestamp('The last counted fetch.'), Type.Null()]),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false, description: 'A key with this month’s usage.' },
)

// --- Operations ----------------------------------------------------------------------------

export const Health = Type.Object(
  {
    status: Type.Union([Type.Literal('ok'), Type.Literal('unavailable')]),
    database: Type.Union([Type.Literal('ok'), Type.Literal('unreachable')]),
  },
  { additionalProperties: false },
)

/** Every published schema by component name. */
export function apiComponents(): Record<string, TSchema> {
  return {
    Error: ErrorBody,
    CreateTaskBody,
    TaskCreated,
    Task,
    Run,
    Comparison,
    ToolComparison,
    CheckChange,
    ComparedCheck,
    IdentityChange,
    ...resultsComponents(),
    PlanInput,
    Plan,
    KeyInput,
    KeyCreated,
    KeyPatch,
    Key,
    KeyWithUsage,
    Health,
  }
}
