// The STUN/TURN evidence listener (issue 7) in Debian's Chromium: the server is started with
// STUN_PORT=0 (a free UDP port, rendered into the pages as data-stun-port); the webrtc-leak and
// vpn-detector pages use it as their ICE server with per-page TURN credentials, and the task
// carries the browser's UDP source address as the service saw it.

import { expect, test, type Page } from '@playwright/test'
import { startServer, type RunningServer } from './support/server'

let server: RunningServer
let key: string

test.beforeAll(async () => {
  server = await startServer({ STUN_PORT: '0' })
  key = await server.makeKey()
})
test.afterAll(async () => server?.stop())

interface Check { id: string; verdict: string; source: string; observed: unknown; expected: string }
interface Evidence { kind: string; data: Record<string, unknown>; observedAt: string }
interface Task {
  score: number
  results: {
    checks: Check[]
    verdict: string
    verified: boolean
    pending?: unknown[]
    server: { ip: string; evidence?: Evidence[] }
    signals: { ice: { ok: boolean; value?: { servers?: string[]; errors: Array<{ code: number; url: string }>; gatheringMs: number; candidates: string[] } } }
  }
}

async function run(page: Page, tool: string): Promise<{ task: Task; byId: Record<string, Check> }> {
  await page.goto(`${server.baseUrl}/tools/${tool}`)
  const id = await page.locator('body[data-task]').getAttribute('data-task', { timeout: 30_000 })
  const res = await fetch(`${server.baseUrl}/api/antibot/tasks/${id}`, { headers: { authorization: `Bearer ${key}` } })
  expect(res.status).toBe(200)
  const task = (await res.json()) as Task
  return { task, byId: Object.fromEntries(task.results.checks.map((c) => [c.id, c])) }
}

test('webrtc-leak: the TURN listener files the browser’s UDP source under the page nonce and the checks use it', async ({ page }) => {
  const port = await (async () => {
    await page.goto(`${server.baseUrl}/tools/webrtc-leak`)
    return page.locator('body').getAttribute('data-stun-port')
  })()
  expect(Number(port)).toBeGreaterThan(0)
  const { task, byId } = await run(page, 'webrtc-leak')
  const evidence = task.results.server.evidence ?? []
  const turn = evidence.filter((e) => e.kind === 'turn')
  expect(turn.length).toBeGreaterThan(0)
  expect(turn[0]!.data).toMatchObject({ transport: 'udp', requestedTransport: 17, family: 'IPv4' })
  expect(typeof turn[0]!.data.address).toBe('string')
  expect(turn[0]!.data.port).toBeGreaterThan(0)
  expect(task.results.verified).toBe(true)

  const ice = task.results.signals.ice.value!
  expect(ice.servers).toEqual([`turn:127.0.0.1:${port}?transport=udp`, `stun:127.0.0.1:${port}`])
  // The listener records and refuses to relay: one 403 for the TURN URL, no relay candidate.
  expect(ice.errors.map((e) => e.code)).toContain(403)
  expect(ice.candidates.some((c) => / typ relay /.test(c))).toBe(false)

  for (const id of ['stun-observed-address', 'turn-relay-address']) {
    expect(byId[id]!.verdict, id).not.toBe('na')
    expect(byId[id]!.source).toBe('server')
  }
  // Server and browser on one machine: the UDP source is this machine's address as the kernel
  // chose it (loopback, or the interface Chromium bound), never a public one: no leak.
  expect(byId['turn-relay-address']!.verdict).toBe('pass')
  expect(byId['stun-observed-address']!.verdict).toBe('pass')
  expect(task.results.pending).toEqual([])
  expect(task.results.verdict).not.toContain('Not tested')
  test.info().annotations.push({ type: 'evidence', description: JSON.stringify({ http: task.results.server.ip, evidence, turnCheck: byId['turn-relay-address']!.observed, stunCheck: byId['stun-observed-address']!.observed }) })
  // The checks are folded (issue 58): a link to the row opens them.
  await page.evaluate(() => (location.hash = '#check-turn-relay-address'))
  await expect(page.getByRole('region', { name: 'Results' }).locator('tr[data-check="turn-relay-address"]')).toBeVisible()
})

test('vpn-detector: the WebRTC check is the service’s when the TURN listener saw the browser', async ({ page }) => {
  const { task, byId } = await run(page, 'vpn-detector')
  expect((task.results.server.evidence ?? []).some((e) => e.kind === 'turn')).toBe(true)
  expect(byId['webrtc-vs-http']!.source).toBe('server')
  expect(byId['webrtc-vs-http']!.verdict).toBe('pass')
})

test('a page whose script changed the TURN password gets no evidence, and the checks say nothing reached the service', async ({ page }) => {
  await page.addInitScript(() => {
    const Native = window.RTCPeerConnection
    window.RTCPeerConnection = function RTCPeerConnection(config?: RTCConfiguration) {
      return new Native({ ...config, iceServers: (config?.iceServers ?? []).map((s) => (s.credential ? { ...s, credential: 'forged' } : s)) })
    } as unknown as typeof RTCPeerConnection
  })
  const { task, byId } = await run(page, 'webrtc-leak')
  expect((task.results.server.evidence ?? []).filter((e) => e.kind === 'turn')).toEqual([])
  expect(byId['turn-relay-address']!.observed).toMatchObject({ seenByService: [] })
})
