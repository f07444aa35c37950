// The TCP SYN as evidence (issue 49), with real SYNs from real kernels: the test makes network
// namespaces joined to this one by veth pairs (traffic only between its own namespaces and the
// host's end of each pair; every namespace and link removed at the end), tunes the client's
// stack in one of them (net.ipv4.ip_default_ttl=128, tcp_timestamps=0, a route's advmss 1380),
// and runs curl and Chromium in them against the service's HTTPS listener on the host's end:
// - the evidence shows exactly what the tuned stack sent (TTL 128, DF, Linux's layout without
//   timestamps, MSS 1380), and tcp-mss warns of the reduced MSS;
// - a stack without SACK and window scaling shows exactly that;
// - a Chromium that claims Windows over this machine's Linux stack is judged a mismatch
//   (tcp-syn-os warns, on its page too, and in bot-detector); the same Chromium claiming Linux passes.
// Root and iproute2 are needed (the gate runs as root; Debian's iproute2 is in every image).

import { execFileSync } from 'node:child_process'
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, expect, test } from '@playwright/test'
import { requirePrerequisite } from './support/prerequisites'
import { startServer, type RunningServer } from './support/server'

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium'
const WINDOWS_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36'
const LINUX_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36'

/** A namespace of this test, joined to the host by a veth pair on 10.213.<n>.0/30 (host .1, namespace .2). */
interface Netns {
  name: string
  host: string
  exec(cmd: string[]): string
}

const suffix = `${process.pid % 10000}`
const made: string[] = []
const ip = (...args: string[]) => execFileSync('ip', args, { encoding: 'utf8' })

function makeNetns(n: number, tune: string[][] = []): Netns {
  const name = `ab-syn-${suffix}-${n}`
  const hostIf = `abs${suffix}h${n}`
  const nsIf = `abs${suffix}n${n}`
  const net = `10.213.${(process.pid % 200) + n}`
  ip('netns', 'add', name)
  made.push(name)
  ip('link', 'add', hostIf, 'type', 'veth', 'peer', 'name', nsIf)
  ip('link', 'set', nsIf, 'netns', name)
  ip('addr', 'add', `${net}.1/30`, 'dev', hostIf)
  ip('link', 'set', hostIf, 'up')
  const exec = (cmd: string[]) => execFileSync('ip', ['netns', 'exec', name, ...cmd], { encoding: 'utf8' })
  // IPv4 only, as the tests are: without this the kernel gives each new link an IPv6 link-local
  // address a second or two after it comes up (duplicate address detection), and a Chromium
  // started in the namespace meanwhile sees its network change and fails what it has in flight
  // with ERR_NETWORK_CHANGED (the page, its submission or its report), one run in three here.
  for (const scope of ['all', 'default', nsIf]) exec(['sysctl', '-q', '-w', `net.ipv6.conf.${scope}.disable_ipv6=1`])
  exec(['ip', 'addr', 'add', `${net}.2/30`, 'dev', nsIf])
  exec(['ip', 'link', 'set', nsIf, 'up'])
  exec(['ip', 'link', 'set', 'lo', 'up'])
  for (const t of tune) exec(t)
  return { name, host: `${net}.1`, exec }
}

let server: RunningServer
let key: string
let plain: Netns
let tuned: Netns
let bare: Netns
let tlsPort: string
let wrapDir: string

test.beforeAll(async () => {
  requirePrerequisite(process.getuid?.() !== 0 && 'root, to make network namespaces (the gate runs as root)')
  let iproute = true
  try {
    ip('-V')
  } catch {
    iproute = false
  }
  requirePrerequisite(!iproute && "iproute2's ip (apt-get install iproute2)")
  server = await startServer({ HOST: '0.0.0.0' })
  key = await server.makeKey()
  tlsPort = new URL(server.tlsUrl!).port
  plain = makeNetns(0)
  tuned = makeNetns(1, [
    ['sysctl', '-q', '-w', 'net.ipv4.ip_default_ttl=128'],
    ['sysctl', '-q', '-w', 'net.ipv4.tcp_timestamps=0'],
  ])
  // The tuned namespace's route to the host announces MSS 1380, as a WireGuard interface would.
  const tunedIf = `abs${suffix}n1`
  tuned.exec(['ip', 'route', 'replace', `${tuned.host.replace(/\.1$/, '.0')}/30`, 'dev', tunedIf, 'advmss', '1380'])
  // Another stack: no SACK, no window scaling, timestamps on.
  bare = makeNetns(2, [
    ['sysctl', '-q', '-w', 'net.ipv4.tcp_sack=0'],
    ['sysctl', '-q', '-w', 'net.ipv4.tcp_window_scaling=0'],
  ])
  wrapDir = mkdtempSync(join(tmpdir(), 'antibot-netns-'))
})

test.afterAll(async () => {
  await server?.stop()
  // Deleting a namespace deletes its end of the veth pair, and with it the host's end.
  for (const name of made) {
    try {
      ip('netns', 'del', name)
    } catch {}
  }
  if (wrapDir) rmSync(wrapDir, { recursive: true, force: true })
})

