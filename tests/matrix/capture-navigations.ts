// Captures what real browsers send when a person browses the tool pages over real TLS (issue
// 44), as the TLS evidence listener records it, into src/evidence/fixtures/navigations.json —
// the fixtures the wire checks are tested on (src/checks/navigations.test.ts). Run it by hand
// when a browser update changes what it sends:
//
//   node_modules/.bin/bun tests/matrix/capture-navigations.ts [chromium|firefox|webkit …]
//
// The whole service runs in this process (the app on an embedded database, its HTTPS listener
// with a certificate from a CA this script makes and installs in each engine's trust store:
// tests/support/trusted-ca.ts). Each engine's person (tests/matrix/person.ts: a headful browser
// on Xvfb, no automation) then browses as a person would:
// - first:   the browser starts on https://localhost:<port>/tools/bot-detector (a fresh profile:
//            Chromium asks once without the page's Critical-CH hints, then restarts the navigation)
// - typed:   tls-fingerprint typed into the address bar (a second page on the warm connection)
// - reload:  F5 on it
// - resumed: the connection closed by the listener's idle timeout (3 s here), then http-headers
//            typed: a new connection that resumes the TLS session with a PSK
// - plain:   http://127.0.0.1:<port>/tools/bot-detector, whose page opens the side connection
//            to the HTTPS port (/evidence/<nonce>)
// - h1:      a second listener that offers http/1.1 alone: bot-detector, then http-headers typed
// Every page's records (ClientHello and HTTP/2 or HTTP/1 head) are kept, the ones of pages that
// were not run too (Chromium's first request before the restart), in the order they came.
// Needs root (the CA goes into Firefox's policy and the system store), Xvfb and xdotool.

import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { sql } from 'drizzle-orm'
import { openPglite, rows } from '../../db/client'
import { startTlsListener, type TlsListener } from '../../src/listeners/tls'
import { buildTestApp } from '../support/app'
import { makeTrustedCa } from '../support/trusted-ca'
import { uniqueName } from '../support/unique'
import type { MatrixContext } from './clients'
import { BROWSER_PATHS, browse, PEOPLE, type Person, type Step } from './person'
import { sleep, startXvfb } from './xvfb'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const OUT = join(ROOT, 'src/evidence/fixtures/navigations.json')
const IDLE_MS = 3000

/** One page load as the listener recorded it. */
export interface CapturedNavigation {
  engine: Person['browser']
  browser: string
  /** Which step of the browse (above) loaded it. */
  step: 'first' | 'typed' | 'reload' | 'resumed' | 'plain' | 'h1-first' | 'h1-typed'
  tool: string
  /** Whether the page was run (its nonce used by a task): false for Chromium's request before the restart. */
  rendered: boolean
  /** The listener's records filed under the page's nonce, in order: 'tls' and 'http2' or 'http1', the page's own connection first. */
  records: Array<{ kind: string; data: unknown }>
}

const PEOPLE_BY_ENGINE: Record<Person['browser'], string> = { chromium: 'person', firefox: 'person-firefox', webkit: 'person-webkit' }

