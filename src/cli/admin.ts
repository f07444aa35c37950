// The operator CLI: `npm run admin -- <command>`. A thin client of the operator API
// (/api/admin/*) over HTTP, so it works against any running instance, local or remote, and
// never opens the database itself. Prints the server's JSON on success; on failure prints what
// could not be done and why, and exits non-zero (2 for a usage error, 1 for anything else).

import { adminRequest, parseAdminArgs, USAGE } from './admin-args'

export interface CliIo {
  fetch: (input: string, init: RequestInit) => Promise<Response>
  out: (text: string) => void
  err: (text: string) => void
}

export const DEFAULT_URL = 'http://127.0.0.1:3000'

export async function runAdmin(argv: readonly string[], env: Record<string, string | undefined>, io: CliIo): Promise<number> {
  const parsed = parseAdminArgs(argv)
  if (!parsed.ok) {
    io.err(`admin: ${parsed.error}\n\n${USAGE}`)
    return 2
  }
  const { command } = parsed
  if (command.kind === 'help') {
    io.out(USAGE)
    return 0
  }
  const token = env.ADMIN_TOKEN
  if (!token) {
    io.err('admin: ADMIN_TOKEN is not set; set it to the operator token the service was started with')
    return 2
  }
  const base = (env.ANTIBOT_URL || DEFAULT_URL).replace(/\/+$/, '')
  const request = adminRequest(command)
  const what = `${request.method} ${request.path}`

  let response: Response
  try {
    const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'application/json' }
    if (request.body) headers['content-type'] = 'application/json'
    response = await io.fetch(`${base}${request.path}`, {
      method: request.method,
      headers,
      ...(request.body ? { body: JSON.stringify(request.body) } : {}),
    })
  } catch (e) {
    io.err(`admin: cannot reach the service at ${base} (ANTIBOT_URL): ${e instanceof Error ? e.message : String(e)}`)
    return 1
  }

  const text = await response.text()
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    io.err(`admin: ${what} answered ${response.status} with a body that is not JSON: ${text.slice(0, 200)}`)
    return 1
  }
  if (!response.ok) {
    const error = body && typeof body === 'object' && typeof (body as { error?: unknown }).error === 'string' ? (body as { error: string }).error : text
    io.err(`admin: ${what} failed with ${response.status}: ${error}`)
    return 1
  }
  io.out(JSON.stringify(body, null, 2))
  return 0
}

if (import.meta.main) {
  const code = await runAdmin(process.argv.slice(2), process.env, {
    fetch: (input, init) => fetch(input, init),
    out: (text) => console.log(text),
    err: (text) => console.error(text),
  })
  process.exit(code)
}
