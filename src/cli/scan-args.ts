// Argument parsing and exit codes of the sample client (src/cli/scan.ts), kept pure for tests.

import { isToolId, TOOL_IDS, type ToolId } from '../../common/tools'

export interface ScanOptions {
  tool: ToolId
  baseUrl: string
  key: string | undefined
  timeoutMs: number
  headed: boolean
}

export const EXIT = { ok: 0, failure: 1, usage: 2, timeout: 3, unauthorized: 4, forbidden: 5, notFound: 6 } as const

export const USAGE = `Usage: npm run scan -- <tool> [--base-url URL] [--key KEY] [--timeout MS] [--headed]

Opens /tools/<tool> in Chromium, waits for <body data-task>, fetches the task with the API key
and prints it as JSON. The key may also come from ANTIBOT_API_KEY, the base URL from ANTIBOT_URL.
Tools: ${TOOL_IDS.join(', ')}`

export function parseScanArgs(argv: readonly string[], env: Record<string, string | undefined>): { ok: true; options: ScanOptions } | { ok: false; error: string } {
  let tool: string | undefined
  let baseUrl = env.ANTIBOT_URL ?? 'http://127.0.0.1:3000'
  let key = env.ANTIBOT_API_KEY
  let timeoutMs = 30_000
  let headed = false
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!
    const value = () => {
      const v = argv[++i]
      if (v === undefined || v.startsWith('--')) throw new Error(`${a} needs a value`)
      return v
    }
    try {
      if (a === '--base-url') baseUrl = value()
      else if (a === '--key') key = value()
      else if (a === '--timeout') {
        const v = value()
        timeoutMs = Number(v)
        if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) return { ok: false, error: `--timeout must be a positive whole number of milliseconds, got '${v}'` }
      } else if (a === '--headed') headed = true
      else if (a === '--help' || a === '-h') return { ok: false, error: '' }
      else if (a.startsWith('--')) return { ok: false, error: `unknown option ${a}` }
      else if (tool === undefined) tool = a
      else return { ok: false, error: `unexpected argument '${a}'` }
    } catch (e) {
      return { ok: false, error: (e as Error).message }
    }
  }
  if (!tool) return { ok: false, error: 'which tool? give one of the tool identifiers' }
  if (!isToolId(tool)) return { ok: false, error: `unknown tool '${tool}'` }
  try {
    const u = new URL(baseUrl)
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error()
  } catch {
    return { ok: false, error: `--base-url must be an http(s) URL, got '${baseUrl}'` }
  }
  return { ok: true, options: { tool, baseUrl: baseUrl.replace(/\/+$/, ''), key, timeoutMs, headed } }
}

/** The exit code for the API's answer to the fetch. */
export function exitForStatus(status: number): number {
  if (status === 200) return EXIT.ok
  if (status === 401) return EXIT.unauthorized
  if (status === 403) return EXIT.forbidden
  if (status === 404) return EXIT.notFound
  return EXIT.failure
}
