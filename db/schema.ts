// The database schema. Migrations in db/migrations are generated from this file with
// `npm run db:generate` (drizzle-kit) and applied at start-up, on PGlite and PostgreSQL alike.

import { sql } from 'drizzle-orm'
import { boolean, check, index, integer, jsonb, pgTable, primaryKey, date, serial, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core'

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow()

export const plans = pgTable(
  'plans',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull().unique(),
    monthlyLimit: integer('monthly_limit').notNull(),
    /** Whether an account may choose it on the dashboard; an operator's new plan is not, unless the operator says so. */
    selfServe: boolean('self_serve').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [check('plans_monthly_limit_nonnegative', sql`${t.monthlyLimit} >= 0`)],
)

export const accounts = pgTable('accounts', {
  id: uuid('id').primaryKey().defaultRandom(),
  /** Stored lower-cased; unique. */
  email: text('email').notNull().unique(),
  /** argon2id (Bun.password); null for accounts created by an operator that never signed up. */
  passwordHash: text('password_hash'),
  createdAt: createdAt(),
})

export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
    planId: integer('plan_id').notNull().references(() => plans.id),
    name: text('name').notNull(),
    /** `ab_` and the first four characters: shown to recognise a key, useless to use it. */
    prefix: text('prefix').notNull(),
    last4: text('last4').notNull(),
    /** Hex SHA-256 of the whole key. The key itself is never stored. */
    keyHash: text('key_hash').notNull().unique(),
    status: text('status', { enum: ['active', 'inactive'] }).notNull().default('active'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    /**
     * Until when the key is refused for having asked for too many ids that do not exist (429):
     * set when a miss fills its window (rate_windows, scope task_miss), to that window's end, so
     * the keyed fetch reads it from the key's row instead of looking the window up every time.
     */
    missesBlockedUntil: timestamp('misses_blocked_until', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    check('api_keys_status_valid', sql`${t.status} in ('active', 'inactive')`),
    index('api_keys_account_idx').on(t.accountId),
  ],
)

/**
 * One row per key and UTC month: what the key itself fetched, for its owner's dashboard.
 * `count` is the number of successful (200) fetches, `daily[d]` counts day d. Not what the
 * limit counts: that is plan_usage, an account's allowance on a plan, which a key's deletion
 * does not take away (issue 57). Written in the statement that counts plan_usage (db/fetch.ts).
 */
export const keyUsage = pgTable(
  'key_usage',
  {
    keyId: uuid('key_id').notNull().references(() => apiKeys.id, { onDelete: 'cascade' }),
    month: date('month').notNull(),
    count: integer('count').notNull().default(0),
    daily: integer('daily').array().notNull(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.keyId, t.month] })],
)

/**
 * One allowance per account, plan and UTC month (issue 57): every key of the account on that
 * plan draws on it, so deleting, creating, rotating or deactivating keys never adds fetches.
 * `count` is the number of successful (200) fetches through any of those keys; the row is the
 * lock point of the atomic limit check (see db/fetch.ts). Kept when a key is deleted.
 */
