// A signed agent's card (issue 60): what the service found of the request's Web Bot Auth
// signature (results.server.agent, src/agents/verify.ts), said for a person, then, folded, the
// conformance report an agent builder reads (the form, the components covered against the
// draft's required ones, the lifetime, the directory's media type and keys).

import type { AgentOutcome } from '../../core/agent-outcome'

const FORM_WORDS = { dictionary: 'dictionary form (a member per signature, covered with its key)', legacy: 'legacy form (a single quoted URL)', none: 'no Signature-Agent header' } as const

/** The outcome stored in `results.server.agent`, when it has the shape the card reads. */
export function agentOf(server: unknown): AgentOutcome | null {
  const a = (server as { agent?: unknown } | undefined)?.agent as Partial<AgentOutcome> | undefined
  return a && typeof a === 'object' && typeof a.state === 'string' && a.conformance && typeof a.conformance === 'object' ? (a as AgentOutcome) : null
}

export function headlineOf(a: AgentOutcome): string {
  const who = a.agent ?? 'an automated agent'
  if (a.state === 'verified') return `This visit was signed by ${who}: an automated agent that says who it is with a Web Bot Auth signature, checked against the keys it publishes${a.pinned ? ' (an agent this service trusts by name)' : ''}.`
  if (a.state === 'invalid') return `This visit claims to come from ${who}, but its signature does not hold: ${a.reason ?? 'it does not verify'}. Sites treat that as someone using the agent's name without its key.`
  return `This visit carries an agent signature that proves nothing either way: ${a.reason ?? 'it could not be checked'}.`
}

function rows(a: AgentOutcome): Array<[string, string]> {
  const c = a.conformance
  const yes = (b: boolean | undefined, y: string, n: string) => (b === undefined ? 'not known' : b ? y : n)
  return [
    ['Signature-Agent', FORM_WORDS[c.form] + (c.agentType ? `, type ${c.agentType}` : '')],
    ['Covered', c.covered.length ? c.covered.join(' ') : 'nothing'],
    ['Required and not covered', c.missing.length ? c.missing.join(', ') : 'none'],
    ['Lifetime', c.lifetimeSeconds === undefined ? 'not known' : `${c.lifetimeSeconds} s${c.lifetimeSeconds > 86_400 ? ' (more than the 24 hours allowed)' : ''}`],
    ['Tag and algorithm', `${c.tag ?? 'no tag'}, ${c.alg ?? 'no alg parameter'}${c.nonce ? ', with a nonce' : ', no nonce'}`],
    ['Key directory', a.directory ?? 'none named'],
    ['Directory media type', c.directoryContentType ?? 'not read'],
    ['Keys served as a set', yes(c.keysAsSet, 'yes', 'no (a single key)')],
    ["Key's kid is its thumbprint", yes(c.kidIsThumbprint, 'yes', 'no')],
    ['Directory response signed by the key', yes(c.directorySigned, 'yes', 'no')],
    ['Key id', a.keyid ?? 'none'],
  ]
}

export function SignedAgentCard(props: { agent: AgentOutcome }): JSX.Element {
  const a = props.agent
  return (
    <figure class="picture agent-picture" data-picture="signed-agent" data-agent-state={a.state}>
      <p safe>{headlineOf(a)}</p>
      <details>
        <summary>For agent builders: how this signature conforms to the Web Bot Auth draft</summary>
        <dl class="agent-conformance">
          {rows(a).map(([k, v]) => (
            <>
              <dt safe>{k}</dt>
              <dd safe>{v}</dd>
            </>
          ))}
        </dl>
      </details>
    </figure>
  )
}

/** The page load's own signature (a signing agent signs its navigations too), above the tests. */
export function PageLoadAgent(props: { agent: AgentOutcome | null | undefined }): JSX.Element {
  const a = props.agent
  if (!a) return ''
  return (
    <p class="card agent-notice" data-page-agent={a.state} safe>
      {headlineOf(a).replace(/^This visit/, 'This page load')}
    </p>
  )
}
