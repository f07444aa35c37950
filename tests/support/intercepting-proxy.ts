// Starts the matrices' TLS-inspecting proxy (./intercepting-proxy-main.ts, run by Node) with a CA
// of its own, and trusts that CA the way an administrator installs an inspecting proxy's CA on a
// Linux desktop: into the NSS database the browser reads (certutil, as Chromium's Linux
// certificate documentation and Mozilla's certutil documentation describe it): Chromium's
// $HOME/.pki/nssdb, Firefox's profile (cert9.db). The CA's key stays in the proxy's directory
// (it signs a leaf per host) and goes with it when the proxy stops.

import { execFileSync, spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { stopGroup } from '../matrix/xvfb'

export interface InterceptingProxy {
  /** 127.0.0.1:<port>, as --proxy-server and Firefox's network.proxy.* prefs take it. */
  host: string
  port: number
  /** The proxy CA's certificate (PEM). */
  caFile: string
  stop(): Promise<void>
}

const MAIN = fileURLToPath(new URL('./intercepting-proxy-main.ts', import.meta.url))

/** Adds the CA in `caFile` to the NSS database in `dbDir` (made when missing) as trusted for TLS servers. */
export function trustInNss(dbDir: string, caFile: string, nickname = 'Intercepting proxy CA'): void {
  mkdirSync(dbDir, { recursive: true })
  const db = `sql:${dbDir}`
  try {
    execFileSync('certutil', ['-L', '-d', db], { stdio: 'ignore' })
  } catch {
    execFileSync('certutil', ['-N', '-d', db, '--empty-password'], { stdio: 'ignore' })
  }
  execFileSync('certutil', ['-A', '-d', db, '-n', nickname, '-t', 'C,,', '-i', caFile], { stdio: 'ignore' })
}

export async function startInterceptingProxy(): Promise<InterceptingProxy> {
  const dir = mkdtempSync(join(tmpdir(), 'antibot-proxy-'))
  const p = (f: string) => join(dir, f)
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', p('ca.key'), '-out', p('ca.pem'), '-days', '3', '-subj', '/O=Antibot test/CN=Antibot intercepting proxy CA', '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign'], { stdio: 'ignore' })
  const built = await Bun.build({ entrypoints: [MAIN], target: 'node', format: 'esm' })
  if (!built.success) throw new Error(`Cannot build the intercepting proxy: ${built.logs.map(String).join('\n')}`)
  await Bun.write(p('proxy.mjs'), built.outputs[0]!)
  const child = spawn('node', [p('proxy.mjs'), dir], { stdio: ['ignore', 'pipe', 'pipe'], detached: true })
  let out = ''
  const port = await new Promise<number>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`Cannot start the intercepting proxy: no address in 10 s: ${out}`)), 10_000)
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString()
      const m = /listening (\d+)/.exec(out)
      if (m) {
        clearTimeout(timer)
        ok(Number(m[1]))
      }
    })
    child.stderr!.on('data', (d: Buffer) => {
      out += d.toString()
      if (process.env.ANTIBOT_PROXY_LOG === '1') process.stderr.write(d)
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      fail(new Error(`Cannot start the intercepting proxy: node exited with ${code}: ${out}`))
    })
  })
  return {
    host: `127.0.0.1:${port}`,
    port,
    caFile: p('ca.pem'),
    async stop() {
      await stopGroup(child)
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