export const planUsage = pgTable(
  'plan_usage',
  {
    accountId: uuid('account_id').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
    planId: integer('plan_id').notNull().references(() => plans.id),
    month: date('month').notNull(),
    count: integer('count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.planId, t.month] })],
)

export const tasks = pgTable(
  'tasks',
  {
    id: uuid('id').primaryKey(),
    tool: text('tool').notNull(),
    score: integer('score').notNull(),
    ipAddress: text('ip_address').notNull(),
    userAgent: text('user_agent').notNull(),
    results: jsonb('results').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    /**
     * The tool's stable identity hash of the submitting browser (browser-fingerprint: its
     * visitor id); null for other tools and for submissions without one. Counted by
     * countFingerprintSeen (db/tasks.ts) for browser-fingerprint's fp-commonness check.
     */
    fingerprint: text('fingerprint'),
    /**
     * What makes this page run this one and no other (issue 46): a hash of the submitted signals
     * with the page's nonce left out (src/core/run-digest.ts). A person's browser never submits
     * the same run twice (every probe's timing differs); a replay of a recorded submission does.
     * Null for submissions without a page's nonce or signals.
     */
    runDigest: text('run_digest'),
    /**
     * The run this task belongs to (issue 47): /run issues one nonce per tool under one run id
     * (page_nonces.run_id), and each tool's task takes it from its nonce as it is stored. Null
     * for tasks of a tool page.
     */
    runId: uuid('run_id'),
  },
  (t) => [
    // The tasks of one run, read by GET /api/antibot/runs/{id}. Partial: only runs' tasks.
    index('tasks_run_id_idx').on(t.runId).where(sql`${t.runId} is not null`),
    check('tasks_score_range', sql`${t.score} between 0 and 100`),
    // Equality on the run's digest: one index probe a page submission. Partial: only page runs.
    index('tasks_run_digest_idx').on(t.runDigest).where(sql`${t.runDigest} is not null`),
    index('tasks_created_at_idx').on(t.createdAt),
    // Equality on tool and fingerprint, then address, then time: the count of distinct addresses
    // skips from one address to the next (one index descent each), so one address storing a
    // visitor id a thousand times moves it by one and costs one step (issue 57). Partial, so the
    // other tools' tasks (null) cost it nothing.
    index('tasks_tool_fingerprint_address_idx').on(t.tool, t.fingerprint, t.ipAddress, t.createdAt).where(sql`${t.fingerprint} is not null`),
  ],
)

/**
 * Dashboard log-in sessions. The cookie carries a random token (src/core/session.ts); only its
 * SHA-256 is stored, so a copy of this table logs nobody in. Logout deletes the row.
 */
export const sessions = pgTable(
  'sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    accountId: uuid('account_id').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('sessions_account_idx').on(t.accountId), index('sessions_expires_at_idx').on(t.expiresAt)],
)

/**
 * Every fixed-window limit, one row per scope and subject (src/core/fixed-window.ts has the
 * rule, db/rate-windows.ts the atomic upsert). In PostgreSQL, not in memory, so that every app
 * instance shares the counts. Subjects are hashed or ids: what people type is not kept.
 * - `login_account`, `login_address`: log-in attempts per account (SHA-256 of the lower-cased
 *   email) and per client address (SHA-256 of the address), src/core/throttle.ts;
 * - `signup_address`: sign-ups per client address (SHA-256), src/auth/signup.ts;
 * - `task_create`: task submissions per client address (SHA-256), when TASK_RATE_LIMIT is set;
 * - `task_miss`: keyed fetches of task ids that do not exist, per key id.
 */
export const RATE_SCOPES = ['login_account', 'login_address', 'task_create', 'task_miss', 'signup_address'] as const

export const rateWindows = pgTable(
  'rate_windows',
  {
    scope: text('scope', { enum: RATE_SCOPES }).notNull(),
    subject: text('subject').notNull(),
    count: integer('count').notNull(),
    windowStartedAt: timestamp('window_started_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.scope, t.subject] }),
    check('rate_windows_scope_valid', sql`${t.scope} in ('login_account', 'login_address', 'task_create', 'task_miss', 'signup_address')`),
    index('rate_windows_window_idx').on(t.windowStartedAt),
  ],
)

/**
 * Single-use nonces issued with each tool page render (issue 7). The page submits its nonce
 * with its task; listeners (TLS, STUN/TURN, DNS) file what they observed under it. `turn_secret`
 * is the per-page TURN password (username = nonce), kept so that any instance's STUN listener
 * can check MESSAGE-INTEGRITY. `used_at` is set once, in the transaction that stores the task.
 */
export const pageNonces = pgTable(
  'page_nonces',
  {
    nonce: text('nonce').primaryKey(),
    tool: text('tool').notNull(),
    turnSecret: text('turn_secret').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    /**
     * When the page's own report (POST /tools/:tool/report) was given for the task stored with
     * this nonce: the one report a page asks for after storing its task is free; every other
     * judged report is charged to the client network's task budget (TASK_RATE_LIMIT, issue 57).
     */
    reportedAt: timestamp('reported_at', { withTimezone: true }),
    taskId: uuid('task_id'),
    /** Evidence the listeners observed for this nonce beyond its bounds: counted per kind ({"tls": 3}), not stored. */
    evidenceDropped: jsonb('evidence_dropped').$type<Record<string, number>>().notNull().default({}),
    /**
     * The address the page was loaded from (the socket peer, or X-Forwarded-For from
     * TRUSTED_PROXIES), so that the HTTPS listener's records from other addresses are capped
     * apart and cannot crowd out the page's own (src/evidence/binding.ts). Null on nonces issued
     * before it was kept.
     */
    clientIp: text('client_ip'),
    /**
     * The network of the client the page was rendered for (an IPv6 /64, src/core/ip.ts
     * networkKey), hashed like the rate-limit subjects: what the cap on never-used nonces per
     * network counts by (db/nonces.ts issueNonce). Null for nonces issued before it existed.
     */
    network: text('network'),
    /** The run (/run) this nonce was issued for, which its task joins; null for a tool page's. */
    runId: uuid('run_id'),
  },
  (t) => [
    index('page_nonces_expires_idx').on(t.expiresAt),
    index('page_nonces_unused_network_idx').on(t.network, t.createdAt).where(sql`${t.usedAt} is null`),
  ],
)

/** What a listener observed for a nonce: one row per observation, kind-specific JSON. */
export const evidence = pgTable(
  'evidence',
  {
    id: serial('id').primaryKey(),
    nonce: text('nonce')
      .notNull()
      .references(() => pageNonces.nonce, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['tls', 'http2', 'http1', 'stun', 'turn', 'dns'] }).notNull(),
    data: jsonb('data').notNull(),
    observedAt: timestamp('observed_at', { withTimezone: true }).notNull(),
    /**
     * For the HTTPS listener's records (tls, http2, http1): the address of the client whose
     * connection it was (socket peer; a trusted proxy's PROXY header or X-Forwarded-For). A task
     * is judged only on records of its own submitter's address (src/evidence/binding.ts). Null
     * for kinds bound otherwise (dns, stun, turn) and for records filed before it was kept.
     */
    clientIp: text('client_ip'),
    /** Filed from another network than the page load's (page_nonces.client_ip): capped apart. */
    away: boolean('away').notNull().default(false),
  },
  (t) => [index('evidence_nonce_idx').on(t.nonce)],
)

/**
 * Ed25519 keys that sign GET /api/antibot/tasks/{id} responses. In the database so that every
 * instance signs with the same key and serves the same JWKS; the newest key signs, all are
 * published (rotation keeps old signatures verifiable).
 */
export const signingKeys = pgTable('signing_keys', {
  kid: text('kid').primaryKey(),
  publicJwk: jsonb('public_jwk').notNull(),
  privatePkcs8: text('private_pkcs8').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
})

/**
 * How identifying a browser is (issue 48, src/core/uniqueness.ts, db/uniqueness.ts): each
 * distinct browser a tool saw in the window (the tool, its network and its combination of
 * attribute values, hashed), with the hashes of the values it is counted under. Written in the
 * statement that stores its task; deleted with its counts once not seen for the window.
 */
export const uniquenessBrowsers = pgTable(
  'uniqueness_browsers',
  {
    tool: text('tool').notNull(),
    browser: text('browser').notNull(),
    /** The range (IPv4 /24, IPv6 /48) hashed: what the flood bound counts by. */
    range: text('range').notNull(),
    shard: smallint('shard').notNull(),
    /** The counted names and value hashes, in pairs: the population, the combination, each attribute. */
    names: text('names').array().notNull(),
    vals: text('vals').array().notNull(),
    /** Moved forward at most hourly, so that a reloading browser costs no write on every load. */
    lastSeen: timestamp('last_seen', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tool, t.browser] }),
    index('uniqueness_browsers_last_seen_idx').on(t.lastSeen),
    // The asker's own range's browsers (at most the flood bound per tool), which the k floor leaves out (issue 59).
    index('uniqueness_browsers_range_idx').on(t.tool, t.range),
  ],
)

