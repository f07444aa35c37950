// A private instance of Debian's `unbound` recursive resolver for the dns-leak tests (issue 7:
// "test it through a real recursive resolver"). It runs from a temp config, never the system
// service: a stub zone sends the test zone to our authoritative server on 127.0.0.1, with
// 0x20 case randomisation on (use-caps-for-id) and, when asked, EDNS Client Subnet towards our
// server (subnetcache module). Runs under bun and under Playwright's Node runner.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createSocket } from 'node:dgram'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export const UNBOUND = '/usr/sbin/unbound'

export function unboundAvailable(): boolean {
  return existsSync(UNBOUND)
}

export interface Unbound {
  address: string
  port: number
  stop(): Promise<void>
  output(): string
}

/** A UDP port free on `address` right now (unbound binds it a moment later). */
export async function freeUdpPort(address = '127.0.0.1'): Promise<number> {
  const s = createSocket(address.includes(':') ? 'udp6' : 'udp4')
  await new Promise<void>((ok, fail) => s.once('error', fail).bind(0, address, () => ok()))
  const { port } = s.address()
  await new Promise<void>((ok) => s.close(() => ok()))
  return port
}

/** Sends one DNS query over UDP and resolves with the first reply (or rejects after `ms`). */
export function udpExchange(query: Uint8Array, address: string, port: number, ms = 3000): Promise<Uint8Array> {
  const s = createSocket(address.includes(':') ? 'udp6' : 'udp4')
  return new Promise<Uint8Array>((ok, fail) => {
    const timer = setTimeout(() => {
      s.close()
      fail(new Error(`no DNS reply from ${address}:${port} in ${ms} ms`))
    }, ms)
    s.once('message', (m) => {
      clearTimeout(timer)
      s.close()
      ok(new Uint8Array(m))
    })
    s.send(query, port, address)
  })
}

/** An SOA query for `zone`'s apex. */
export function apexQuery(zone: string): Uint8Array {
  const labels = zone.replace(/\.$/, '').split('.').flatMap((l) => [l.length, ...Array.from(l, (c) => c.charCodeAt(0))])
  return Uint8Array.from([0x12, 0x34, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, ...labels, 0, 0, 6, 0, 1])
}

/**
 * Waits until a DNS server answers for `zone`. Our listener first: unbound marks a server that
 * timed out as down and backs off, so it must not probe a service whose event loop is still
 * busy starting (loading the IP database, say).
 */
export async function waitForDns(address: string, port: number, zone: string, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms
  for (;;) {
    try {
      await udpExchange(apexQuery(zone), address, port, 500)
      return
    } catch (e) {
      if (Date.now() > deadline) throw new Error(`no DNS answer from ${address}:${port} for ${zone} in ${ms} ms: ${e instanceof Error ? e.message : e}`)
    }
  }
}

export async function startUnbound(opts: {
  zone: string
  authorityPort: number
  address?: string
  port?: number
  ecs?: boolean
  /** Send queries to our server from this address (default: the kernel's choice, 127.0.0.1). */
  outgoingAddress?: string
}): Promise<Unbound> {
  const address = opts.address ?? '127.0.0.1'
  const port = opts.port ?? (await freeUdpPort(address))
  const dir = mkdtempSync(join(tmpdir(), 'antibot-unbound-'))
  const conf = join(dir, 'unbound.conf')
  const zone = opts.zone.replace(/\.$/, '')
  const lines = [
    'server:',
    `  interface: ${address}@${port}`,
    `  port: ${port}`,
    '  access-control: 127.0.0.0/8 allow',
    '  access-control: ::1/128 allow',
    '  do-not-query-localhost: no',
    '  username: ""',
    '  chroot: ""',
    `  directory: "${dir}"`,
    `  pidfile: "${join(dir, 'unbound.pid')}"`,
    '  use-syslog: no',
    '  logfile: ""',
    '  verbosity: 1',
    '  num-threads: 1',
    '  so-reuseport: no',
    '  do-daemonize: no',
    // Keep asking our server even after a timeout rather than backing off for minutes.
    '  infra-keep-probing: yes',
    ...(opts.outgoingAddress ? [`  outgoing-interface: ${opts.outgoingAddress}`] : []),
    // 0x20: the resolver sends the names in random case and checks our answer repeats it.
    '  use-caps-for-id: yes',
    // RFC 6761 makes unbound serve `test.` itself; our zone lives under it in tests.
    ...(zone.endsWith('.test') || zone === 'test' ? ['  local-zone: "test." nodefault'] : []),
    ...(opts.ecs
      ? ['  module-config: "subnetcache iterator"', '  send-client-subnet: 127.0.0.1', '  client-subnet-always-forward: yes', '  max-client-subnet-ipv4: 24']
      : ['  module-config: "iterator"']),
    'stub-zone:',
    `  name: "${zone}"`,
    `  stub-addr: 127.0.0.1@${opts.authorityPort}`,
    '',
  ]
  writeFileSync(conf, lines.join('\n'))
  const check = spawnSync('/usr/sbin/unbound-checkconf', [conf], { encoding: 'utf8' })
  if (check.status !== 0) throw new Error(`unbound config rejected: ${check.stdout}${check.stderr}`)

  const child: ChildProcess = spawn(UNBOUND, ['-d', '-c', conf], { stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()))
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()))
  const exited = new Promise<void>((ok) => child.once('exit', () => ok()))
  // Ready when it answers: a query for the zone's apex goes through to our server.
  const probe = apexQuery(zone)
  const deadline = Date.now() + 10_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`unbound exited with ${child.exitCode}:\n${out}`)
    try {
      await udpExchange(probe, address, port, 500)
      break
    } catch (e) {
      if (Date.now() > deadline) {
        child.kill('SIGKILL')
        throw new Error(`unbound did not answer on ${address}:${port} in 10 s: ${e instanceof Error ? e.message : e}\n${out}`)
      }
    }
  }
  return {
    address,
    port,
    output: () => out,
    async stop() {
      child.kill('SIGTERM')
      await Promise.race([exited, new Promise((r) => setTimeout(r, 2000))])
      if (child.exitCode === null) child.kill('SIGKILL')
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
