// The detection matrix: known automation and people open /tools/bot-detector on a local
// server, each task is fetched through the API with a key, and a table client → verdict, score,
// frameworks is printed (Markdown) and written to bench-results/matrix.json. Exits 1 when a bot
// is not `bot` with score ≤ 40 or a person is not `human` with score ≥ 90 and no failed check.
// Every client runs over each transport (./transports.ts): HTTPS at https://localhost:<TLS_PORT>
// with a certificate from a CA this run makes and installs in each engine's trust store, as a
// deployment with a real certificate serves people, and plain HTTP (MATRIX_TRANSPORTS=https or
// http for one). The gate runs five people (GATE_PEOPLE below); MATRIX_PEOPLE=all runs every one.
//   node_modules/.bin/bun tests/matrix/run.ts [client id …]     (npm run matrix)
// Needs Debian's chromium, chromium-driver, xvfb and firefox-esr (tests/gate.sh installs them);
// CHROMIUM_PATH, CHROMEDRIVER_PATH and FIREFOX_PATH override the paths of the first two and the last.

import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startServer } from '../support/server'
import {
  dumpDomClient,
  dumpDomUaClient,
  fingerprintInjectorClient,
  patchrightClient,
  patchrightHeadfulClient,
  phantomClient,
  playwrightClient,
  puppeteerClient,
  puppeteerHeadfulClient,
  realBrowserClient,
  seleniumClient,
  seleniumHeadfulClient,
  seleniumWebKitClient,
  stealthClient,
  type Client,
} from './clients'
import { rawDevToolsIsolatedWorldClient, rawDevToolsMainWorldClient } from './devtools-clients'
import { firefoxBidiClient, firefoxBidiHeadfulClient } from './firefox-clients'
import { jsdomClient, jsdomLayoutClient } from './jsdom-client'
import { impitOther151Client, proxyReplay149Client, replayClient, replayFirefoxClient, replayOther149Client } from './replay-client'
import { BROWSER_PATHS, browserVersions, PEOPLE as BROWSING_PEOPLE, type Person, type PersonContext } from './person'
import { PROXY_PEOPLE } from './proxy-people'
import { markdownTable, rowProblem, type Row } from './report'
import { matrixCa, matrixTransports, originOf, tlsServerEnv, type Transport } from './transports'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
/** The people: person.ts's, and those behind a TLS-inspecting proxy (issue 56). */
const PEOPLE: Record<string, Person> = { ...BROWSING_PEOPLE, ...PROXY_PEOPLE }
/** Every client, by the id the command line may name. */
const CLIENTS: Record<string, Client | Person> = {
  playwright: playwrightClient,
  puppeteer: puppeteerClient,
  stealth: stealthClient,
  selenium: seleniumClient,
  phantomjs: phantomClient,
  'dump-dom': dumpDomClient,
  // Beyond the issue's list: two clients only the newer checks catch (headless without its
  // name; a driven browser without the webdriver flag), kept so that those checks keep working.
  'dump-dom-ua': dumpDomUaClient,
  'puppeteer-headful': puppeteerHeadfulClient,
  // Driven over CDP or WebDriver with the usual markers hidden (issue 11).
  patchright: patchrightClient,
  'patchright-headful': patchrightHeadfulClient,
  'real-browser': realBrowserClient,
  'fingerprint-injector': fingerprintInjectorClient,
  'selenium-headful': seleniumHeadfulClient,
  // WebKit automation (issue 28).
  'selenium-webkit': seleniumWebKitClient,
  // The raw-DevTools class (nodriver, zendriver, selenium-driverless; issue 25).
  'devtools-main': rawDevToolsMainWorldClient,
  'devtools-isolated': rawDevToolsIsolatedWorldClient,
  // Firefox automation over WebDriver BiDi (issue 25).
  'firefox-bidi': firefoxBidiClient,
  'firefox-bidi-headful': firefoxBidiHeadfulClient,
  // No browser at all (issue 46): a person's recorded visit replayed by an HTTP client that
  // impersonates Chrome's TLS and HTTP/2 (wreq-js).
  replay: replayClient,
  'replay-firefox': replayFirefoxClient,
  // Issue 56: recorded on another instance of the service, claiming the version the client's
  // TLS copies (wreq's chrome_149), and the same through a second library (impit's chrome151).
  'replay-other-149': replayOther149Client,
  'impit-other-151': impitOther151Client,
  // …and through the TLS-inspecting proxy: the wire of the people behind it, without the proof.
  'proxy-replay-149': proxyReplay149Client,
  // Issue 56: the page's own scripts run in jsdom with a recorded person's values stubbed in.
  jsdom: jsdomClient,
  // Opt-in (not in the gate): the same answering the layout challenge with the server's own model.
  'jsdom-layout': jsdomLayoutClient,
  // The people (person.ts): Chromium as started from a desktop, another locale, time zone and
  // window size, and Firefox ESR with and without resistFingerprinting; and (issue 56) Chromium
  // and Firefox behind a TLS-inspecting proxy whose CA they trust (proxy-people.ts).
  ...PEOPLE,
}
/**
 * The people the gate's run has (every person with MATRIX_PEOPLE=all, or by name): each engine as
 * it ships, Firefox hardened, and Chromium behind an inspecting proxy, each opening bot-detector as
 * its browser's first page. Every person of person.ts and proxy-people.ts also meets bot-detector
 * in the tools matrix on both transports, held there to this matrix's rule (human, score ≥ 90, no
 * failed check: tests/matrix/tools-report.ts), so the gate judges them all once and does not pay
 * twice for the same visits.
 */