interface Task {
  results: {
    tcp: { ja4t: string; family: string; proxy: boolean } | null
    checks: Array<{ id: string; verdict: string; observed: unknown }>
    server: { evidence: Array<{ kind: string; data: Record<string, unknown> }> }
  }
}

async function task(id: string): Promise<Task> {
  const res = await fetch(`${server.baseUrl.replace('0.0.0.0', '127.0.0.1')}/api/antibot/tasks/${id}`, { headers: { authorization: `Bearer ${key}` } })
  expect(res.status).toBe(200)
  return (await res.json()) as Task
}

/** curl in a namespace: the page over HTTPS, then its task posted on the same listener. */
function curlTask(ns: Netns, tool: string, ua: string): string {
  const base = `https://${ns.host}:${tlsPort}`
  const page = ns.exec(['curl', '-sk', '--http2', '-A', ua, `${base}/tools/${tool}`])
  const nonce = /data-nonce="([a-z2-7]{26})"/.exec(page)![1]!
  const out = ns.exec(['curl', '-sk', '--http2', '-A', ua, '-X', 'POST', `${base}/api/antibot/tasks`, '-H', 'content-type: application/json', '-d', JSON.stringify({ tool, results: {}, nonce })])
  return (JSON.parse(out) as { task_id: string }).task_id
}

const check = (t: Task, id: string) => t.results.checks.find((c) => c.id === id)!

test('a tuned stack: the evidence shows exactly what its SYN carried (TTL 128, DF, no timestamps, MSS 1380)', async () => {
  const t = await task(curlTask(tuned, 'vpn-detector', LINUX_UA))
  const tls = t.results.server.evidence.find((e) => e.kind === 'tls')!.data as { syn: Record<string, unknown> }
  expect(tls.syn).toMatchObject({ ipVersion: 4, ttl: 128, initialTtl: 128, hops: 0, df: true, options: [2, 1, 1, 4, 1, 3], mss: 1380, timestamps: false, sack: true, proxy: false })
  expect(tls.syn.ja4t).toMatch(/^\d+_2-1-1-4-1-3_1380_\d+$/)
  // The reduced MSS is the vpn-detector's weak hint.
  expect(check(t, 'tcp-mss')).toMatchObject({ verdict: 'warn', observed: expect.stringContaining('MSS 1380') })
  // No SACK, no window scaling: MSS, NOP, NOP, timestamps; JA4T says 00 for the missing scale.
  const b = await task(curlTask(bare, 'tls-fingerprint', LINUX_UA))
  expect(b.results.server.evidence.find((e) => e.kind === 'tls')!.data.syn).toMatchObject({ ttl: 64, options: [2, 1, 1, 8], mss: 1460, windowScale: null, timestamps: true, sack: false })
  expect(b.results.tcp!.ja4t).toMatch(/^\d+_2-1-1-8_1460_00$/)
  // The same machine untuned: Linux's defaults.
  const d = await task(curlTask(plain, 'tls-fingerprint', LINUX_UA))
  expect(d.results.tcp).toMatchObject({ family: 'linux', proxy: false })
  expect(d.results.tcp!.ja4t).toMatch(/^\d+_2-4-8-1-3_1460_\d+$/)
  expect(check(d, 'tcp-syn-os').verdict).toBe('pass')
})

test('Chromium in a namespace claiming Windows over this Linux stack is judged a mismatch; claiming Linux it passes', async () => {
  // Chromium runs inside the namespace: Playwright starts it through `ip netns exec` (its pipe survives the exec).
  const wrapper = join(wrapDir, 'chromium-in-netns')
  writeFileSync(wrapper, `#!/bin/sh\nexec ip netns exec ${plain.name} ${CHROMIUM} "$@"\n`)
  chmodSync(wrapper, 0o755)
  const browser = await chromium.launch({
    executablePath: wrapper,
    // A spoofer's set-up: the service's self-signed certificate accepted by flag.
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic', '--ignore-certificate-errors'],
  })
  try {
    const run = async (ua: string) => {
      const page = await browser.newPage({ userAgent: ua })
      await page.goto(`https://${plain.host}:${tlsPort}/tools/tls-fingerprint`)
      const id = await page.locator('body[data-task]').getAttribute('data-task', { timeout: 30_000 })
      return { page, t: await task(id!) }
    }
    const windows = await run(WINDOWS_UA)
    expect(windows.t.results.tcp).toMatchObject({ family: 'linux' })
    expect(check(windows.t, 'tcp-syn-os')).toMatchObject({ verdict: 'warn', observed: expect.stringContaining('Linux or Android, not Windows') })
    // What the page shows.
    await expect(windows.page.getByRole('region', { name: 'Results' }).locator('tr[data-check="tcp-syn-os"]')).toContainText('not Windows')
    const linux = await run(LINUX_UA)
    expect(check(linux.t, 'tcp-syn-os').verdict).toBe('pass')
    // bot-detector judges the same connection.
    const page = await browser.newPage({ userAgent: WINDOWS_UA })
    await page.goto(`https://${plain.host}:${tlsPort}/tools/bot-detector`)
    const id = await page.locator('body[data-task]').getAttribute('data-task', { timeout: 30_000 })
    expect(check(await task(id!), 'tcp-syn-os').verdict).toBe('warn')
  } finally {
    await browser.close()
  }
})
