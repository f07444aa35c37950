// The sample client of the interface spec: open a tool page in Chromium, wait (up to 30 s by
// default) for an element with data-task, fetch the task with an API key, print it.
//   npm run scan -- bot-detector --key ab_… [--base-url http://127.0.0.1:3000] [--headed]
// And the run modes (issue 47; docs/ci.md): open /run, which runs every tool, and judge the run,
// or judge a run the caller's own automation made, against an expectation and a baseline.
//   npm run scan -- run --key ab_… [--expect human|bot] [--baseline <id>] [--json]
//   npm run scan -- --run <run_id> --key ab_… [--expect human|bot] [--baseline <id>] [--json]

import { isUuid } from '../core/ids'
import { EXIT, USAGE, exitForStatus, parseScanArgs, type RunScanOptions, type ToolScanOptions } from './scan-args'
import { judgeExpectation, parseComparison, parseRun, renderReport, runReport } from './scan-run'

/**
 * Opens `path` in Chromium and returns the value of the first `attribute` to appear on
 * `selector`, or an exit code (the page's status, or the wait's timeout) after saying why.
 */
async function openAndRead(baseUrl: string, path: string, selector: string, attribute: string, timeoutMs: number, headed: boolean): Promise<{ value: string | null } | { exit: number }> {
  // Loaded here: --run needs no browser, and the container image, which has no playwright-core
  // (a development dependency), runs it (docs/ci.md).
  const { chromium } = await import('playwright-core')
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    headless: !headed,
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
  })
  try {
    const page = await browser.newPage()
    const url = `${baseUrl}${path}`
    const res = await page.goto(url)
    if (!res?.ok()) {
      console.error(`scan: ${url} answered ${res?.status() ?? 'nothing'}`)
      return { exit: EXIT.failure }
    }
    try {
      await page.waitForSelector(selector, { timeout: timeoutMs, state: 'attached' })
    } catch {
      console.error(`scan: no element with ${attribute} appeared within ${timeoutMs} ms on ${url}`)
      return { exit: EXIT.timeout }
    }
    return { value: await page.locator(selector).first().getAttribute(attribute) }
  } finally {
    await browser.close()
  }
}

/** A keyed GET of the API: the parsed body on 200, else the exit code after saying why. */
async function getKeyed(baseUrl: string, path: string, key: string): Promise<{ body: unknown } | { exit: number }> {
  let api: Response
  try {
    api = await fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${key}` } })
  } catch (e) {
    console.error(`scan: cannot reach the service at ${baseUrl} (--base-url or ANTIBOT_URL): ${e instanceof Error ? e.message : String(e)}`)
    return { exit: EXIT.failure }
  }
  const text = await api.text()
  if (api.status !== 200) {
    let message = text
    try {
      message = (JSON.parse(text) as { error?: string }).error ?? text
    } catch {}
    console.error(`scan: GET ${path} answered ${api.status}: ${message}`)
    return { exit: exitForStatus(api.status) }
  }
  return { body: JSON.parse(text) }
}

async function scanTool({ tool, baseUrl, key, timeoutMs, headed }: ToolScanOptions): Promise<number> {
  const opened = await openAndRead(baseUrl, `/tools/${tool}`, '[data-task]', 'data-task', timeoutMs, headed)
  if ('exit' in opened) return opened.exit
  const taskId = opened.value
  if (!key) {
    console.log(JSON.stringify({ task_id: taskId }))
    console.error('scan: no API key given (--key or ANTIBOT_API_KEY), so only the task id is printed')
    return EXIT.ok
  }
  const got = await getKeyed(baseUrl, `/api/antibot/tasks/${taskId}`, key)
  if ('exit' in got) return got.exit
  console.log(JSON.stringify(got.body, null, 2))
  return EXIT.ok
}

async function scanRun(o: RunScanOptions): Promise<number> {
  let runId = o.runId
  if (runId === null) {
    const opened = await openAndRead(o.baseUrl, '/run', 'body[data-run]', 'data-run', o.timeoutMs, o.headed)
    if ('exit' in opened) return opened.exit
    if (!isUuid(opened.value)) {
      console.error(`scan: /run set data-run to '${opened.value}', which is not a run id`)
      return EXIT.failure
    }
    runId = opened.value
  }
  if (!o.key) {
    // Only `scan run` gets here (parseScanArgs wants a key for --run, --expect and --baseline).
    console.log(JSON.stringify({ run_id: runId }))
    console.error('scan: no API key given (--key or ANTIBOT_API_KEY), so only the run id is printed')
    return EXIT.ok
  }
  const got = await getKeyed(o.baseUrl, `/api/antibot/runs/${encodeURIComponent(runId)}`, o.key)
  if ('exit' in got) return got.exit
  const run = parseRun(got.body)
  let comparison = null
  if (o.baseline !== null) {
    const compared = await getKeyed(o.baseUrl, `/api/antibot/compare?base=${encodeURIComponent(o.baseline)}&head=${encodeURIComponent(runId)}`, o.key)
    if ('exit' in compared) return compared.exit
    comparison = parseComparison(compared.body)
  }
  const report = runReport(run, o.expect === null ? null : judgeExpectation(run, o.expect), comparison)
  console.log(o.json ? JSON.stringify(report, null, 2) : renderReport(report))
  return report.exit_code
}

async function main(): Promise<number> {
  const parsed = parseScanArgs(process.argv.slice(2), process.env)
  if (!parsed.ok) {
    if (parsed.error) console.error(`scan: ${parsed.error}\n`)
    console.error(USAGE)
    return parsed.error ? EXIT.usage : EXIT.ok
  }
  return parsed.options.mode === 'tool' ? scanTool(parsed.options) : scanRun(parsed.options)
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(`scan: ${e instanceof Error ? e.message : String(e)}`)
    process.exit(EXIT.failure)
  },
)
