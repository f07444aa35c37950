// Page nonces and the evidence listeners file under them (see db/schema.ts pageNonces,
// evidence). Every instance and every listener reads and writes them here, never in memory.

import { sql } from 'drizzle-orm'
import { ADDRESS_BOUND_KINDS, AWAY_ITEMS, bindEvidence, isAway, type Elsewhere } from '../src/evidence/binding'
import { boundEvidenceData, capEvidence, EVIDENCE_CAPS, type EvidenceKind } from '../src/evidence/caps'
import { rawRows, rows, type Db } from './client'
import { pageNonces } from './schema'
import { taskRow, type NewTask } from './tasks'
import { sightingCtes, sightingParams, type Sighting } from './uniqueness'

export type { EvidenceKind } from '../src/evidence/caps'

export interface EvidenceItem {
  kind: EvidenceKind
  data: unknown
  observedAt: string
}

/**
 * Stores a page's nonce. `clientIp`: the address the page was loaded from (socket peer, or
 * X-Forwarded-For from a trusted proxy); the HTTPS listener's records from other networks are
 * capped apart. With `network` (the hashed network of the client the page is for) and
 * `maxUnused`, that network keeps at most `maxUnused` nonces that were never used: the oldest
 * ones beyond it, expired or not, are deleted with their evidence as this one is stored, so a
 * client that loads pages without running them holds a fixed number of rows whatever it loads,
 * and the page just rendered always gets a working nonce. An advisory lock on the network makes
 * issuances of one network take turns across connections and instances, so the bound is exact.
 * Returns how many nonces were evicted.
 */
export async function issueNonce(
  db: Db,
  args: { nonce: string; tool: string; turnSecret: string; now: Date; ttlSeconds: number; clientIp?: string | null; network?: string | undefined; maxUnused?: number | undefined },
): Promise<{ evicted: number }> {
  return issueNonces(db, { ...args, pages: [{ nonce: args.nonce, tool: args.tool, turnSecret: args.turnSecret }] })
}

/**
 * Stores the nonces of one page load as issueNonce stores one: a run page (/run) has one per
 * tool, under `runId`, which the tasks stored with them take (insertTaskUsingNonce). They count
 * together against `maxUnused`: the network's oldest never-used nonces beyond it, less the
 * ones stored now, are evicted, so a run never evicts its own.
 */
