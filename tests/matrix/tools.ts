// The tools matrix (issue 12): people and spoofers open all 14 tool pages of one server (STUN
// and TLS listeners on), each task is fetched through the API with a key, and a table tool ×
// visitor (score, failed and warned check ids) is printed and written with every finding to
// bench-results/tools-matrix.json. Exits 1 when a person gets a failed check or a score under
// 80 on any tool, or a spoofer is scored under 80 by fewer than five tools (tools-report.ts).
//   node_modules/.bin/bun tests/matrix/tools.ts [visitor id …]     (npm run matrix:tools)
// People are started as in the detection matrix (person.ts: no driver, a fresh profile per page,
// one Xvfb display per person); spoofers are Playwright with Apify's fingerprint-injector
// wearing a Windows and a macOS Chrome fingerprint on this Linux machine.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { TOOL_IDS } from '../../common/tools'
import { startServer } from '../support/server'
import { injectedFingerprint, playwrightTask } from './clients'
import { BROWSER_PATHS, browserVersions, PEOPLE, visit, type PersonContext } from './person'
import { columnProblems, toolsTable, type Cell, type Column, type VisitorKind } from './tools-report'
import { startXvfb } from './xvfb'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const PAGE_TIMEOUT_MS = 30_000
/** Visitors at once (TOOLS_MATRIX_PARALLEL; 2 by default, one per core of a small machine), each lane with its own server. */
const PARALLEL = Math.max(1, Number(process.env.TOOLS_MATRIX_PARALLEL) || 2)

interface Visitor {
  name: string
  kind: VisitorKind
  /** Opens every tool page in turn and reports each task id (or the error) as it comes. */
  visitAll(ctx: PersonContext, tools: readonly string[], done: (tool: string, task: string | Error) => Promise<void>): Promise<void>
}

const errorOf = (e: unknown) => (e instanceof Error ? e : new Error(String(e)))

function person(id: keyof typeof PEOPLE): Visitor {
  const p = PEOPLE[id]!
  return {
    name: p.name,
    kind: 'person',
    async visitAll(ctx, tools, done) {
      const xvfb = await startXvfb()
      try {
        for (const tool of tools) {
          const launch = p.launch(ctx, `${ctx.baseUrl}/tools/${tool}`, join(ctx.dir, `profile-${tool}`))
          await done(tool, await visit(ctx, p.browser, launch, tool, xvfb.display).catch(errorOf))
        }
      } finally {
        await xvfb.stop()
      }
    },
  }
}

function spoofer(os: 'windows' | 'macos', label: string, browser: 'chrome' | 'firefox' = 'chrome'): Visitor {
  return {
    name: `Spoofer: Playwright + fingerprint-injector, ${label} fingerprint, headless Chromium on Linux`,
    kind: 'spoofer',
    visitAll: (ctx, tools, done) =>
      injectedFingerprint(
        ctx,
        os,
        async (newPage) => {
        for (const tool of tools) {
          const page = await newPage()
          const task = await playwrightTask(page, { pageUrl: `${ctx.baseUrl}/tools/${tool}`, timeoutMs: ctx.timeoutMs }).catch(errorOf)
          await page.close()
          await done(tool, task)
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
  'spoofer-windows': spoofer('windows', 'Windows Chrome'),
  'spoofer-macos': spoofer('macos', 'macOS Chrome'),
  // Beyond the issue's two: another engine's fingerprint on Chromium.
  'spoofer-firefox': spoofer('windows', 'Windows Firefox', 'firefox'),
}

interface TaskBody {
  score: number
  results: { checks?: Array<{ id: string; verdict: string }> }
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

  const started = Date.now()
  // One server per lane: a person's task is found as the newest one its server did not have
  // before (person.ts), so visitors that run at once must not share a server.
  const lanes: Array<{ server: Awaited<ReturnType<typeof startServer>>; key: string }> = []
  const cols: Column[] = []
  try {
    const visitOne = async (id: string, { server, key }: (typeof lanes)[number]): Promise<Column> => {
      const visitor = VISITORS[id]!
      const dir = mkdtempSync(join(tmpdir(), `antibot-tools-${id}-`))
      const ctx: PersonContext = { pageUrl: '', baseUrl: server.baseUrl, adminToken: server.adminToken, chromium, chromedriver: '', ...BROWSER_PATHS, dir, timeoutMs: PAGE_TIMEOUT_MS }
      const col: Column = { id, name: visitor.name, kind: visitor.kind, cells: [] }
      const t0 = Date.now()
      try {
        await visitor.visitAll(ctx, TOOL_IDS, async (tool, task) => {
          const cell: Cell = { tool, score: null, failed: [], warned: [], error: null }
          if (task instanceof Error) cell.error = task.message
          else {
            const res = await fetch(`${server.baseUrl}/api/antibot/tasks/${task}`, { headers: { authorization: `Bearer ${key}` } })
            if (res.status !== 200) cell.error = `GET /api/antibot/tasks/${task} answered ${res.status}`
            else {
              const body = (await res.json()) as TaskBody
              cell.score = body.score
              const checks = body.results.checks ?? []
              cell.failed = checks.filter((c) => c.verdict === 'fail').map((c) => c.id)
              cell.warned = checks.filter((c) => c.verdict === 'warn').map((c) => c.id)
            }
          }
          col.cells.push(cell)
          console.error(`tools matrix: ${id} ${tool}: ${cell.score ?? cell.error}${cell.failed.length ? ` fail ${cell.failed.join(',')}` : ''}${cell.warned.length ? ` warn ${cell.warned.join(',')}` : ''}`)
        })
      } catch (e) {
        // A visitor that could not start at all: every tool it did not reach is an error.
        for (const tool of TOOL_IDS.filter((t) => !col.cells.some((c) => c.tool === t))) col.cells.push({ tool, score: null, failed: [], warned: [], error: errorOf(e).message })
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
      console.error(`tools matrix: ${id} done in ${Math.round((Date.now() - t0) / 1000)} s`)
      return col
    }
    // Visitors share nothing else (each has its own display, profiles and browser), so PARALLEL
    // of them go at once, each lane on its own server; the table keeps the order they were chosen in.
    const done = new Map<string, Column>()
    const queue = [...chosen]
    await Promise.all(
      Array.from({ length: Math.min(PARALLEL, queue.length) }, async () => {
        const server = await startServer({ STUN_PORT: '0', TLS_PORT: '0' })
        const at = { server, key: await server.makeKey({ plan: 'pro' }) }
        lanes.push(at)
        for (let id = queue.shift(); id !== undefined; id = queue.shift()) done.set(id, await visitOne(id, at))
      }),
    )
    for (const id of chosen) cols.push(done.get(id)!)
  } finally {
    await Promise.all(lanes.map((l) => l.server.stop()))
  }

  const seconds = Math.round((Date.now() - started) / 1000)
  console.log(`\nTools matrix, ${version}, ${new Date().toISOString().slice(0, 10)}, ${seconds} s:\n`)
  for (const c of cols) console.log(`- \`${c.id}\`: ${c.name}`)
  console.log(`\n${toolsTable(TOOL_IDS, cols)}`)
  const problems = cols.flatMap(columnProblems)
  if (!names.length) {
    mkdirSync(join(ROOT, 'bench-results'), { recursive: true })
    const record = { measured_at: new Date().toISOString(), browsers: version, seconds, visitors: cols, problems }
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
