// The HTTP port's idle closes as docs/operations.md says them (issue 50): a connection that
// sends nothing and one that trickles a request head are closed by Bun's own request-head
// timeout (10–14 s, whatever STALL_TIMEOUT_MS); a kept-alive connection idle after a request by
// STALL_TIMEOUT_MS (Bun's idleTimeout). How long each took is printed (the docs give the ranges
// measured); nothing here asserts a time, only that the service closed each, within a wait
// bounded from the timeouts with room for a busy machine.

import { afterAll, beforeAll, expect, test } from 'bun:test'
import { connect } from 'node:net'
import { startServer, type RunningServer } from './support/server'

const STALL_MS = 3000
let server: RunningServer
beforeAll(async () => {
  server = await startServer({ STALL_TIMEOUT_MS: String(STALL_MS) })
}, 120_000)
afterAll(() => server?.stop())

/**
 * Opens a connection that first sends `request` (a whole one, then waits for its answer), then
 * writes `bytes` one a second (none: silent); resolves with whether the service closed it, and
 * when (from the answer, or from the start).
 */
function held(bytes: string, request = ''): Promise<{ closedByServer: boolean; afterMs: number }> {
  let t0 = performance.now()
  return new Promise((resolve) => {
    let i = 0
    const s = connect(Number(new URL(server.baseUrl).port), '127.0.0.1', () => request && s.write(request))
    let answered = false
    s.on('data', () => {
      if (!answered) t0 = performance.now()
      answered = true
    })
    const ticker = setInterval(() => i < bytes.length && s.writable && s.write(bytes[i++]!), 1000)
    const wait = setTimeout(() => {
      clearInterval(ticker)
      s.destroy()
      resolve({ closedByServer: false, afterMs: performance.now() - t0 })
    }, 30_000 + STALL_MS * 4)
    s.on('error', () => {})
    s.on('close', () => {
      clearTimeout(wait)
      clearInterval(ticker)
      resolve({ closedByServer: true, afterMs: performance.now() - t0 })
    })
  })
}

test('a silent connection, a trickled head and a kept-alive idle connection on the HTTP port are each closed by the service', async () => {
  const [silent, trickled, idle] = await Promise.all([held(''), held(`GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Long: ${'a'.repeat(200)}`), held('', 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')])
  console.log(`plain port, STALL_TIMEOUT_MS ${STALL_MS}: silent connection closed after ${(silent.afterMs / 1000).toFixed(1)} s, trickled head after ${(trickled.afterMs / 1000).toFixed(1)} s, kept-alive idle after ${(idle.afterMs / 1000).toFixed(1)} s`)
  expect(silent.closedByServer).toBe(true)
  expect(trickled.closedByServer).toBe(true)
  expect(idle.closedByServer).toBe(true)
}, 90_000)