export async function issueNonces(
  db: Db,
  args: {
    pages: ReadonlyArray<{ nonce: string; tool: string; turnSecret: string }>
    runId?: string | undefined
    now: Date
    ttlSeconds: number
    clientIp?: string | null
    network?: string | undefined
    maxUnused?: number | undefined
  },
): Promise<{ evicted: number }> {
  const values = args.pages.map((p) => ({
    nonce: p.nonce,
    tool: p.tool,
    turnSecret: p.turnSecret,
    createdAt: args.now,
    expiresAt: new Date(args.now.getTime() + args.ttlSeconds * 1000),
    clientIp: args.clientIp ?? null,
    network: args.network ?? null,
    runId: args.runId ?? null,
  }))
  const { network, maxUnused } = args
  if (network === undefined || maxUnused === undefined) {
    await db.insert(pageNonces).values(values)
    return { evicted: 0 }
  }
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${NONCE_NETWORK_LOCK}::int, hashtext(${network}))`)
    const evicted = await rows<{ nonce: string }>(
      tx,
      sql`delete from page_nonces where nonce in (
            select nonce from page_nonces where network = ${network} and used_at is null
            order by created_at desc, nonce desc offset ${Math.max(0, maxUnused - values.length)}::int)
          returning nonce`,
    )
    await tx.insert(pageNonces).values(values)
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
 *
 * `clientIp`: for the HTTPS listener's records, the address of the client whose connection it
 * was. One from another network than the page load's is "away" (src/evidence/binding.ts) and
 * counts against AWAY_ITEMS of its kind instead, so it cannot take the page's own record's place.
 */
export async function fileEvidence(db: Db, args: { nonce: string; kind: EvidenceKind; data: unknown; now: Date; clientIp?: string | null }): Promise<FileOutcome> {
  const cap = EVIDENCE_CAPS[args.kind]
  const bounded = boundEvidenceData(args.data, cap.itemBytes)
  const json = JSON.stringify(bounded ? bounded.data : null)
  const now = args.now.toISOString()
  const clientIp = args.clientIp ?? null
  return db.transaction(async (tx) => {
    const live = await rows<{ client_ip: string | null }>(
      tx,
      sql`select client_ip from page_nonces where nonce = ${args.nonce} and used_at is null and expires_at > ${now}::timestamptz for update`,
    )
    if (live.length === 0) return 'no-nonce'
    const away = isAway(args.kind, clientIp, live[0]!.client_ip)
    // An item that cannot be made to fit is counted like one over the cap: a limit of 0 items.
    const limit = bounded ? (away ? AWAY_ITEMS : cap.items) : 0
    const [r] = await rows<{ filed: number }>(
      tx,
      sql`with filed as (
            insert into evidence (nonce, kind, data, observed_at, client_ip, away)
            select ${args.nonce}, ${args.kind}, ${json}::jsonb, ${now}::timestamptz, ${clientIp}::text, ${away}::boolean
            where (select count(*) from evidence where nonce = ${args.nonce} and kind = ${args.kind} and away = ${away}::boolean) < ${limit}::int
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
export async function recordEvidence(db: Db, args: { nonce: string; kind: EvidenceKind; data: unknown; now: Date; clientIp?: string | null }): Promise<boolean> {
  return (await fileEvidence(db, args)) === 'filed'
}

export type NonceState = 'valid' | 'unknown' | 'expired' | 'used' | 'wrong-tool'

/**
 * Records of other clients a nonce can hold: per address-bound kind, the page load's own
 * (its cap, when the submission comes from another address) and AWAY_ITEMS from elsewhere.
 */
const ELSEWHERE_LISTED = [...ADDRESS_BOUND_KINDS].reduce((n, k) => n + EVIDENCE_CAPS[k as EvidenceKind].items + AWAY_ITEMS, 0)

export interface NonceRead {
  state: NonceState
  /** The evidence the submitter is judged on: its own records, within the caps. */
  evidence: EvidenceItem[]
  dropped: Record<string, number>
  /** The HTTPS listener's records of other clients under this nonce: set aside, not judged. */
  elsewhere: Elsewhere[]
}

/**
 * The nonce's state for a submission from `client` (its address, as the task stores it before
 * IP_TRUNCATE), and its evidence when it is valid (oldest first): only what binds to that
 * client (src/evidence/binding.ts bindEvidence), within the caps (capEvidence); `dropped` counts
 * per kind what the caps kept out, `elsewhere` lists the records of other clients.
 */
export async function readNonce(db: Db, args: { nonce: string; tool: string; now: Date; client: string }): Promise<NonceRead> {
  const result = await rows<{ tool: string; expired: boolean; used: boolean; evidence: string | null; dropped: string | null }>(
    db,
    sql`select n.tool, n.expires_at <= ${args.now.toISOString()}::timestamptz as expired, n.used_at is not null as used,
               (select json_agg(json_build_object('kind', e.kind, 'data', e.data, 'clientIp', e.client_ip,
                         'observedAt', to_char(e.observed_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"+00:00"')) order by e.id)::text
                from evidence e where e.nonce = n.nonce) as evidence,
               n.evidence_dropped::text as dropped
        from page_nonces n where n.nonce = ${args.nonce}`,
  )
  const none = { evidence: [], dropped: {}, elsewhere: [] }
  const row = result[0]
  if (!row) return { state: 'unknown', ...none }
  if (row.tool !== args.tool) return { state: 'wrong-tool', ...none }
  const stored = row.evidence ? (JSON.parse(row.evidence) as Array<EvidenceItem & { clientIp: string | null }>) : []
  const { bound, elsewhere } = bindEvidence(stored, args.client)
  const { items, dropped } = capEvidence(
    bound.map(({ clientIp: _, ...item }) => item),
    row.dropped ? (JSON.parse(row.dropped) as Record<string, number>) : {},
  )
  // Filing keeps at most ELSEWHERE_LISTED of them; this holds for rows filed before that too.
  const read = { evidence: items, dropped, elsewhere: elsewhere.slice(0, ELSEWHERE_LISTED) }
  // A used nonce still shows its evidence (the page's own report after submitting); only a
  // submission refuses it.
  if (row.used) return { state: 'used', ...read }
  if (row.expired) return { state: 'expired', ...none }
  return { state: 'valid', ...read }
}

const insertUsingNonce = (sighting: boolean) => `
  with n as (update page_nonces set used_at = $7::timestamptz, task_id = $1::uuid
             where nonce = $10::text and used_at is null and expires_at > $7::timestamptz
             returning nonce, run_id),
  t as (insert into tasks (id, tool, score, ip_address, user_agent, results, created_at, fingerprint, run_digest, run_id)
        select $1::uuid, $2::text, $3::int, $4::text, $5::text, $6::jsonb, $7::timestamptz, $8::text, $9::text, n.run_id
        from n
        returning id)${sighting ? `,\n${sightingCtes(10)}` : ''}
  select (select count(*) from t)::int as stored`
export const INSERT_USING_NONCE = insertUsingNonce(false)
export const INSERT_USING_NONCE_WITH_SIGHTING = insertUsingNonce(true)

/**
 * Stores the task and marks the nonce used, in one statement: the task row exists only if this
 * submission was the one that used the nonce. A run's nonce gives the task its run id. With a
 * `sighting`, the same statement records it for the uniqueness figures (db/uniqueness.ts), so a
 * browser is counted only with a stored task. false: the nonce was used (or expired) meanwhile,
 * and nothing was stored.
 */
export async function insertTaskUsingNonce(db: Db, task: NewTask, nonce: string, sighting?: Sighting | null): Promise<boolean> {
  const params: unknown[] = [...taskRow(task), task.runDigest ?? null, nonce]
  if (sighting) params.push(...sightingParams(sighting))
  const [row] = await rawRows<{ stored: number }>(db, sighting ? INSERT_USING_NONCE_WITH_SIGHTING : INSERT_USING_NONCE, params)
  return Number(row?.stored ?? 0) > 0
}

/**
 * The page's own report (issue 57): true, once, for the nonce of a stored task of this tool
 * whose report was not given yet — the one report a page asks for after storing its task, which
 * is free. Marked in the same statement (page_nonces.reported_at), so two reports of one task
 * never both pass as its own, on any instance; every other report is charged to the task budget.
 */
export async function claimOwnReport(db: Db, args: { nonce: string; tool: string; now: Date }): Promise<boolean> {
  const claimed = await rows<{ one: number }>(
    db,
    sql`update page_nonces set reported_at = ${args.now.toISOString()}::timestamptz
        where nonce = ${args.nonce} and tool = ${args.tool} and task_id is not null and reported_at is null
        returning 1 as one`,
  )
  return claimed.length === 1
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
