// The tools matrix (issue 12): people meet all 14 tools (on their pages or in /run) and spoofers
// open all 14 tool pages of one server (STUN and TLS listeners on), each task is fetched through
// the API with a key, and a table tool × visitor (score, failed and warned check ids) is printed
// and written with every finding to bench-results/tools-matrix.json. Exits 1 when a person gets
// a failed check or a score under 80 on any tool, or a spoofer is scored under 80 by fewer than
// five tools (tools-report.ts).
//   node_modules/.bin/bun tests/matrix/tools.ts [visitor id …]     (npm run matrix:tools)
// Every visitor runs over each transport (./transports.ts): HTTPS at https://localhost:<TLS_PORT>
// with a certificate its engine trusts as it would a real one, and plain HTTP.
// People browse as people do (person.ts, browse: no driver, a fresh profile, one Xvfb display):
// the browser starts on one tool's page (its first page), then each next tool's address is
// typed into the address bar (a second page on the warm connection, with the cookies and client
// hints of the pages before), and the second page is reloaded once; last, the person types the
// run page's address (/run: every tool in one visit), whose 14 tasks are judged as the pages'
// are. A person of each engine walks every tool page over HTTPS; every other walk is a first and
// a second page, then /run (walks.ts says which, and why). Spoofers are Playwright with Apify's
// fingerprint-injector wearing a Windows and a macOS Chrome fingerprint on this Linux machine.
// Two people browse behind a TLS-inspecting proxy (proxy-people.ts, issue 56): their
// tls-fingerprint tasks, and their bot-detector tasks over HTTPS, must warn tls-interception.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { TOOL_IDS } from '../../common/tools'
import { startServer } from '../support/server'
import { injectedFingerprint, playwrightTask } from './clients'
import { BROWSER_PATHS, browse, browserVersions, PEOPLE as BROWSING_PEOPLE, RUN_PAGE, type Person, type PersonContext, type Step } from './person'
import { PROXY_PEOPLE } from './proxy-people'
import { columnProblems, toolsTable, type Cell, type Column, type VisitorKind } from './tools-report'
import { matrixCa, matrixTransports, originOf, tlsServerEnv, type Transport } from './transports'
import { walkOf } from './walks'
import { startXvfb } from './xvfb'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const PAGE_TIMEOUT_MS = 30_000
/** Visitors at once (TOOLS_MATRIX_PARALLEL; 2 by default, one per core of a small machine), each lane with its own server. */
const PARALLEL = Math.max(1, Number(process.env.TOOLS_MATRIX_PARALLEL) || 2)

/** The people: person.ts's, and those behind a TLS-inspecting proxy (issue 56). */
const PEOPLE: Record<string, Person> = { ...BROWSING_PEOPLE, ...PROXY_PEOPLE }

interface Visitor {
  name: string
  kind: VisitorKind
  /** Per tool, checks each of this person's tasks of it must warn over `transport` (Column.mustFind). */
  mustFind?(transport: Transport): Record<string, readonly string[]>
  /**
   * Opens every tool page and reports each task id (or the error) as it comes, with how the page
   * was reached; `ctx.pageOrigin` is where (the transport's origin).
   */
  visitAll(ctx: PersonContext, transport: Transport, tools: readonly string[], done: (tool: string, task: string | Error, how: Cell['how']) => Promise<void>): Promise<void>
}

const errorOf = (e: unknown) => (e instanceof Error ? e : new Error(String(e)))

function person(id: keyof typeof PEOPLE): Visitor {
  const p = PEOPLE[id]!
  return {
    name: p.name,
    kind: 'person',
    // A person behind an inspecting proxy: the pages that judge the wire say it is re-encrypted.
    ...(p.mustFind ? { mustFind: (transport: Transport) => Object.fromEntries(wireTools(transport).map((t) => [t, p.mustFind!])) } : {}),
    visitAll: (ctx, transport, tools, done) => (p.around ? p.around(ctx, (c) => walk(c, transport, tools, done)) : walk(ctx, transport, tools, done)),
  }
  async function walk(ctx: PersonContext, transport: Transport, tools: readonly string[], done: Parameters<Visitor['visitAll']>[3]): Promise<void> {
    // The pages in the order the person reaches them (walks.ts): every tool page, or a first
    // and a second page; last, the run page (/run): every tool in one visit.
    const plan = walkOf(id, transport, tools)
    const xvfb = await startXvfb()
    try {
      // A page that does not submit leaves the browser in no known state: the person starts
      // it again on the next page, as a first page.
      for (let at = 0; at < plan.length; ) {
        const start = plan[at]!
        if (start.tool === RUN_PAGE) {
          // The pages before it failed: the run page is not anyone's first page here.
          for (const tool of TOOL_IDS) await done(tool, new Error('the run page was not reached: the page before it did not submit'), 'run')
          break
        }
        const steps: Step[] = plan.slice(at + 1).map(({ tool, how }) => (how === 'reload' ? { tool, how: 'reload' } : { tool, how: 'type' }))
        const launch = p.launch(ctx, `${ctx.pageOrigin}/tools/${start.tool}`, join(ctx.dir, `profile-${at}`))
        const tasks = await browse(ctx, p.browser, launch, start.tool, steps, xvfb.display)
        for (const [k, task] of tasks.entries()) {
          const page = plan[at + k]!
          if (typeof task === 'object' && 'run' in task) {
            for (const tool of TOOL_IDS) await done(tool, task.run[tool] ?? new Error('the run stored no task for this tool'), 'run')
          } else if (page.tool === RUN_PAGE) {
            for (const tool of TOOL_IDS) await done(tool, task instanceof Error ? task : new Error(String(task)), 'run')
          } else await done(page.tool, task, k === 0 ? 'first' : page.how)
        }
        at += Math.max(1, tasks.length)
        // After a failed page, its reload (if it comes next) has nothing to reload.
        if (tasks.at(-1) instanceof Error && plan[at]?.how === 'reload') at++
      }
    } finally {
      await xvfb.stop()
    }
  }
}

