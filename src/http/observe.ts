// What the service saw of a submission: the request itself, and — when the body carries the
// page's nonce — the nonce's state and what the service's listeners filed under it; then the
// TLS/HTTP2 fingerprints a trusted TLS-terminating proxy passed in headers, if configured.

import type { Db } from '../../db/client'
import { readNonce } from '../../db/nonces'
import type { Cidr } from '../core/ip'
import { formatTimestamp } from '../core/month'
import { isNonce } from '../core/nonce'
import { verifyProof } from '../core/page-proof'
import { PROOF_TOOLS } from '../../common/page-proof'
import { redactHeaderValue, redactUrl } from '../core/redact'
import type { ServerObservation } from '../core/tools/observation'
import { proxyFingerprintEvidence, type ProxyHeaderMap } from '../evidence/proxy-fingerprints'
import { observeRequest, peerIsTrustedProxy } from './client-ip'
import { mayBeSigned, signedRequestOf, type AgentVerifier } from '../agents/verify'

/**
 * The fingerprint headers to believe for this request: the configured ones when its socket
 * peer is a trusted proxy, none otherwise (anyone else could write them).
 */
export function believedFingerprintHeaders(
  server: { requestIP(request: Request): { address: string } | null } | null | undefined,
  request: Request,
  deps: { trustedProxies: readonly Cidr[]; tlsFingerprintHeaders?: ProxyHeaderMap | undefined },
): ProxyHeaderMap | null {
  if (!deps.tlsFingerprintHeaders) return null
  return peerIsTrustedProxy(server, request, deps.trustedProxies) ? deps.tlsFingerprintHeaders : null
}

export async function observeSubmission(
  db: Db,
  args: { request: Request; ip: string; now: Date; body: unknown; purpose: 'submit' | 'report'; fingerprintHeaders?: ProxyHeaderMap | null; agents?: AgentVerifier | undefined },
): Promise<ServerObservation> {
  const agent = await observeAgent(args.agents, args.request, args.now)
  const base = { ...observeRequest(args.request, args.ip, args.now), ...(agent ? { agent } : {}) }
  // After the listener's evidence, so that its own view of the handshake comes first and wins
  // (tlsEvidenceOf in src/checks/tls-views.ts). These describe the submitting
  // request's connection, so they need no nonce.
  const proxy = args.fingerprintHeaders
    ? proxyFingerprintEvidence(args.fingerprintHeaders, args.request.headers).map((item) => ({ ...item, observedAt: formatTimestamp(args.now) }))
    : []
  const withProxy = (o: ServerObservation): ServerObservation => (proxy.length ? { ...o, evidence: [...(o.evidence ?? []), ...proxy] } : o)
  const { nonce, tool, results } = (args.body ?? {}) as { nonce?: unknown; tool?: unknown; results?: unknown }
  // The page's answer to its layout challenge, judged against the challenge of its nonce when
  // that nonce is live (src/core/page-proof.ts).
  const sentProof = typeof results === 'object' && results !== null ? ((results as { signals?: unknown }).signals as { proof?: unknown } | undefined)?.proof : undefined
  const proofOf = (live: string | null) => {
    // Only the tools whose pages send the proof are judged on it.
    if (!(PROOF_TOOLS as readonly unknown[]).includes(tool)) return {}
    const p = verifyProof(live, typeof sentProof === 'object' || sentProof === undefined ? sentProof : null)
    return { proof: p.state, proofDetail: p.detail }
  }
  if (nonce === undefined) return withProxy({ ...base, nonce: 'missing', ...proofOf(null) })
  if (!isNonce(nonce) || typeof tool !== 'string') return withProxy({ ...base, nonce: 'unknown', ...proofOf(null) })
  // Judged only on the listener records of this client's own connections (src/evidence/binding.ts).
  const read = await readNonce(db, { nonce, tool, now: args.now, client: base.ip })
  // The page asks for its report after it has submitted: its nonce is used by then, and that
  // is the normal case for a report.
  const state = args.purpose === 'report' && read.state === 'used' ? 'valid' : read.state
  const dropped = Object.keys(read.dropped).length ? { evidenceDropped: read.dropped } : {}
  const elsewhere = read.elsewhere.length ? { evidenceElsewhere: read.elsewhere } : {}
  return withProxy({ ...base, nonce: state, evidence: withoutCredentials(read.evidence), ...dropped, ...elsewhere, ...proofOf(state === 'valid' ? nonce : null) })
}

/**
 * The request's Web Bot Auth signature (issue 60): verified when it carries any of its headers;
 * without a verifier (an app built without one) a signed request is said to be unverified.
 */
export async function observeAgent(agents: AgentVerifier | undefined, request: Request, now: Date): Promise<ServerObservation['agent']> {
  if (!mayBeSigned(request.headers)) return undefined
  if (!agents) return { state: 'unverified', code: 'directory', reason: 'this instance does not verify signatures', conformance: { form: 'none', covered: [], missing: [], nonce: false } }
  try {
    return (await agents.verify(signedRequestOf(request), now)) ?? undefined
  } catch (e) {
    // A fault of the verifier's own is no reason to refuse the page or the submission.
    console.error(`Cannot verify the request's agent signature: ${e instanceof Error ? e.message : String(e)}`)
    return { state: 'unverified', code: 'directory', reason: 'the signature could not be checked (a fault of this service)', conformance: { form: 'none', covered: [], missing: [], nonce: false } }
  }
}

/**
 * The TLS listener's 'http1' and 'http2' records hold the request head the page (or a curl)
 * sent it; they are stored with the task like the submitting request's headers, so the same
 * rules apply: credential-bearing header values become `(redacted)`, names and order stay, and
 * the path and User-Agent lose anything shaped like an API key.
 */
export function withoutCredentials(items: NonNullable<ServerObservation['evidence']>): NonNullable<ServerObservation['evidence']> {
  return items.map((item) => {
    const d = item.data
    if ((item.kind !== 'http1' && item.kind !== 'http2') || typeof d !== 'object' || d === null || Array.isArray(d)) return item
    const data: Record<string, unknown> = { ...(d as Record<string, unknown>) }
    if (Array.isArray(data.headers)) {
      data.headers = data.headers.map((h: unknown) => (Array.isArray(h) && typeof h[0] === 'string' && typeof h[1] === 'string' ? [h[0], redactHeaderValue(h[0], h[1]), ...h.slice(2)] : h))
    }
    if (typeof data.path === 'string') data.path = redactUrl(data.path)
    if (typeof data.user_agent === 'string') data.user_agent = redactHeaderValue('user-agent', data.user_agent)
    return { ...item, data }
  })
}