const GATE_PEOPLE = ['person', 'person-firefox', 'person-firefox-rfp', 'person-webkit', 'person-proxy']
/** Automation clients with a window, on an Xvfb display. */
const ON_XVFB = ['replay', 'replay-firefox', 'replay-other-149', 'impit-other-151', 'proxy-replay-149', 'jsdom', 'jsdom-layout', 'puppeteer-headful', 'patchright-headful', 'real-browser', 'selenium-headful', 'selenium-webkit', 'devtools-main', 'devtools-isolated', 'firefox-bidi-headful']
const PAGE_TIMEOUT_MS = 30_000
/** Clients at once (MATRIX_PARALLEL; 2 by default, one per core of a small machine). */
const PARALLEL = Math.max(1, Number(process.env.MATRIX_PARALLEL) || 2)
/** Attempts for a client judged on its input whose input could not be judged (Client.judgedOnInput). */
const INPUT_ATTEMPTS = 3
/** What input-pacing says when its blocks lost the CPU to other processes (src/checks/input-pacing.ts). */
const LOADED = 'lost more than a tenth of their time to other processes'

/** One client over one transport. */
interface Job {
  id: string
  transport: Transport
}

interface Lane {
  server: Awaited<ReturnType<typeof startServer>>
  key: string
}
/** A client that has not answered in this long is stopped and its row fails. */
const CLIENT_TIMEOUT_MS = 120_000

interface TaskBody {
  score: number
  results: { verdict?: string; frameworks?: string[]; checks?: Array<{ id: string; verdict: string; observed?: unknown; expected?: unknown }> }
}

/** A program's path: as given when it has a slash, else the first match on PATH. */
function findProgram(name: string): string | null {
  if (name.includes('/')) return existsSync(name) ? name : null
  for (const dir of (process.env.PATH ?? '').split(':')) if (dir && existsSync(join(dir, name))) return join(dir, name)
  return null
}