/**
 * The tools whose tasks must say that a proxied person's connection is re-encrypted: tls-fingerprint
 * everywhere (it waits for its side connection), bot-detector over HTTPS (over HTTP its side
 * fetch may come after the page submitted: proxy-people.ts).
 */
const wireTools = (transport: Transport) => (transport === 'https' ? ['tls-fingerprint', 'bot-detector'] : ['tls-fingerprint'])

function spoofer(os: 'windows' | 'macos', label: string, browser: 'chrome' | 'firefox' = 'chrome'): Visitor {
  return {
    name: `Spoofer: Playwright + fingerprint-injector, ${label} fingerprint, headless Chromium on Linux`,
    kind: 'spoofer',
    visitAll: (ctx, _transport, tools, done) =>
      injectedFingerprint(
        ctx,
        os,
        async (newPage) => {
        for (const tool of tools) {
          const page = await newPage()
          const task = await playwrightTask(page, { pageUrl: `${ctx.pageOrigin}/tools/${tool}`, timeoutMs: ctx.timeoutMs }).catch(errorOf)
          await page.close()
          await done(tool, task, 'first')
        }
        },
        browser,
      ),
  }
}

const VISITORS: Record<string, Visitor> = {
  person: person('person'),
  'person-de': person('person-de'),
  'person-firefox': person('person-firefox'),
  'person-firefox-rfp': person('person-firefox-rfp'),
  'person-firefox-de': person('person-firefox-de'),
  'person-hidpi': person('person-hidpi'),
  'person-firefox-blockers': person('person-firefox-blockers'),
  'person-webkit': person('person-webkit'),
  'person-webkit-fr': person('person-webkit-fr'),
  'person-webkit-mini': person('person-webkit-mini'),
  // Behind a TLS-inspecting proxy whose CA the browser trusts (issue 56, proxy-people.ts).
  'person-proxy': person('person-proxy'),
  'person-firefox-proxy': person('person-firefox-proxy'),
  'spoofer-windows': spoofer('windows', 'Windows Chrome'),
  'spoofer-macos': spoofer('macos', 'macOS Chrome'),
  // Beyond the issue's two: another engine's fingerprint on Chromium.
  'spoofer-firefox': spoofer('windows', 'Windows Firefox', 'firefox'),
}

/** One visitor over one transport. */
interface Job {
  id: string
  transport: Transport
}

interface TaskBody {
  score: number
  results: { verdict?: string; checks?: Array<{ id: string; verdict: string; observed?: unknown; expected?: unknown }> }
}

