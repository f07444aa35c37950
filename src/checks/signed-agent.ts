// Web Bot Auth (issue 60): a request signed with HTTP Message Signatures (RFC 9421) and naming
// its agent's key directory in Signature-Agent (draft-ietf-webbotauth-httpsig-protocol), as the
// cooperative AI browser agents and crawlers sign (OpenAI's ChatGPT agent, Cloudflare's browser
// service, Browserbase, Amazon's AgentCore). Verified in src/agents/verify.ts before judging
// (results.server.agent). A verified signature is automation by its own word, with its name; a
// signature that claims an agent and does not verify is a spoofing finding; a request without
// these headers — every person's browser — is not judged here (`na`), so it weighs nothing.

import { checkOn, na } from './define'

export const signedAgent = checkOn<Record<string, never>>()({
  id: 'signed-agent',
  name: 'The request is not signed as an automated agent',
  found: 'the request is signed as an automated agent, or claims to be one with a signature that does not verify',
  source: 'server',
  why: "Cooperative automated agents sign every request with HTTP Message Signatures (RFC 9421) and name their key directory in a Signature-Agent header (draft-ietf-webbotauth-httpsig-protocol, Web Bot Auth); commercial detectors read it as their strongest identification of an agent. The service verifies the signature against the key directory the header names (the key whose RFC 7638 thumbprint is the keyid, Ed25519, tag \"web-bot-auth\", created and expires at most 24 hours apart, the authority and the Signature-Agent covered). A valid signature proves which agent sent the request: automation, by its own declaration. A signature that claims an agent and does not verify (altered, expired, a key the directory does not have, a keyid that is not the key's thumbprint) is someone using an agent's name without its key. A person's browser sends none of these headers, so this check never applies to people; a signature whose directory cannot be read proves nothing either way and only warns.",
  ref: 'https://datatracker.ietf.org/doc/draft-ietf-webbotauth-httpsig-protocol/',
  expected: 'no Web Bot Auth signature (a person\'s browser signs nothing)',
  needs: [],
  judge: (_, { server }) => {
    const a = server.agent
    if (!a) return na('the request carries no HTTP message signature (no Signature, Signature-Input or Signature-Agent header)')
    if (a.state === 'verified') return { verdict: 'fail', observed: `signed by ${a.agent ?? a.directory} (key ${a.keyid}, directory ${a.directory})`, labels: ['signed-agent'] }
    if (a.state === 'invalid') return { verdict: 'fail', observed: `claims ${a.agent ?? 'an agent'}, but ${a.reason}`, labels: ['spoofed-agent'] }
    if (a.code === 'not-web-bot-auth') return { verdict: 'na', observed: a.reason ?? null, expected: 'a Web Bot Auth signature (tag "web-bot-auth") to judge; another use of HTTP message signatures is not judged' }
    return { verdict: 'warn', observed: `unverified: ${a.reason}` }
  },
})
