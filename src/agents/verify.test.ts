import { describe, expect, test } from 'bun:test'
import { makeAgentKey, signDictionary, signLegacy, type AgentKey } from '../../tests/support/agent-signers'
import type { DirectoryLookup, Lookup } from './directories'
import { createAgentVerifier } from './verify'
import { observeAgent } from '../http/observe'

const URL_ = 'https://antibot.test/tools/bot-detector?x=1'
const AGENT = 'https://agent.example'
const DIR = 'https://agent.example/.well-known/http-message-signatures-directory'
const NOW = 1_900_000_000
const now = new Date(NOW * 1000)

function directoryOf(keys: unknown[], seen: string[] = []): DirectoryLookup {
  return {
    lookup: async (url): Promise<Lookup> => {
      seen.push(url)
      return url === DIR ? { ok: true, keys, contentType: 'application/http-message-signatures-directory+json', asSet: true, maxAgeSeconds: 60 } : { ok: false, reason: 'it answered 404, not 200' }
    },
  }
}

const request = (headers: Record<string, string>, url = URL_, method = 'GET') => ({ method, url, header: (n: string) => headers[n.toLowerCase()] ?? null })

const key: AgentKey = makeAgentKey()
const other: AgentKey = makeAgentKey()
const verifier = createAgentVerifier({ directories: directoryOf([other.publicJwk, key.publicJwk]), pinned: new Map([[DIR, 'Example Agent']]) })

