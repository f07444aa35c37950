// Every refused task body gets the route's JSON error on both ports, and the log and metrics
// say what happened (issues 45 and 50): a body over 64 KiB on the plain HTTP port, declared
// (Content-Length) or chunked, answered 413 `{"error":"Cannot create task: …"}` before it is
// read; logged as a 413, counted as a 413, never a 500 and never a stack trace. The same text on
// the HTTPS port (HTTP/1.1 and HTTP/2, through curl). A real start of `bun src/main.ts`.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { oversizedBodies } from './support/hostile'
import { startServer, type RunningServer } from './support/server'

const TOKEN = 'refused-bodies-metrics-0123456789'
const EXPECTED = '{"error":"Cannot create task: the body is larger than 65536 bytes"}'
let server: RunningServer
const dir = mkdtempSync(join(tmpdir(), 'antibot-refused-'))

beforeAll(async () => {
  server = await startServer({ LOG_REQUESTS: 'true', METRICS_TOKEN: TOKEN })
}, 120_000)
afterAll(async () => {
  await server?.stop()
  rmSync(dir, { recursive: true, force: true })
})

describe('a task body over 64 KiB', () => {
  test('on the plain port, declared and chunked: 413 with the route’s JSON, logged and counted as 413, no 500, no stack trace', async () => {
    const port = Number(new URL(server.baseUrl).port)
    const answers = [
      ...(await oversizedBodies(port, { count: 2, bytes: 200 * 1024, chunked: false, path: '/api/antibot/tasks' })),
      ...(await oversizedBodies(port, { count: 2, bytes: 200 * 1024, chunked: true, path: '/api/antibot/tasks' })),
    ]
    expect(answers).toEqual(Array(4).fill({ status: 413, body: EXPECTED }))
    const metrics = await (await fetch(`${server.baseUrl}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text()
    expect(metrics).toMatch(/antibot_http_requests_total\{route="\/api\/antibot\/tasks",method="POST",status="413"\} 4\b/)
    expect(metrics).not.toMatch(/antibot_http_requests_total\{route="\/api\/antibot\/tasks",method="POST",status="500"\}/)
    // The log lines come once per event-loop turn (src/log-lines.ts): wait for the four.
    for (let i = 0; i < 100 && (server.output().match(/POST \/api\/antibot\/tasks 413 /g) ?? []).length < 4; i++) await new Promise((r) => setTimeout(r, 50))
    expect((server.output().match(/POST \/api\/antibot\/tasks 413 /g) ?? []).length).toBe(4)
    expect(server.output()).not.toContain('exceeded maxRequestBodySize')
    expect(server.output()).not.toMatch(/^\s+at /m)
  })

  test('on the HTTPS port, HTTP/1.1 and HTTP/2: the same answer in the same words', () => {
    writeFileSync(join(dir, 'body.json'), `{"tool":"bot-detector","results":{"pad":"${'x'.repeat(200 * 1024)}"}}`)
    for (const version of ['--http1.1', '--http2']) {
      const out = execFileSync('curl', ['-sk', version, '-H', 'content-type: application/json', '--data-binary', `@${join(dir, 'body.json')}`, '-w', '\n%{http_code}', `${server.tlsUrl}/api/antibot/tasks`], { encoding: 'utf8' })
      expect(out).toBe(`${EXPECTED}\n413`)
    }
  })
})
