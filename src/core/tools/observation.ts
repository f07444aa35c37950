// What the server itself saw of the request that submitted a task (or asked for a report).
// Built by the HTTP layer from the request; tools judge it next to the page's signals, and
// checks that use it are marked `source: 'server'`.

import { Type, type Static } from '@sinclair/typebox'
import { AgentOutcomeSchema } from '../agent-outcome'

/** The states of ServerObservation.proof. */
export const PROOF_STATES = ['valid', 'wrong', 'missing', 'no-nonce'] as const
export type ProofState = (typeof PROOF_STATES)[number]

/** One piece of evidence: what a listener filed under the page nonce, or what a trusted proxy passed. */
export function EvidenceItemSchema() {
  return Type.Object({
    kind: Type.String(),
    data: Type.Unknown(),
    observedAt: Type.String(),
    source: Type.Optional(Type.Union([Type.Literal('listener'), Type.Literal('proxy')], { description: "`proxy`: read from the headers of a trusted TLS-terminating proxy (TLS_FINGERPRINT_HEADERS); absent: the service's own listener." })),
  })
}

/** A record of the HTTPS listener filed under the page's nonce by another client than the submitting one. */
export function ElsewhereSchema() {
  return Type.Object({
    kind: Type.String({ description: '`tls`, `http2` or `http1`.' }),
    address: Type.Union([Type.String(), Type.Null()], { description: 'The client address the record was filed from (null: filed before addresses were kept).' }),
    observedAt: Type.String(),
  })
}

export const ServerObservationSchema = Type.Object({
  ip: Type.String({ description: 'Client address (socket peer, or X-Forwarded-For from trusted proxies).' }),
  userAgent: Type.String(),
  /**
   * Header names and values: names lower-cased, in the order the HTTP stack gives them (not
   * wire order: Bun's Request.headers lists names alphabetically; wire order and case come from
   * the raw listener).
   */
  headers: Type.Array(Type.Tuple([Type.String(), Type.String()])),
  /** Server clock at receipt, ms since the epoch. */
  receivedAt: Type.Number(),
  /**
   * The page nonce's state: `valid` when the submission carried a live nonce issued with the
   * page (then `evidence` holds what the service's listeners filed under it), `missing` when it
   * carried none, otherwise why it was not accepted.
   */
  nonce: Type.Optional(Type.Union(['valid', 'missing', 'unknown', 'expired', 'used', 'wrong-tool'].map((s) => Type.Literal(s)))),
  /**
   * Observations of the service's own listeners (TLS, HTTP/2, STUN/TURN, DNS) for this page,
   * then the fingerprints a trusted TLS-terminating proxy passed in headers (`source: 'proxy'`,
   * src/evidence/proxy-fingerprints.ts). Items without `source` are the listeners'.
   */
  evidence: Type.Optional(Type.Array(EvidenceItemSchema())),
  /**
   * Observations per kind the listeners saw for this page but did not keep: beyond the caps of
   * src/evidence/caps.ts (items per kind, bytes per item). Absent when nothing was dropped.
   */
  evidenceDropped: Type.Optional(Type.Record(Type.String(), Type.Integer({ minimum: 1 }))),
  /**
   * The HTTPS listener's records under this page's nonce that came from another client than the
   * submitting one (another address; for IPv6 another /64): set aside, not in `evidence`, not
   * judged (src/evidence/binding.ts). Absent when there were none.
   */
  evidenceElsewhere: Type.Optional(Type.Array(ElsewhereSchema())),
  /**
   * Whether the page proved it ran in a browser engine for this page load (src/core/page-proof.ts):
   * `valid`, the layout challenge derived from this submission's live nonce was answered as only
   * laying it out gives; `wrong`, an answer that is not this page load's; `missing`, no answer sent;
   * `no-nonce`, no live nonce to derive the challenge from. Absent on tasks stored before it existed.
   */
  proof: Type.Optional(Type.Union(PROOF_STATES.map((s) => Type.Literal(s)))),
  /** What the proof's verification found, one line (which boxes were off, or why none were judged). */
  proofDetail: Type.Optional(Type.String()),
  /** The request's Web Bot Auth signature (src/agents/verify.ts, issue 60); absent when it carried none of its headers. */
  agent: Type.Optional(AgentOutcomeSchema()),
})

/** The observations of one kind, listeners' first, then a proxy's. */
export function evidenceOf(obs: Pick<ServerObservation, 'evidence'>, kind: string): unknown[] {
  // A loop, not filter and map: a submission's judging asks this some twenty times.
  const data: unknown[] = []
  for (const e of obs.evidence ?? []) if (e.kind === kind) data.push(e.data)
  return data
}
export type ServerObservation = Static<typeof ServerObservationSchema>

export function header(obs: Pick<ServerObservation, 'headers'>, name: string): string | undefined {
  const n = name.toLowerCase()
  return obs.headers.find(([k]) => k === n)?.[1]
}

/** Headers that only appear when a proxy sits between the client and us. */
export const PROXY_HEADERS = ['via', 'forwarded', 'x-forwarded-for', 'x-real-ip', 'true-client-ip', 'client-ip', 'x-proxy-id', 'x-forwarded-host', 'x-forwarded-proto', 'cf-connecting-ip', 'fastly-client-ip', 'x-cluster-client-ip'] as const