function versionOf(engine: Person['browser']): string {
  const run = (program: string, args: string[]) => execFileSync(program, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()
  if (engine === 'chromium') return run(process.env.CHROMIUM_PATH || '/usr/bin/chromium', ['--version'])
  if (engine === 'firefox') return run(BROWSER_PATHS.firefox, ['--version'])
  return `GNOME ${run(BROWSER_PATHS.epiphany, ['--version'])}`
}

async function main(): Promise<void> {
  const engines = (process.argv.slice(2).length ? process.argv.slice(2) : ['chromium', 'firefox', 'webkit']) as Array<Person['browser']>
  const ca = makeTrustedCa()
  // Chromium and its children read the CA from $HOME/.pki/nssdb.
  process.env.HOME = ca.home
  const db = await openPglite()
  await db.migrate()
  const adminToken = uniqueName('capture-admin')
  const listeners: TlsListener[] = []
  const startListener = async (alpn?: string[]) => {
    const l = await startTlsListener({ db: db.db, clock: () => new Date() }, { port: 0, host: '127.0.0.1', dataDir: mkdtempSync(join(tmpdir(), 'antibot-capture-')), certFile: ca.certFile, keyFile: ca.keyFile, idleMs: IDLE_MS, ...(alpn ? { alpn } : {}) })
    listeners.push(l)
    return l
  }
  const h2 = await startListener()
  const h1 = await startListener(['http/1.1'])
  const appFor = async (tlsPort: number) => {
    const { app } = await buildTestApp(db.db, { clock: () => new Date(), adminToken, evidence: { tlsPort } })
    return app
  }
  const h2App = await appFor(h2.port)
  const h1App = await appFor(h1.port)
  h2.serve((r) => h2App.handle(r))
  h1.serve((r) => h1App.handle(r))
  h2App.listen({ port: 0, hostname: '127.0.0.1' })
  const baseUrl = `http://127.0.0.1:${h2App.server!.port}`
  const captured: CapturedNavigation[] = []
  try {
    for (const engine of engines) {
      const person = PEOPLE[PEOPLE_BY_ENGINE[engine]]!
      const browser = versionOf(engine)
      const dir = mkdtempSync(join(tmpdir(), `antibot-capture-${engine}-`))
      const xvfb = await startXvfb()
      try {
        const ctx = (origin: string): MatrixContext & typeof BROWSER_PATHS => ({ pageUrl: `${origin}/tools/bot-detector`, pageOrigin: origin, baseUrl, adminToken, chromium: process.env.CHROMIUM_PATH || '/usr/bin/chromium', chromedriver: '', ...BROWSER_PATHS, dir, timeoutMs: 30_000 })
        const run = async (origin: string, profile: string, plan: Array<{ step: CapturedNavigation['step']; how?: Step }>) => {
          const c = ctx(origin)
          const steps = plan.slice(1).map((p) => p.how!)
          // Each page's nonces are told apart by when they were issued: the browse is one page at a time.
          const marks: Date[] = [new Date()]
          let i = 0
          const tasks = await browse(c, person.browser, person.launch(c, c.pageUrl, join(dir, profile)), 'bot-detector', steps.map((s) => ({ ...s })), xvfb.display, {
            beforeStep: async (step) => {
              i++
              // The resumed page comes on a new connection: the warm one is closed once idle.
              if (plan[i]?.step === 'resumed') await sleep(IDLE_MS + 2000)
              marks.push(new Date())
              return step
            },
          })
          marks.push(new Date())
          const failed = tasks.find((t) => t instanceof Error)
          if (failed) throw failed
          for (let k = 0; k < plan.length; k++) {
            const pages = await rows<{ nonce: string; tool: string; used: boolean }>(
              db.db,
              sql`select nonce, tool, used_at is not null as used from page_nonces where created_at >= ${marks[k]!.toISOString()} and created_at < ${marks[k + 1]!.toISOString()} order by created_at`,
            )
            for (const r of pages) {
              const records = await rows<{ kind: string; data: unknown }>(db.db, sql`select kind, data from evidence where nonce = ${r.nonce} and kind in ('tls', 'http2', 'http1') order by id`)
              captured.push({ engine, browser, step: plan[k]!.step, tool: r.tool, rendered: r.used, records })
            }
          }
        }
        const https = `https://localhost:${h2.port}`
        await run(https, 'profile-h2', [
          { step: 'first' },
          { step: 'typed', how: { tool: 'tls-fingerprint', how: 'type' } },
          { step: 'reload', how: { tool: 'tls-fingerprint', how: 'reload' } },
          { step: 'resumed', how: { tool: 'http-headers', how: 'type' } },
        ])
        await run(baseUrl, 'profile-plain', [{ step: 'plain' }])
        await run(`https://localhost:${h1.port}`, 'profile-h1', [{ step: 'h1-first' }, { step: 'h1-typed', how: { tool: 'http-headers', how: 'type' } }])
        console.error(`capture: ${engine} (${browser}): ${captured.filter((c) => c.engine === engine).length} pages`)
      } finally {
        await xvfb.stop()
        rmSync(dir, { recursive: true, force: true })
      }
    }
  } finally {
    h2App.stop()
    for (const l of listeners) await l.stop()
    await db.close()
    ca.uninstall()
  }
  const note = `Captured by tests/matrix/capture-navigations.ts on ${new Date().toISOString().slice(0, 10)}: people's browsers (tests/matrix/person.ts) browsing tool pages over HTTPS with a certificate their engine trusts, as the TLS evidence listener recorded each page.`
  writeFileSync(OUT, `${JSON.stringify({ note, navigations: captured }, null, 1)}\n`)
  console.error(`capture: wrote ${captured.length} pages to ${OUT}`)
}

await main()
process.exit(0)
