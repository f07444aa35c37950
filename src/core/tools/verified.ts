// What a task may present as the service's (issue 34). A submission is judged one of three
// ways (`Basis`), and that decides two things: which members of the submitted `results` the
// task keeps — only what the judging read; the service's own members (checks, summary,
// verdict, frameworks, server, …) are always the service's, so a client's are dropped — and
// whether the task is `verified`: only when the service's checks made the score, on a page
// load it can tie to the submission (the page's live single-use nonce). A body of the spec's
// shape is scored from its own `scoring` entries, so it is never verified, whatever nonce it
// carries; `results.unverified` says why a task is not.

import { Type, type Static } from '@sinclair/typebox'
import type { ServerObservation } from './observation'

/**
 * How the score was made: `signals`, the service's checks on the page's signals and on what it
 * observed; `unsent`, the service's checks on what it observed alone (a client that sent no
 * signals: every client check `na`); `spec`, the body's own `scoring` entries (bot-detector,
 * the interface spec's shape).
 */
export type Basis = 'signals' | 'unsent' | 'spec'

/** The members of the spec's bot-detector body the task keeps as sent (the client's word, and the spec's shape). */
export const SPEC_KEPT = ['leaks', 'navigator', 'screen', 'webgl', 'canvas', 'scoring'] as const

/** The submitted members each basis reads. `summary` of a spec body is read (its shape checked) and replaced by the one its entries give. */
const READ: Record<Basis, ReadonlySet<string>> = {
  signals: new Set(['signals']),
  unsent: new Set(),
  spec: new Set([...SPEC_KEPT, 'summary']),
}

/** At most this many dropped names are listed, each cut to MAX_NAME characters: a body may hold thousands. */
export const DROPPED_LISTED = 16
const MAX_NAME = 64

/**
 * The submitted members a task keeps (in the order sent), and the names of those it drops —
 * everything its basis does not read: the service's own members (`verdict`, `frameworks`,
 * `checks`, `ruleset`, `server`, `verified`, a tool's sections, `summary` beside signals) and
 * anything else.
 */
export function keptMembers(basis: Basis, submitted: Record<string, unknown>): { kept: Record<string, unknown>; dropped: string[] } {
  const kept: Record<string, unknown> = {}
  const dropped: string[] = []
  for (const [name, value] of Object.entries(submitted)) {
    if (!READ[basis].has(name)) {
      if (dropped.length < DROPPED_LISTED) dropped.push(name.length > MAX_NAME ? `${name.slice(0, MAX_NAME)}…` : name)
    } else if (name !== 'summary') kept[name] = value
  }
  return { kept, dropped }
}

export const UNVERIFIED_REASONS = {
  'client-scored': "scored from the body's own `scoring` entries: the client's word, whatever nonce it carried",
  'nonce-missing': 'no page nonce was sent',
  'nonce-unknown': 'the page nonce is unknown: never issued, expired and deleted, or replaced by later page loads',
  'nonce-expired': 'the page nonce had expired',
  'nonce-wrong-tool': "the page nonce was issued for another tool's page",
  'nonce-used': 'the page nonce was already used by another task',
} as const

export type UnverifiedCode = keyof typeof UNVERIFIED_REASONS

export const UnverifiedSchema = Type.Object(
  {
    code: Type.Union(
      Object.keys(UNVERIFIED_REASONS).map((c) => Type.Literal(c)),
      { description: '`client-scored`: a bot-detector body of the spec’s shape, scored from its own `scoring` entries (never verified); `nonce-missing`, `nonce-unknown`, `nonce-expired`, `nonce-wrong-tool`: the page nonce, as `server.nonce` says.' },
    ),
    reason: Type.String({ description: 'The same in one line, for a person.' }),
  },
  { description: 'Why the task is not verified. Present only when `verified` is false (absent on tasks stored before 2026-11-28).' },
)

export type Unverified = Static<typeof UnverifiedSchema>

const NONCE_CODES: Record<string, UnverifiedCode> = {
  missing: 'nonce-missing',
  unknown: 'nonce-unknown',
  expired: 'nonce-expired',
  'wrong-tool': 'nonce-wrong-tool',
  used: 'nonce-used',
}

/** Why a task is not the service's verified judgement; null when it is. A spec body's own scoring comes first: no nonce changes it. */
export function unverifiedOf(basis: Basis, nonce: ServerObservation['nonce']): Unverified | null {
  if (basis !== 'spec' && nonce === 'valid') return null
  const code: UnverifiedCode = basis === 'spec' ? 'client-scored' : (NONCE_CODES[nonce ?? 'missing'] ?? 'nonce-unknown')
  return { code, reason: UNVERIFIED_REASONS[code] }
}
