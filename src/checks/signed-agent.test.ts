// signed-agent on bot-detector and http-headers (issue 60): a verified Web Bot Auth signature
// makes a person-like browser a bot named by its agent, an invalid one is a spoofing finding, an
// unreadable directory only warns, and a request without the headers is judged as before.

import { describe, expect, test } from 'bun:test'
import { Value } from '@sinclair/typebox/value'
import type { AgentOutcome } from '../core/agent-outcome'
import { resultsSchema } from '../core/results'
import { chromeServer, failing, humanChrome, judge } from '../core/tools/bot-detector.fixture'
import type { ServerObservation } from '../core/tools/observation'

const conformance = { form: 'dictionary' as const, covered: ['"@authority"', '"signature-agent";key="agent1"'], missing: [], nonce: true }
const signed = (agent: AgentOutcome): ServerObservation => ({ ...chromeServer(), agent })
const VERIFIED: AgentOutcome = { state: 'verified', agent: 'Example Agent', pinned: true, directory: 'https://agent.example/.well-known/http-message-signatures-directory', keyid: 'abc', label: 'sig1', conformance }

describe('signed-agent', () => {
  test('a verified agent is a bot, named, whatever else the browser shows; the task validates', () => {
    const r = judge(humanChrome(), signed(VERIFIED))
    expect(r.byId('signed-agent')).toMatchObject({ verdict: 'fail', observed: expect.stringContaining('signed by Example Agent') })
    expect(r.sections.verdict).toBe('bot')
    expect(r.sections.frameworks).toEqual(['signed-agent'])
    expect(r.stored.server).toMatchObject({ agent: { state: 'verified', agent: 'Example Agent' } })
    expect([...Value.Errors(resultsSchema('bot-detector'), r.stored)].map((e) => `${e.path}: ${e.message}`)).toEqual([])
  })

  test('an invalid signature is a spoofing finding', () => {
    const r = judge(humanChrome(), signed({ state: 'invalid', code: 'expired', reason: 'the signature expired 900 s ago', agent: 'agent.example', conformance }))
    expect(r.byId('signed-agent')).toMatchObject({ verdict: 'fail', observed: 'claims agent.example, but the signature expired 900 s ago' })
    expect(r.sections.verdict).toBe('bot')
    expect(r.sections.frameworks).toEqual(['spoofed-agent'])
  })

  test('a directory that cannot be read only warns; another tag is not judged', () => {
    expect(judge(humanChrome(), signed({ state: 'unverified', code: 'directory', reason: 'the key directory could not be read: it answered 404, not 200', conformance })).byId('signed-agent').verdict).toBe('warn')
    expect(judge(humanChrome(), signed({ state: 'unverified', code: 'not-web-bot-auth', reason: 'the tag is "other"', conformance })).byId('signed-agent').verdict).toBe('na')
  })

  test('a person without the headers is judged exactly as before: na, nothing else changes', () => {
    const r = judge(humanChrome())
    expect(r.byId('signed-agent').verdict).toBe('na')
    expect(failing(r.checks)).toEqual([])
    expect(r.score).toBe(100)
    expect(r.sections.verdict).toBe('human')
    expect(r.stored.server).not.toHaveProperty('agent')
  })
})