async function main(): Promise<number> {
  const names = process.argv.slice(2)
  const unknown = names.filter((n) => !(n in VISITORS))
  if (unknown.length) {
    console.error(`tools matrix: unknown visitor ${unknown.join(', ')} (visitors: ${Object.keys(VISITORS).join(', ')})`)
    return 2
  }
  const chosen = names.length ? names : Object.keys(VISITORS)
  const chromium = process.env.CHROMIUM_PATH || '/usr/bin/chromium'
  const version = browserVersions(chromium, new Set(['firefox', 'webkit']))
  const transports = matrixTransports()
  const ca = matrixCa(['chromium', 'firefox', 'webkit'])

  const started = Date.now()
  // One server per lane: a person's task is found as the newest one its server did not have
  // before (person.ts), so visitors that run at once must not share a server.
  const lanes: Array<{ server: Awaited<ReturnType<typeof startServer>>; key: string }> = []
  const cols: Column[] = []
  try {
    const visitOne = async ({ id, transport }: Job, { server, key }: (typeof lanes)[number]): Promise<Column> => {
      const visitor = VISITORS[id]!
      const dir = mkdtempSync(join(tmpdir(), `antibot-tools-${id}-`))
      const origin = originOf(server, transport)
      const ctx: PersonContext = { pageUrl: '', pageOrigin: origin, baseUrl: server.baseUrl, adminToken: server.adminToken, chromium, chromedriver: '', ...BROWSER_PATHS, dir, timeoutMs: PAGE_TIMEOUT_MS }
      const col: Column = { id: `${id}@${transport}`, name: visitor.name, kind: visitor.kind, transport, cells: [], ...(visitor.mustFind ? { mustFind: visitor.mustFind(transport) } : {}) }
      const t0 = Date.now()
      try {
        await visitor.visitAll(ctx, transport, TOOL_IDS, async (tool, task, how) => {
          const cell: Cell = { tool, how, score: null, failed: [], warned: [], error: null }
          if (task instanceof Error) cell.error = task.message
          else {
            const res = await fetch(`${server.baseUrl}/api/antibot/tasks/${task}`, { headers: { authorization: `Bearer ${key}` } })
            if (res.status !== 200) cell.error = `GET /api/antibot/tasks/${task} answered ${res.status}`
            else {
              const body = (await res.json()) as TaskBody
              cell.score = body.score
              cell.verdict = body.results.verdict ?? null
              const checks = body.results.checks ?? []
              cell.failed = checks.filter((c) => c.verdict === 'fail').map((c) => c.id)
              cell.warned = checks.filter((c) => c.verdict === 'warn').map((c) => c.id)
              // A person's failed check, with what it saw, for whoever reads the log.
              if (visitor.kind === 'person') for (const c of checks.filter((x) => x.verdict === 'fail')) console.error(`tools matrix:   ${id} (${transport}) ${tool} task ${task}: ${c.id} saw ${JSON.stringify(c.observed)}, expected ${JSON.stringify(c.expected)}`)
            }
          }
          col.cells.push(cell)
          console.error(`tools matrix: ${id} (${transport}) ${tool}${how === 'reload' ? ' reloaded' : how === 'first' ? ' (first page)' : how === 'run' ? ' in /run' : ''}: ${cell.score ?? cell.error}${cell.failed.length ? ` fail ${cell.failed.join(',')}` : ''}${cell.warned.length ? ` warn ${cell.warned.join(',')}` : ''}`)
        })
      } catch (e) {
        // A visitor that could not start at all: every tool it did not reach is an error.
        for (const tool of TOOL_IDS.filter((t) => !col.cells.some((c) => c.tool === t))) col.cells.push({ tool, how: 'first', score: null, failed: [], warned: [], error: errorOf(e).message })
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
      console.error(`tools matrix: ${id} (${transport}) done in ${Math.round((Date.now() - t0) / 1000)} s`)
      return col
    }
    // Visitors share nothing else (each has its own display, profiles and browser), so PARALLEL
    // of them go at once, each lane on its own server; the table keeps the order they were chosen in.
    // Every visitor on every transport, HTTPS first; the table keeps the order they were chosen in.
    // Spoofers go over HTTPS alone, the way production serves them (their catch does not depend
    // on the transport: they fail page-side checks), which keeps the gate's time.
    const jobs: Job[] = transports.flatMap((transport) => chosen.filter((id) => VISITORS[id]!.kind === 'person' || transport === 'https' || !transports.includes('https')).map((id) => ({ id, transport })))
    const done = new Map<string, Column>()
    const queue = [...jobs]
    await Promise.all(
      Array.from({ length: Math.min(PARALLEL, queue.length) }, async () => {
        const server = await startServer({ STUN_PORT: '0', ...tlsServerEnv(ca) })
        const at = { server, key: await server.makeKey({ plan: 'pro' }) }
        lanes.push(at)
        for (let job = queue.shift(); job !== undefined; job = queue.shift()) done.set(`${job.id}@${job.transport}`, await visitOne(job, at))
      }),
    )
    for (const job of jobs) cols.push(done.get(`${job.id}@${job.transport}`)!)
  } finally {
    await Promise.all(lanes.map((l) => l.server.stop()))
  }

  const seconds = Math.round((Date.now() - started) / 1000)
  console.log(`\nTools matrix, ${version}, ${new Date().toISOString().slice(0, 10)}, ${seconds} s:\n`)
  for (const id of chosen) console.log(`- \`${id}\`: ${VISITORS[id]!.name}`)
  // One table per transport: HTTPS with a trusted certificate, then plain HTTP.
  for (const transport of transports) console.log(`\nOver ${transport === 'https' ? 'HTTPS (https://localhost, a certificate each engine trusts)' : 'plain HTTP (http://127.0.0.1)'}:\n\n${toolsTable(TOOL_IDS, cols.filter((c) => c.transport === transport))}`)
  const problems = cols.flatMap(columnProblems)
  if (!names.length) {
    mkdirSync(join(ROOT, 'bench-results'), { recursive: true })
    const record = { measured_at: new Date().toISOString(), browsers: version, transports, seconds, visitors: cols, problems }
    writeFileSync(join(ROOT, 'bench-results/tools-matrix.json'), `${JSON.stringify(record, null, 2)}\n`)
  }
  if (problems.length) console.error(`\ntools matrix: ${problems.length} problem(s):\n${problems.map((p) => `  ${p}`).join('\n')}`)
  return problems.length ? 1 : 0
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(`tools matrix: ${e instanceof Error ? e.message : String(e)}`)
    process.exit(1)
  },
)