/**
 * Browsers per tool, counted name and value, in COUNT_SHARDS rows per value (the browser's
 * shard), so that a common value is not one hot row: a value's count is the sum of its rows.
 */
export const uniquenessCounts = pgTable(
  'uniqueness_counts',
  {
    tool: text('tool').notNull(),
    name: text('name').notNull(),
    value: text('value').notNull(),
    shard: smallint('shard').notNull(),
    browsers: integer('browsers').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tool, t.name, t.value, t.shard] })],
)

/** Browsers per tool and range (hashed), against the flood bound (UNIQUENESS_BROWSERS_PER_RANGE). */
export const uniquenessRanges = pgTable(
  'uniqueness_ranges',
  {
    tool: text('tool').notNull(),
    range: text('range').notNull(),
    browsers: integer('browsers').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tool, t.range] }),
    // Ranges without browsers (all gone, or none ever stored): what the purge deletes, by index.
    index('uniqueness_ranges_empty_idx').on(t.createdAt).where(sql`${t.browsers} <= 0`),
  ],
)

/**
 * Key directories of signed agents (issue 60, src/agents/directories.ts): what an instance read
 * from a Signature-Agent's directory URL, or why it could not, until `expires_at` (the
 * directory's Cache-Control, bounded; a failure for a minute). Shared by every instance, so that
 * a directory is fetched once for all of them.
 */
export const agentDirectories = pgTable('agent_directories', {
  url: text('url').primaryKey(),
  /** The directory's keys, media type and form; null when it could not be read. */
  body: jsonb('body'),
  /** Why it could not be read; null when it was. */
  failure: text('failure'),
  fetchedAt: timestamp('fetched_at', { withTimezone: true }).notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
})
