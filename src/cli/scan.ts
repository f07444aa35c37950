// The sample client of the interface spec: open a tool page in Chromium, wait (up to 30 s by
// default) for an element with data-task, fetch the task with an API key, print it.
//   npm run scan -- bot-detector --key ab_… [--base-url http://127.0.0.1:3000] [--headed]

import { chromium } from 'playwright-core'
import { EXIT, USAGE, exitForStatus, parseScanArgs } from './scan-args'

async function main(): Promise<number> {
  const parsed = parseScanArgs(process.argv.slice(2), process.env)
  if (!parsed.ok) {
    if (parsed.error) console.error(`scan: ${parsed.error}\n`)
    console.error(USAGE)
    return parsed.error ? EXIT.usage : EXIT.ok
  }
  const { tool, baseUrl, key, timeoutMs, headed } = parsed.options
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    headless: !headed,
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
  })
  let taskId: string | null
  try {
    const page = await browser.newPage()
    const url = `${baseUrl}/tools/${tool}`
    const res = await page.goto(url)
    if (!res?.ok()) {
      console.error(`scan: ${url} answered ${res?.status() ?? 'nothing'}`)
      return EXIT.failure
    }
    try {
      await page.waitForSelector('[data-task]', { timeout: timeoutMs, state: 'attached' })
    } catch {
      console.error(`scan: no element with data-task appeared within ${timeoutMs} ms on ${url}`)
      return EXIT.timeout
    }
    taskId = await page.locator('[data-task]').first().getAttribute('data-task')
  } finally {
    await browser.close()
  }
  if (!key) {
    console.log(JSON.stringify({ task_id: taskId }))
    console.error('scan: no API key given (--key or ANTIBOT_API_KEY), so only the task id is printed')
    return EXIT.ok
  }
  const api = await fetch(`${baseUrl}/api/antibot/tasks/${taskId}`, { headers: { authorization: `Bearer ${key}` } })
  const text = await api.text()
  if (api.status !== 200) {
    let message = text
    try {
      message = (JSON.parse(text) as { error?: string }).error ?? text
    } catch {}
    console.error(`scan: GET /api/antibot/tasks/${taskId} answered ${api.status}: ${message}`)
    return exitForStatus(api.status)
  }
  console.log(JSON.stringify(JSON.parse(text), null, 2))
  return EXIT.ok
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(`scan: ${e instanceof Error ? e.message : String(e)}`)
    process.exit(EXIT.failure)
  },
)
