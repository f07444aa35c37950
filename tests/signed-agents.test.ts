// Signed agents end to end (issue 60): the real service (`bun src/main.ts`), a key directory
// served over HTTPS by the test with a CA of its own (trusted as NODE_EXTRA_CA_CERTS, on
// 127.0.0.1 as AGENT_DIRECTORIES_ALLOW_PRIVATE=1 allows), and a plain HTTP client whose
// submissions are signed by the npm signers of both forms. A verified agent is named and judged
// a bot, a tampered or expired one is spoofed, an unsigned client is judged as before.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { makeAgentKey, signDictionary, signDirectory, signLegacy } from './support/agent-signers'
import { directoryResponse, startDirectoryServer, type DirectoryServer } from './support/directory-server'
import { startServer, type RunningServer } from './support/server'
import { humanChrome } from '../src/core/tools/bot-detector.fixture'

const DIR_PATH = '/.well-known/http-message-signatures-directory'

interface Task {
  results: {
    verdict?: string
    frameworks?: string[]
    checks: Array<{ id: string; verdict: string; observed: unknown }>
    server: { agent?: { state: string; code?: string; agent?: string; pinned?: boolean; directory?: string; keyid?: string; conformance: Record<string, unknown> } }
  }
}

describe('signed agents through the real service', () => {
  let dir: DirectoryServer
  let server: RunningServer
  let apiKey: string
  const key = makeAgentKey()
  beforeAll(async () => {
    dir = startDirectoryServer()
    dir.routes.set(DIR_PATH, async (req) => directoryResponse([key.publicJwk], { 'cache-control': 'max-age=300', ...(await signDirectory(req, key, Math.floor(Date.now() / 1000))) }))
    dir.routes.set('/elsewhere', () => new Response(null, { status: 301, headers: { location: `${dir.origin}${DIR_PATH}` } }))
    server = await startServer({ TLS_PORT: 'off', AGENT_DIRECTORIES_ALLOW_PRIVATE: '1', NODE_EXTRA_CA_CERTS: dir.caFile, AGENT_DIRECTORIES: `Test Agent=${dir.origin}` })
    apiKey = await server.makeKey()
  }, 90_000)
  afterAll(async () => {
    await server?.stop()
    dir?.stop()
  })

  async function submit(tool: string, headers: Record<string, string>): Promise<Task> {
    const res = await fetch(`${server.baseUrl}/api/antibot/tasks`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ tool, results: tool === 'bot-detector' ? { signals: humanChrome() } : {} }) })
    const created = (await res.json()) as { task_id?: string; error?: string }
    expect(created.error).toBeUndefined()
    const got = await fetch(`${server.baseUrl}/api/antibot/tasks/${created.task_id}`, { headers: { authorization: `Bearer ${apiKey}` } })
    return (await got.json()) as Task
  }
  const check = (t: Task, id: string) => t.results.checks.find((c) => c.id === id)!
  const now = () => Math.floor(Date.now() / 1000)
  const target = () => `${server.baseUrl}/api/antibot/tasks`

  test('a legacy-form signature (web-bot-auth) verifies: the pinned agent named, bot-detector says bot', async () => {
    const task = await submit('bot-detector', await signLegacy(target(), 'POST', key, { created: now(), agent: dir.origin }))
    expect(task.results.server.agent).toMatchObject({ state: 'verified', agent: 'Test Agent', pinned: true, directory: `${dir.origin}${DIR_PATH}`, keyid: key.keyid, conformance: { form: 'legacy', missing: [], directoryContentType: 'application/http-message-signatures-directory+json', keysAsSet: true, kidIsThumbprint: true, directorySigned: true } })
    expect(check(task, 'signed-agent')).toMatchObject({ verdict: 'fail', observed: expect.stringContaining('signed by Test Agent') })
    expect(task.results.verdict).toBe('bot')
    expect(task.results.frameworks).toContain('signed-agent')
  }, 30_000)

  test('a dictionary-form signature (http-message-sig) verifies on http-headers; the directory was fetched once', async () => {
    const task = await submit('http-headers', await signDictionary(target(), 'POST', key, { created: now(), agent: dir.origin }))
    expect(task.results.server.agent).toMatchObject({ state: 'verified', agent: 'Test Agent', conformance: { form: 'dictionary', agentType: 'jwks_uri' } })
    expect(check(task, 'signed-agent').verdict).toBe('fail')
    expect(dir.hits.get(DIR_PATH)).toBe(1)
  }, 30_000)

  test('tampered (signed for another path), expired, and an unknown key are spoofing findings', async () => {
    const tampered = await signDictionary(`${server.baseUrl}/api/other`, 'POST', key, { created: now(), agent: dir.origin })
    expect((await submit('bot-detector', tampered)).results.server.agent).toMatchObject({ state: 'invalid', code: 'bad-signature' })
    const expired = await submit('bot-detector', await signLegacy(target(), 'POST', key, { created: now() - 3600, agent: dir.origin }))
    expect(expired.results.server.agent).toMatchObject({ state: 'invalid', code: 'expired' })
    expect(expired.results.frameworks).toContain('spoofed-agent')
    expect(expired.results.verdict).toBe('bot')
    const stranger = await submit('bot-detector', await signLegacy(target(), 'POST', makeAgentKey(), { created: now(), agent: dir.origin }))
    expect(stranger.results.server.agent).toMatchObject({ state: 'invalid', code: 'unknown-key' })
  }, 30_000)

  test('a directory that redirects is not followed: unverified, and only warns', async () => {
    const task = await submit('bot-detector', await signLegacy(target(), 'POST', key, { created: now(), agent: `${dir.origin}/elsewhere` }))
    expect(task.results.server.agent).toMatchObject({ state: 'unverified', code: 'directory', agent: new URL(dir.origin).host })
    expect(check(task, 'signed-agent').verdict).toBe('warn')
  }, 30_000)

  test("the tool page's report says it in plain words, with the conformance for agent builders", async () => {
    const url = `${server.baseUrl}/tools/http-headers/report`
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...(await signLegacy(url, 'POST', key, { created: now(), agent: dir.origin })) }, body: JSON.stringify({ tool: 'http-headers', results: {} }) })
    const html = await res.text()
    expect(res.status).toBe(200)
    expect(html).toContain('data-agent-state="verified"')
    expect(html).toContain('This visit was signed by Test Agent: an automated agent that says who it is with a Web Bot Auth signature')
    expect(html).toContain('legacy form (a single quoted URL)')
  }, 30_000)

  test("a signed page load is said on the tool page and in /run's overview; an unsigned one says nothing", async () => {
    for (const path of ['/tools/bot-detector', '/run']) {
      const url = `${server.baseUrl}${path}`
      const html = await (await fetch(url, { headers: await signDictionary(url, 'GET', key, { created: now(), agent: dir.origin }) })).text()
      expect(html).toContain('<p class="card agent-notice" data-page-agent="verified">This page load was signed by Test Agent')
      expect(await (await fetch(url)).text()).not.toContain('data-page-agent')
    }
  }, 30_000)

  test('the OpenAPI document describes results.server.agent', async () => {
    const doc = JSON.stringify(await (await fetch(`${server.baseUrl}/openapi.json`)).json())
    for (const word of ['keysAsSet', 'kidIsThumbprint', 'keyid-not-thumbprint', 'signed-agent']) expect(doc).toContain(word)
  }, 30_000)

  test('an unsigned client is judged as before: no agent, the check na', async () => {
    const task = await submit('bot-detector', {})
    expect(task.results.server.agent).toBeUndefined()
    expect(check(task, 'signed-agent').verdict).toBe('na')
    expect(task.results.frameworks ?? []).not.toContain('signed-agent')
  }, 30_000)
})
