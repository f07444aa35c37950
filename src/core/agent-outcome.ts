// What the service found of a request's Web Bot Auth signature (issue 60; src/agents/): stored in
// the task as `results.server.agent`, judged by the signed-agent check, shown on the pages.

import { Type, type Static } from '@sinclair/typebox'

/** Why a signature is `invalid` or `unverified`. */
export const AGENT_CODES = [
  // invalid: the request claims an agent, and the claim does not hold
  'malformed',
  'tag',
  'algorithm',
  'no-created',
  'no-expires',
  'expired',
  'not-yet-valid',
  'lifetime',
  'no-keyid',
  'missing-component',
  'unknown-key',
  'keyid-not-thumbprint',
  'bad-signature',
  // unverified: nothing to hold against the request, nothing proved either
  'unsigned-claim',
  'no-agent',
  'not-web-bot-auth',
  'directory',
  'budget',
] as const
export type AgentCode = (typeof AGENT_CODES)[number]

export function AgentConformanceSchema() {
  return Type.Object(
    {
      form: Type.Union([Type.Literal('dictionary'), Type.Literal('legacy'), Type.Literal('none')], { description: "`dictionary`: Signature-Agent as a Dictionary whose member the signature covers with `;key`; `legacy`: a single String (earlier drafts); `none`: no Signature-Agent." }),
      agentType: Type.Optional(Type.String({ description: "The Signature-Agent member's `type` parameter, as sent." })),
      covered: Type.Array(Type.String(), { description: 'The covered components, as serialized in Signature-Input.' }),
      missing: Type.Array(Type.String(), { description: 'Components the draft requires that the signature does not cover (`@authority` or `@target-uri`; `signature-agent` when the header is sent).' }),
      lifetimeSeconds: Type.Optional(Type.Number({ description: '`expires` minus `created`; the draft allows at most 86400.' })),
      tag: Type.Optional(Type.String()),
      alg: Type.Optional(Type.String()),
      nonce: Type.Boolean({ description: 'Whether the signature has a `nonce` parameter.' }),
      directoryContentType: Type.Optional(Type.String({ description: "The directory response's Content-Type (the draft's is application/http-message-signatures-directory+json)." })),
      keysAsSet: Type.Optional(Type.Boolean({ description: 'Whether the directory is a JWK Set (`{"keys": [...]}`).' })),
      kidIsThumbprint: Type.Optional(Type.Boolean({ description: "Whether the matching key's `kid` (when it has one) is its RFC 7638 thumbprint." })),
      directorySigned: Type.Optional(Type.Boolean({ description: 'Whether the directory response carries a valid signature by the matching key (tag "http-message-signatures-directory", over `"@authority";req`), as the directory draft asks.' })),
    },
    { description: 'How the request conforms to draft-ietf-webbotauth-httpsig-protocol, for agent builders.' },
  )
}

export function AgentOutcomeSchema() {
  return Type.Object(
    {
      state: Type.Union([Type.Literal('verified'), Type.Literal('invalid'), Type.Literal('unverified')], {
        description: '`verified`: signed by a key of the named directory; `invalid`: claims an agent and the signature does not hold (a spoofing finding); `unverified`: nothing proved (no signature, or a directory that could not be read).',
      }),
      code: Type.Optional(Type.Union(AGENT_CODES.map((c) => Type.Literal(c)), { description: 'Why it is not verified.' })),
      reason: Type.Optional(Type.String({ description: 'The same in words.' })),
      agent: Type.Optional(Type.String({ description: "The agent's name: the operator's name for a pinned directory (AGENT_DIRECTORIES), else the directory's host." })),
      pinned: Type.Optional(Type.Boolean({ description: 'Whether the directory is one the operator pinned.' })),
      directory: Type.Optional(Type.String({ description: 'The key directory URL the Signature-Agent names.' })),
      keyid: Type.Optional(Type.String()),
      label: Type.Optional(Type.String({ description: 'The signature label judged.' })),
      created: Type.Optional(Type.Number()),
      expires: Type.Optional(Type.Number()),
      conformance: AgentConformanceSchema(),
    },
    { description: "The request's Web Bot Auth signature (HTTP Message Signatures with Signature-Agent), present when it carried Signature, Signature-Input or Signature-Agent." },
  )
}
export type AgentOutcome = Static<ReturnType<typeof AgentOutcomeSchema>>
export type AgentConformance = AgentOutcome['conformance']