function requireProgram(path: string, what: string): void {
  if (!findProgram(path)) throw new Error(`Cannot run the matrix: no ${what} at ${path} (tests/gate.sh installs it; on Debian: apt-get install chromium chromium-driver xvfb firefox-esr epiphany-browser)`)
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} did not finish in ${ms / 1000} s`)), ms)))
  return Promise.race([p, late]).finally(() => clearTimeout(timer))
}

async function main(): Promise<number> {
  const names = process.argv.slice(2)
  const unknown = names.filter((n) => !(n in CLIENTS))
  if (unknown.length) {
    console.error(`matrix: unknown client ${unknown.join(', ')} (clients: ${Object.keys(CLIENTS).join(', ')})`)
    return 2
  }
  const everyone = process.env.MATRIX_PEOPLE === 'all'
  const chosen = names.length ? names : Object.keys(CLIENTS).filter((id) => !CLIENTS[id]!.optIn && (everyone || !(id in PEOPLE) || GATE_PEOPLE.includes(id)))
  const chromium = process.env.CHROMIUM_PATH || '/usr/bin/chromium'
  const chromedriver = process.env.CHROMEDRIVER_PATH || '/usr/bin/chromedriver'
  requireProgram(chromium, 'Chromium')
  if (chosen.some((id) => id === 'selenium' || id === 'selenium-headful')) requireProgram(chromedriver, 'chromedriver')
  if (chosen.includes('selenium-webkit')) {
    requireProgram(process.env.WEBKIT_WEBDRIVER_PATH || 'WebKitWebDriver', 'WebKitWebDriver (Debian: webkit2gtk-driver)')
    requireProgram(BROWSER_PATHS.minibrowser, "WebKitGTK's MiniBrowser")
  }
  if (chosen.some((id) => id in PEOPLE || ON_XVFB.includes(id))) requireProgram('Xvfb', 'Xvfb')
  const engines = new Set(chosen.flatMap((id) => (id in PEOPLE ? [PEOPLE[id]!.browser] : [])))
  if (engines.has('firefox') || chosen.includes('replay-firefox')) requireProgram(BROWSER_PATHS.firefox, 'Firefox ESR')
  if (engines.has('webkit')) {
    requireProgram(BROWSER_PATHS.epiphany, 'GNOME Web (epiphany-browser)')
    requireProgram(BROWSER_PATHS.minibrowser, "WebKitGTK's MiniBrowser")
  }
  const version = browserVersions(chromium, engines)
  const transports = matrixTransports()
  // Automation with a window of Firefox or WebKit needs the CA in those engines' stores too.
  const ca = matrixCa([...engines, ...(chosen.some((id) => id.startsWith('firefox-') || id === 'replay-firefox') ? (['firefox'] as const) : []), ...(chosen.includes('selenium-webkit') ? (['webkit'] as const) : [])])

  const started = Date.now()
  // One server per lane: a person's task is found as the newest one its server did not have
  // before (person.ts), so clients that run at once must not share a server.
  const lanes: Lane[] = []
  const rows: Row[] = []
  try {
    const lane = async (i: number): Promise<Lane> => {
      while (lanes.length <= i) {
        const server = await startServer(tlsServerEnv(ca))
        lanes.push({ server, key: await server.makeKey() })
      }
      return lanes[i]!
    }
    const runOne = async ({ id, transport }: Job, at: Lane): Promise<Row> => {
      const loaded: string[] = []
      for (let attempt = 1; ; attempt++) {
        const { row, inputUnjudged } = await attemptOne(id, transport, at)
        const retry = CLIENTS[id]!.judgedOnInput && inputUnjudged !== null && rowProblem(row) !== null
        if (retry && inputUnjudged.includes(LOADED)) loaded.push(inputUnjudged)
        if (!retry || attempt >= INPUT_ATTEMPTS) {
          // No attempt's input could be judged and the page showed it lost the CPU: the machine was
          // too loaded to show this client's catch (its moves came too seldom or the blocks were
          // taken), which says nothing either way; not a misjudgment. On an idle machine no block
          // loses its time, so the row must be judged there.
          const inconclusive = retry && loaded.length > 0 ? `its input could not be judged in ${attempt} attempts on this loaded machine` : undefined
          if (inconclusive) console.error(`matrix: ${id} (${transport}): INCONCLUSIVE: ${inconclusive}`)
          return { ...row, attempts: attempt, ...(inconclusive ? { inconclusive } : {}) }
        }
        console.error(`matrix: ${id} (${transport}): its pointer input did not reach the page steadily enough to judge (attempt ${attempt} of ${INPUT_ATTEMPTS}); again`)
      }
    }
    const attemptOne = async (id: string, transport: Transport, { server, key }: Lane): Promise<{ row: Row; inputUnjudged: string | null }> => {
      const client = CLIENTS[id]!
      const dir = mkdtempSync(join(tmpdir(), `antibot-matrix-${id}-`))
      const origin = originOf(server, transport)
      const ctx: PersonContext = { pageUrl: `${origin}/tools/bot-detector`, pageOrigin: origin, baseUrl: server.baseUrl, adminToken: server.adminToken, serverEnv: tlsServerEnv(ca), chromium, chromedriver, ...BROWSER_PATHS, dir, timeoutMs: PAGE_TIMEOUT_MS }
      const t0 = Date.now()
      let unjudged: string[] = []
      const row: Row = { client: client.name, transport, expected: client.expected, verdict: null, score: null, frameworks: [], mustName: client.mustName ?? [], mustFind: !client.mustFindOver || client.mustFindOver.includes(transport) ? (client.mustFind ?? []) : [], taskId: null, seconds: 0, error: null, findings: [] }
      try {
        row.taskId = await withTimeout(client.run(ctx), CLIENT_TIMEOUT_MS, client.name)
        const res = await fetch(`${server.baseUrl}/api/antibot/tasks/${row.taskId}`, { headers: { authorization: `Bearer ${key}` } })
        if (res.status !== 200) throw new Error(`GET /api/antibot/tasks/${row.taskId} answered ${res.status}: ${await res.text()}`)
        const task = (await res.json()) as TaskBody
        row.verdict = task.results.verdict ?? null
        row.score = task.score
        row.frameworks = task.results.frameworks ?? []
        row.findings = (task.results.checks ?? []).filter((c) => c.verdict === 'fail' || c.verdict === 'warn').map((c) => `${c.id} (${c.verdict})`)
        // What a misjudged row's checks could not judge, and why (a timed-out probe, no input)
        // (na: its reason is in `expected`), and what the input check saw whatever its verdict.
        unjudged = (task.results.checks ?? []).filter((c) => c.verdict === 'na' || c.id === 'input-pacing').map((c) => `${c.id} ${c.verdict}: ${JSON.stringify(c.verdict === 'na' ? c.expected : c.observed)}`)
      } catch (e) {
        row.error = e instanceof Error ? e.message : String(e)
      } finally {
        row.seconds = Math.round((Date.now() - t0) / 100) / 10
        rmSync(dir, { recursive: true, force: true })
      }
      const problem = rowProblem(row)
      const verdict = problem ? ` — FAIL: ${problem}` : ''
      console.error(`matrix: ${id} (${transport}): ${row.verdict ?? 'no result'} ${row.score ?? ''} in ${row.seconds} s${verdict}`)
      if (problem && row.findings.length) console.error(`matrix:   findings: ${row.findings.join(', ')}`)
      if (problem) for (const u of unjudged) console.error(`matrix:   not judged: ${u}`)
      return { row, inputUnjudged: unjudged.find((u) => u.startsWith('input-pacing na')) ?? null }
    }
    // Clients share nothing else (each its own display, profile, browser and driver port), so
    // PARALLEL of them go at once, each lane on its own server. Those judged on their input's
    // timing go last, one at a time: a second browser beside them takes the CPU their page's
    // input check needs. The table keeps the order they were chosen in.
    // Every client on every transport; the table keeps the order they were chosen in, HTTPS first.
    const jobs: Job[] = transports.flatMap((transport) => chosen.map((id) => ({ id, transport })))
    const key = (j: Job) => `${j.transport} ${j.id}`
    const done = new Map<string, Row>()
    const queue = jobs.filter((j) => !CLIENTS[j.id]!.judgedOnInput)
    await Promise.all(
      Array.from({ length: Math.min(PARALLEL, queue.length) }, async (_, i) => {
        const at = await lane(i)
        for (let job = queue.shift(); job !== undefined; job = queue.shift()) done.set(key(job), await runOne(job, at))
      }),
    )
    for (const job of jobs.filter((j) => CLIENTS[j.id]!.judgedOnInput)) done.set(key(job), await runOne(job, await lane(0)))
    for (const job of jobs) rows.push(done.get(key(job))!)
  } finally {
    await Promise.all(lanes.map((l) => l.server.stop()))
  }

  const seconds = Math.round((Date.now() - started) / 1000)
  console.log(`\nDetection matrix, ${version}, ${new Date().toISOString().slice(0, 10)}, ${seconds} s:\n`)
  console.log(markdownTable(rows))
  if (!names.length) {
    mkdirSync(join(ROOT, 'bench-results'), { recursive: true })
    const record = { measured_at: new Date().toISOString(), chromium: version, transports, seconds, clients: rows.map((r) => ({ ...r, problem: rowProblem(r) })) }
    writeFileSync(join(ROOT, 'bench-results/matrix.json'), `${JSON.stringify(record, null, 2)}\n`)
  }
  const failed = rows.filter((r) => rowProblem(r) !== null && !r.inconclusive)
  if (failed.length) console.error(`\nmatrix: ${failed.length} of ${rows.length} rows misjudged: ${failed.map((r) => `${r.client} (${r.transport})`).join('; ')}`)
  return failed.length ? 1 : 0
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(`matrix: ${e instanceof Error ? e.message : String(e)}`)
    process.exit(1)
  },
)