describe('Web Bot Auth verification', () => {
  test('an unsigned request has no outcome, and costs no lookup', async () => {
    const seen: string[] = []
    const v = createAgentVerifier({ directories: directoryOf([], seen) })
    expect(await v.verify(request({ 'user-agent': 'x' }), now)).toBeNull()
    expect(seen).toEqual([])
  })

  test('verifies the legacy form (web-bot-auth) and names the pinned agent', async () => {
    const h = await signLegacy(URL_, 'GET', key, { created: NOW - 10, agent: AGENT })
    const out = await verifier.verify(request(h), now)
    expect(out).toMatchObject({ state: 'verified', agent: 'Example Agent', pinned: true, directory: DIR, keyid: key.keyid, conformance: { form: 'legacy', missing: [], lifetimeSeconds: 300, tag: 'web-bot-auth', keysAsSet: true, kidIsThumbprint: true, directorySigned: false } })
    expect(out!.conformance.covered).toEqual(['"@authority"', '"signature-agent"'])
  })

  test('verifies the dictionary form (http-message-sig) with its member key and type', async () => {
    const h = await signDictionary(URL_, 'POST', key, { created: NOW - 10, agent: AGENT })
    const out = await verifier.verify(request(h, URL_, 'POST'), now)
    expect(out).toMatchObject({ state: 'verified', label: 'sig1', conformance: { form: 'dictionary', agentType: 'jwks_uri', covered: ['"@method"', '"@authority"', '"@path"', '"signature-agent";key="agent1"'] } })
  })

  test('an unpinned directory is named by its host', async () => {
    const v = createAgentVerifier({ directories: directoryOf([key.publicJwk]) })
    const out = await v.verify(request(await signLegacy(URL_, 'GET', key, { created: NOW, agent: AGENT })), now)
    expect(out).toMatchObject({ state: 'verified', agent: 'agent.example', pinned: false })
  })

  test('a tampered request is invalid: another authority, another method, another agent', async () => {
    const h = await signDictionary(URL_, 'POST', key, { created: NOW, agent: AGENT })
    expect(await verifier.verify(request(h, 'https://elsewhere.test/tools/bot-detector', 'POST'), now)).toMatchObject({ state: 'invalid', code: 'bad-signature' })
    expect(await verifier.verify(request(h, URL_, 'GET'), now)).toMatchObject({ state: 'invalid', code: 'bad-signature' })
    const sig = h.signature!.replace(/:(.)/, (_, c: string) => `:${c === 'A' ? 'B' : 'A'}`)
    expect(await verifier.verify(request({ ...h, signature: sig }), now)).toMatchObject({ state: 'invalid', code: 'bad-signature' })
    const claimed = h['signature-agent']!.replace('jwks_uri', 'other')
    expect(await verifier.verify(request({ ...h, 'signature-agent': claimed }), now)).toMatchObject({ state: 'invalid', code: 'bad-signature' })
  })

  test('expired, not yet valid, and a lifetime over 24 hours are invalid before any lookup', async () => {
    const seen: string[] = []
    const v = createAgentVerifier({ directories: directoryOf([key.publicJwk], seen) })
    expect(await v.verify(request(await signLegacy(URL_, 'GET', key, { created: NOW - 1000, agent: AGENT })), now)).toMatchObject({ state: 'invalid', code: 'expired' })
    expect(await v.verify(request(await signLegacy(URL_, 'GET', key, { created: NOW + 600, agent: AGENT })), now)).toMatchObject({ state: 'invalid', code: 'not-yet-valid' })
    const long = await v.verify(request(await signLegacy(URL_, 'GET', key, { created: NOW - 10, lifetime: 86_401, agent: AGENT })), now)
    expect(long).toMatchObject({ state: 'invalid', code: 'lifetime', conformance: { lifetimeSeconds: 86_401 } })
    expect(seen).toEqual([])
  })

  test('a key not in the directory, and a keyid that is not the thumbprint, are invalid', async () => {
    const stranger = makeAgentKey()
    expect(await verifier.verify(request(await signLegacy(URL_, 'GET', stranger, { created: NOW, agent: AGENT })), now)).toMatchObject({ state: 'invalid', code: 'unknown-key' })
    const named = { ...key.publicJwk, kid: 'my-key' }
    const v = createAgentVerifier({ directories: directoryOf([named]) })
    const h = await signDictionary(URL_, 'GET', key, { created: NOW, agent: AGENT, keyid: 'my-key' })
    expect(await v.verify(request(h), now)).toMatchObject({ state: 'invalid', code: 'keyid-not-thumbprint', conformance: { kidIsThumbprint: false } })
  })

  test('a signature that leaves out the authority or the Signature-Agent is invalid', async () => {
    const h = await signDictionary(URL_, 'GET', key, { created: NOW, agent: AGENT, components: ['@method', '@path'] })
    expect(await verifier.verify(request(h), now)).toMatchObject({ state: 'invalid', code: 'missing-component', conformance: { missing: ['@authority', 'signature-agent'] } })
  })

  test('a covered header the request does not carry is invalid', async () => {
    const h = await signDictionary(URL_, 'GET', key, { created: NOW, agent: AGENT })
    const { 'signature-agent': _, ...rest } = h
    const out = await verifier.verify(request({ ...rest, 'signature-agent': 'other="https://agent.example"' }), now)
    expect(out?.state).toBe('invalid')
  })

  test('another tag without an agent claim is unverified, with one it is invalid', async () => {
    const h = await signDictionary(URL_, 'GET', key, { created: NOW, agent: AGENT, tag: 'other' })
    expect(await verifier.verify(request(h), now)).toMatchObject({ state: 'invalid', code: 'tag' })
    const { 'signature-agent': _, ...plain } = h
    expect(await verifier.verify(request(plain), now)).toMatchObject({ state: 'unverified', code: 'not-web-bot-auth' })
  })

  test('a Signature-Agent without a signature, or a directory that cannot be read, is unverified', async () => {
    expect(await verifier.verify(request({ 'signature-agent': '"https://agent.example"' }), now)).toMatchObject({ state: 'unverified', code: 'unsigned-claim' })
    const h = await signLegacy(URL_, 'GET', key, { created: NOW, agent: 'https://missing.example' })
    expect(await verifier.verify(request(h), now)).toMatchObject({ state: 'unverified', code: 'directory', reason: 'the key directory could not be read: it answered 404, not 200' })
  })

  test('a signature without Signature-Agent is unverified: the key is never looked up by key id alone', async () => {
    const h = await signDictionary(URL_, 'GET', key, { created: NOW, agent: AGENT, components: ['@authority'] })
    const { 'signature-agent': _, ...plain } = h
    expect(await verifier.verify(request(plain), now)).toMatchObject({ state: 'unverified', code: 'no-agent', conformance: { form: 'none' } })
  })

  test('malformed headers are invalid, never a throw', async () => {
    for (const h of [{ 'signature-input': 'sig1=("@authority"', signature: 'sig1=:AAAA:' }, { 'signature-input': 'sig1=("@authority");tag="web-bot-auth"', signature: 'nope' }, { 'signature-input': '', signature: '', 'signature-agent': '(' }] as Array<Record<string, string>>) {
      expect((await verifier.verify(request(h), now))?.state).toBe('invalid')
    }
  })
})

describe('observing a request (src/http/observe.ts)', () => {
  const signedRequest = async () => new Request(URL_, { headers: await signLegacy(URL_, 'GET', key, { created: NOW, agent: AGENT }) })
  test('unsigned: nothing; without a verifier or with a faulty one: unverified, never a throw', async () => {
    expect(await observeAgent(verifier, new Request(URL_), now)).toBeUndefined()
    expect(await observeAgent(undefined, await signedRequest(), now)).toMatchObject({ state: 'unverified', reason: 'this instance does not verify signatures' })
    const faulty = { verify: async () => Promise.reject(new Error('boom')) }
    const err = console.error
    console.error = () => {}
    try {
      expect(await observeAgent(faulty, await signedRequest(), now)).toMatchObject({ state: 'unverified', code: 'directory' })
    } finally {
      console.error = err
    }
    expect(await observeAgent(verifier, await signedRequest(), now)).toMatchObject({ state: 'verified' })
  })
})
