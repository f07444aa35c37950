// Page nonces and the evidence listeners file under them (see db/schema.ts pageNonces,
// evidence). Every instance and every listener reads and writes them here, never in memory.

import { sql } from 'drizzle-orm'
import { boundEvidenceData, capEvidence, EVIDENCE_CAPS, type EvidenceKind } from '../src/evidence/caps'
import { rows, type Db } from './client'
import { pageNonces } from './schema'
import { storedResultsJson, type NewTask } from './tasks'

export type { EvidenceKind } from '../src/evidence/caps'

export interface EvidenceItem {
  kind: EvidenceKind
  data: unknown
  observedAt: string
}

/**
 * Stores a page's nonce. With `network` (the hashed network of the client the page is for) and
 * `maxUnused`, that network keeps at most `maxUnused` nonces that were never used: the oldest
 * ones beyond it, expired or not, are deleted with their evidence as this one is stored, so a
 * client that loads pages without running them holds a fixed number of rows whatever it loads,
 * and the page just rendered always gets a working nonce. An advisory lock on the network makes
 * issuances of one network take turns across connections and instances, so the bound is exact.
 * Returns how many nonces were evicted.
 */
export async function issueNonce(
  db: Db,
  args: { nonce: string; tool: string; turnSecret: string; now: Date; ttlSeconds: number; network?: string | undefined; maxUnused?: number | undefined },
): Promise<{ evicted: number }> {
  const row = {
    nonce: args.nonce,
    tool: args.tool,
    turnSecret: args.turnSecret,
    createdAt: args.now,
    expiresAt: new Date(args.now.getTime() + args.ttlSeconds * 1000),
    network: args.network ?? null,
  }
  const { network, maxUnused } = args
  if (network === undefined || maxUnused === undefined) {
    await db.insert(pageNonces).values(row)
    return { evicted: 0 }
  }
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${NONCE_NETWORK_LOCK}::int, hashtext(${network}))`)
    const evicted = await rows<{ nonce: string }>(
      tx,
      sql`delete from page_nonces where nonce in (
            select nonce from page_nonces where network = ${network} and used_at is null
            order by created_at desc, nonce desc offset ${Math.max(0, maxUnused - 1)}::int)
          returning nonce`,
    )
    await tx.insert(pageNonces).values(row)
    return { evicted: evicted.length }
  })
}

/** The first key of the advisory locks issueNonce takes per network (the second is the network's hash). */
const NONCE_NETWORK_LOCK = 7_202_612

/** What a listener needs to accept traffic for a nonce (e.g. the TURN password); null when unusable. */
export async function nonceForListener(db: Db, nonce: string, now: Date): Promise<{ tool: string; turnSecret: string } | null> {
  const [row] = await rows<{ tool: string; turn_secret: string }>(
    db,
    sql`select tool, turn_secret from page_nonces where nonce = ${nonce} and used_at is null and expires_at > ${now.toISOString()}::timestamptz`,
  )
  return row ? { tool: row.tool, turnSecret: row.turn_secret } : null
}

/**
 * What became of an observation: `filed` (stored), `dropped` (the nonce is live but its kind
 * is at its cap, or the item is too large even cut down: counted in
 * page_nonces.evidence_dropped, not stored), `no-nonce` (unknown, used or expired: nothing).
 */
export type FileOutcome = 'filed' | 'dropped' | 'no-nonce'

/**
 * Files an observation under a live nonce, within the caps of src/evidence/caps.ts: at most
 * `items` of its kind per nonce, each cut down to `itemBytes`. The nonce's row is locked first
 * (SELECT … FOR UPDATE), so that observations of one nonce take turns across connections and
 * instances: the count and the insert (or the dropped count's increment) are then one
 * statement that sees every earlier one, and the cap holds however many arrive at once.
 */
export async function fileEvidence(db: Db, args: { nonce: string; kind: EvidenceKind; data: unknown; now: Date }): Promise<FileOutcome> {
  const cap = EVIDENCE_CAPS[args.kind]
  const bounded = boundEvidenceData(args.data, cap.itemBytes)
  // An item that cannot be made to fit is counted like one over the cap: a limit of 0 items.
  const limit = bounded ? cap.items : 0
  const json = JSON.stringify(bounded ? bounded.data : null)
  const now = args.now.toISOString()
  return db.transaction(async (tx) => {
    const live = await rows<{ nonce: string }>(
      tx,
      sql`select nonce from page_nonces where nonce = ${args.nonce} and used_at is null and expires_at > ${now}::timestamptz for update`,
    )
    if (live.length === 0) return 'no-nonce'
    const [r] = await rows<{ filed: number }>(
      tx,
      sql`with filed as (
            insert into evidence (nonce, kind, data, observed_at)
            select ${args.nonce}, ${args.kind}, ${json}::jsonb, ${now}::timestamptz
            where (select count(*) from evidence where nonce = ${args.nonce} and kind = ${args.kind}) < ${limit}::int
            returning id),
          counted as (
            update page_nonces
            set evidence_dropped = jsonb_set(evidence_dropped, array[${args.kind}::text], to_jsonb(coalesce((evidence_dropped ->> ${args.kind}::text)::int, 0) + 1))
            where nonce = ${args.nonce} and not exists (select 1 from filed)
            returning nonce)
          select (select count(*) from filed)::int as filed`,
    )
    return r && r.filed > 0 ? 'filed' : 'dropped'
  })
}

/** Files an observation under a live nonce (fileEvidence); true when it was stored. */
export async function recordEvidence(db: Db, args: { nonce: string; kind: EvidenceKind; data: unknown; now: Date }): Promise<boolean> {
  return (await fileEvidence(db, args)) === 'filed'
}

export type NonceState = 'valid' | 'unknown' | 'expired' | 'used' | 'wrong-tool'

/**
 * The nonce's state for a submission, and its evidence when it is valid (oldest first), within
 * the caps (capEvidence); `dropped` counts per kind what the caps kept out.
 */
export async function readNonce(db: Db, args: { nonce: string; tool: string; now: Date }): Promise<{ state: NonceState; evidence: EvidenceItem[]; dropped: Record<string, number> }> {
  const result = await rows<{ tool: string; expired: boolean; used: boolean; evidence: string | null; dropped: string | null }>(
    db,
    sql`select n.tool, n.expires_at <= ${args.now.toISOString()}::timestamptz as expired, n.used_at is not null as used,
               (select json_agg(json_build_object('kind', e.kind, 'data', e.data,
                         'observedAt', to_char(e.observed_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"+00:00"')) order by e.id)::text
                from evidence e where e.nonce = n.nonce) as evidence,
               n.evidence_dropped::text as dropped
        from page_nonces n where n.nonce = ${args.nonce}`,
  )
  const row = result[0]
  if (!row) return { state: 'unknown', evidence: [], dropped: {} }
  if (row.tool !== args.tool) return { state: 'wrong-tool', evidence: [], dropped: {} }
  const { items: evidence, dropped } = capEvidence(
    row.evidence ? (JSON.parse(row.evidence) as EvidenceItem[]) : [],
    row.dropped ? (JSON.parse(row.dropped) as Record<string, number>) : {},
  )
  // A used nonce still shows its evidence (the page's own report after submitting); only a
  // submission refuses it.
  if (row.used) return { state: 'used', evidence, dropped }
  if (row.expired) return { state: 'expired', evidence: [], dropped: {} }
  return { state: 'valid', evidence, dropped }
}

/**
 * Stores the task and marks the nonce used, in one statement: the task row exists only if this
 * submission was the one that used the nonce. false: the nonce was used (or expired) meanwhile,
 * and nothing was stored.
 */
export async function insertTaskUsingNonce(db: Db, task: NewTask, nonce: string): Promise<boolean> {
  const inserted = await rows<{ id: string }>(
    db,
    sql`with n as (
          update page_nonces set used_at = ${task.createdAt.toISOString()}::timestamptz, task_id = ${task.id}::uuid
          where nonce = ${nonce} and used_at is null and expires_at > ${task.createdAt.toISOString()}::timestamptz
          returning nonce)
        insert into tasks (id, tool, score, ip_address, user_agent, results, created_at, fingerprint)
        select ${task.id}::uuid, ${task.tool}, ${task.score}::int, ${task.ipAddress}, ${task.userAgent},
               ${storedResultsJson(task.tool, task.results)}::jsonb, ${task.createdAt.toISOString()}::timestamptz, ${task.fingerprint ?? null}::text
        from n
        returning id::text`,
  )
  return inserted.length > 0
}

/**
 * Deletes expired nonces with their evidence: one that was never used as soon as it expired
 * (nothing can use it any more), a used one `graceSeconds` after it expired (its page may
 * still ask for its report).
 */
export async function purgeExpiredNonces(db: Db, now: Date, graceSeconds = 24 * 3600): Promise<number> {
  const deleted = await rows<{ nonce: string }>(
    db,
    sql`delete from page_nonces
        where (used_at is null and expires_at <= ${now.toISOString()}::timestamptz)
           or expires_at < ${new Date(now.getTime() - graceSeconds * 1000).toISOString()}::timestamptz
        returning nonce`,
  )
  return deleted.length
}
