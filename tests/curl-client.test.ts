// A client that runs no JavaScript, end to end with curl itself: it loads a tool page for its
// nonce, opens the TLS evidence listener, submits results without signals, and reads the task
// back with a key. The task must hold the fingerprint of the connection curl really made.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { execFile } from 'node:child_process'
import { SPEC_EXAMPLE_RESULTS } from '../src/core/tools/bot-detector.fixture'
import { startServer, type RunningServer } from './support/server'

function curl(args: string[]): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile('curl', ['-s', '-m', '20', ...args], { timeout: 30_000 }, (err, stdout, stderr) => (err ? reject(new Error(`curl ${args.join(' ')}: ${stderr || err.message}`)) : resolve(stdout))),
  )
}

interface Task {
  score: number
  user_agent: string
  results: {
    verified: boolean
    unverified?: { code: string; reason: string }
    verdict?: string
    dropped?: string[]
    checks: Array<{ id: string; verdict: string; source: string; observed: unknown }>
    tls: { ja4: string | null; family: string | null }
    http2: { akamai: string | null; family: string | null }
    server: { nonce: string; evidence: Array<{ kind: string; data: Record<string, unknown> }> }
  }
}

describe('curl as the client (no JavaScript, no signals)', () => {
  let server: RunningServer
  let key: string
  beforeAll(async () => {
    server = await startServer({ TLS_PORT: '0' })
    key = await server.makeKey()
  }, 90_000)
  afterAll(async () => server?.stop())

  async function submit(tool: string, nonce?: string): Promise<Task> {
    const body = JSON.stringify(nonce ? { tool, results: {}, nonce } : { tool, results: {} })
    const created = JSON.parse(await curl(['-X', 'POST', `${server.baseUrl}/api/antibot/tasks`, '-H', 'content-type: application/json', '--data-binary', body])) as { task_id?: string; error?: string }
    expect(created.error).toBeUndefined()
    return JSON.parse(await curl(['-H', `authorization: Bearer ${key}`, `${server.baseUrl}/api/antibot/tasks/${created.task_id}`])) as Task
  }

  test('tls-fingerprint: the task holds the JA4 and HTTP/2 fingerprint of curl’s own connection, judged as an OpenSSL client', async () => {
    const page = await curl([`${server.baseUrl}/tools/tls-fingerprint`])
    const nonce = /data-nonce="([a-z2-7]{26})"/.exec(page)![1]!
    const port = /data-tls-port="(\d+)"/.exec(page)![1]!
    // What the listener answers is what it filed: curl's ClientHello and HTTP/2 preface.
    const seen = JSON.parse(await curl(['-k', '--http2', `https://127.0.0.1:${port}/evidence/${nonce}`])) as { recorded: boolean; ja4: string; akamai: string }
    expect(seen.recorded).toBe(true)
    expect(seen.ja4).toMatch(/^t13i\d{4}h2_/)

    const task = await submit('tls-fingerprint', nonce)
    expect(task.user_agent).toMatch(/^curl\//)
    expect(task.results.verified).toBe(true)
    expect(task.results.tls).toMatchObject({ ja4: seen.ja4, family: 'openssl' })
    expect(task.results.http2).toMatchObject({ akamai: seen.akamai, family: 'openssl' })
    const by = Object.fromEntries(task.results.checks.map((c) => [c.id, c]))
    // curl says it is curl, and its handshake is an HTTP library's: consistent. It is not a browser.
    expect(by['claimed-browser']!.verdict).toBe('fail')
    for (const id of ['transport-tls', 'ja4', 'ja3', 'http2-fingerprint']) expect(by[id]!.verdict, id).toBe('pass')
    for (const c of task.results.checks.filter((c) => c.source === 'client')) expect(c.verdict, c.id).toBe('na')
    // The same nonce cannot be used again.
    const again = await curl(['-o', '/dev/null', '-w', '%{http_code}', '-X', 'POST', `${server.baseUrl}/api/antibot/tasks`, '-H', 'content-type: application/json', '--data-binary', JSON.stringify({ tool: 'tls-fingerprint', results: {}, nonce })])
    expect(again).toBe('409')
  }, 60_000)

  test('http-headers without a nonce: stored unverified, and curl’s headers give it away', async () => {
    const task = await submit('http-headers')
    expect(task.results.verified).toBe(false)
    expect(task.results.server.nonce).toBe('missing')
    const by = Object.fromEntries(task.results.checks.map((c) => [c.id, c]))
    expect(by['ua-automation']!.verdict).toBe('fail')
    expect(by['browser-headers-present']!.verdict).toBe('fail')
    expect(task.score).toBeLessThan(50)
  }, 30_000)

  // What README and docs/api.md ("`verified`: what the server vouches for") say of this body:
  // its checks are its own `scoring` entries, so its score is the client's word, and the task
  // says so through `verified` and each check's `source`.
  test('a bot-detector body of the spec’s shape: scored from its own entries (100), unverified, every check the client’s', async () => {
    const body = JSON.stringify({
      tool: 'bot-detector',
      results: SPEC_EXAMPLE_RESULTS,
    })
    const created = JSON.parse(await curl(['-X', 'POST', `${server.baseUrl}/api/antibot/tasks`, '-H', 'content-type: application/json', '--data-binary', body])) as { task_id: string }
    const task = JSON.parse(await curl(['-H', `authorization: Bearer ${key}`, `${server.baseUrl}/api/antibot/tasks/${created.task_id}`])) as Task
    expect(task.score).toBe(100)
    expect(task.results.verified).toBe(false)
    expect(task.results.unverified?.code).toBe('client-scored')
    expect(task.results.server.nonce).toBe('missing')
    expect(task.results.checks.map((c) => [c.id, c.source, c.verdict])).toEqual([
      ['webdriver', 'client', 'pass'],
      ['selenium', 'client', 'pass'],
      ['phantomjs', 'client', 'pass'],
    ])
  }, 30_000)

  // Issue 34, black box on the real listener: a client says it is HeadlessChrome, takes the
  // page's live nonce and posts the spec's body, all `pass`, with its own verdict. Stored (the
  // spec's contract), but neither verified nor served with that verdict.
  test('HeadlessChrome with the page’s live nonce, a spec body all `pass` and "verdict": "human": not verified, no verdict of the client’s', async () => {
    const ua = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36'
    const page = await curl(['-A', ua, `${server.baseUrl}/tools/bot-detector`])
    const nonce = /data-nonce="([a-z2-7]{26})"/.exec(page)![1]!
    const results = {
      summary: { total: 3, passed: 3, failed: 0, warnings: 0, score: 100 },
      leaks: { webdriver: false, selenium: false, phantomjs: false },
      navigator: { userAgent: ua, platform: 'Linux x86_64', language: 'en-US' },
      screen: { width: 1920, height: 1080, colorDepth: 24 },
      webgl: { vendor: 'Google Inc.', renderer: 'ANGLE' },
      canvas: { hash: 'a1b2c3' },
      scoring: { webdriver: 'pass', selenium: 'pass', phantomjs: 'pass' },
      verdict: 'human',
    }
    const created = JSON.parse(await curl(['-A', ua, '-X', 'POST', `${server.baseUrl}/api/antibot/tasks`, '-H', 'content-type: application/json', '--data-binary', JSON.stringify({ tool: 'bot-detector', results, nonce })])) as { task_id: string }
    const task = JSON.parse(await curl(['-H', `authorization: Bearer ${key}`, `${server.baseUrl}/api/antibot/tasks/${created.task_id}`])) as Task
    expect(task.user_agent).toBe(ua)
    expect(task.results.server.nonce).toBe('valid')
    expect(task.results.verified).toBe(false)
    expect(task.results.unverified?.code).toBe('client-scored')
    expect(task.results.verdict).toBeUndefined()
    expect(task.results.dropped).toEqual(['verdict'])
  }, 30_000)
})
