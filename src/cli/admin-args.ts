// Argument parsing for the operator CLI (src/cli/admin.ts): argv in, a command or a usage
// error out, and the HTTP request each command makes. Pure, so the tests pin it down without a
// server; the server still validates everything it receives.

export type KeyStatus = 'active' | 'inactive'

export type AdminCommand =
  | { kind: 'help' }
  | { kind: 'plans' }
  | { kind: 'plan-set'; name: string; monthlyLimit: number; selfServe?: boolean }
  | { kind: 'key-create'; email: string; plan: string; name?: string; expiresAt?: string | null }
  | { kind: 'key-show'; id: string }
  | { kind: 'key-update'; id: string; status?: KeyStatus; expiresAt?: string | null; plan?: string }

export type ParsedArgs = { ok: true; command: AdminCommand } | { ok: false; error: string }

export interface AdminRequest {
  method: 'GET' | 'POST' | 'PATCH'
  path: string
  body?: Record<string, unknown>
}

export const USAGE = `Usage: npm run admin -- <command>

Commands:
  plans                                   List the plans, their monthly limits and whether they are self-serve.
  plan set <name> <monthly_limit> [--self-serve yes|no]
                                          Create a plan, or change the limit of an existing one.
                                          A new plan is not self-serve (accounts cannot choose it
                                          on the dashboard) unless --self-serve yes; left out, an
                                          existing plan keeps its setting.
  key create --email E --plan P [--name N] [--expires ISO]
                                          Create an API key (and its account) on any plan;
                                          prints the key once.
  key show <id>                           Show a key with this month's usage and limit.
  key update <id> [--status active|inactive] [--expires ISO|none] [--plan P]
                                          Change a key's status, expiry or plan.
  help                                    Show this text.

Environment:
  ANTIBOT_URL   Base URL of the service (default http://127.0.0.1:3000).
  ADMIN_TOKEN   The service's operator token (required for every command but help).

Timestamps are ISO 8601, e.g. 2027-01-31T00:00:00Z or 2027-01-31 (midnight UTC), from
1970-01-01 to 9999-12-31 in UTC.`

const fail = (error: string): ParsedArgs => ({ ok: false, error })

/**
 * Splits the arguments after a command into positionals and `--name value` / `--name=value`
 * options, refusing options the command does not know, options without a value, and repeats.
 */
function splitOptions(
  args: readonly string[],
  known: readonly string[],
): { ok: true; positionals: string[]; options: Map<string, string> } | { ok: false; error: string } {
  const positionals: string[] = []
  const options = new Map<string, string>()
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!
    if (!arg.startsWith('--')) {
      positionals.push(arg)
      continue
    }
    const eq = arg.indexOf('=')
    const name = eq >= 0 ? arg.slice(2, eq) : arg.slice(2)
    if (!known.includes(name)) {
      const allowed = known.length ? `known options: ${known.map((k) => `--${k}`).join(', ')}` : 'this command takes no options'
      return { ok: false, error: `unknown option '--${name}' (${allowed})` }
    }
    let value: string | undefined
    if (eq >= 0) value = arg.slice(eq + 1)
    else {
      value = args[i + 1]
      if (value === undefined || value.startsWith('--')) return { ok: false, error: `option --${name} needs a value` }
      i++
    }
    if (value === '') return { ok: false, error: `option --${name} needs a value` }
    if (options.has(name)) return { ok: false, error: `option --${name} is given twice` }
    options.set(name, value)
  }
  return { ok: true, positionals, options }
}

function expectPositionals(positionals: readonly string[], names: readonly string[], command: string): string | null {
  if (positionals.length < names.length) {
    return `'${command}' needs ${names.map((n) => `<${n}>`).join(' ')}`
  }
  if (positionals.length > names.length) return `'${command}' got an unexpected argument '${positionals[names.length]}'`
  return null
}

/** `none` clears an expiry; anything else is passed to the server, which checks the format. */
function expiryOption(value: string | undefined): string | null | undefined {
  if (value === undefined) return undefined
  return value.toLowerCase() === 'none' ? null : value
}

export function parseAdminArgs(argv: readonly string[]): ParsedArgs {
  const [first, second, ...rest] = argv
  if (first === undefined) return fail('no command given')
  if (first === 'help' || first === '--help' || first === '-h') return { ok: true, command: { kind: 'help' } }

  if (first === 'plans') {
    const split = splitOptions(argv.slice(1), [])
    if (!split.ok) return fail(split.error)
    const bad = expectPositionals(split.positionals, [], 'plans')
    return bad ? fail(bad) : { ok: true, command: { kind: 'plans' } }
  }

  if (first === 'plan') {
    if (second !== 'set') return fail(second === undefined ? "'plan' needs a subcommand: plan set <name> <monthly_limit>" : `unknown command 'plan ${second}' (did you mean 'plan set'?)`)
    const split = splitOptions(rest, ['self-serve'])
    if (!split.ok) return fail(split.error)
    const bad = expectPositionals(split.positionals, ['name', 'monthly_limit'], 'plan set')
    if (bad) return fail(bad)
    const [name, limit] = split.positionals as [string, string]
    if (!/^\d+$/.test(limit) || !Number.isSafeInteger(Number(limit))) {
      return fail(`monthly_limit must be a whole number of requests, got '${limit}'`)
    }
    const command: AdminCommand = { kind: 'plan-set', name, monthlyLimit: Number(limit) }
    const selfServe = split.options.get('self-serve')
    if (selfServe !== undefined) {
      const yes = ['yes', 'true'].includes(selfServe.toLowerCase())
      if (!yes && !['no', 'false'].includes(selfServe.toLowerCase())) return fail(`--self-serve must be 'yes' or 'no', got '${selfServe}'`)
      command.selfServe = yes
    }
    return { ok: true, command }
  }

  if (first === 'key') {
    if (second === 'create') {
      const split = splitOptions(rest, ['email', 'plan', 'name', 'expires'])
      if (!split.ok) return fail(split.error)
      const bad = expectPositionals(split.positionals, [], 'key create')
      if (bad) return fail(bad)
      const o = split.options
      const email = o.get('email')
      const plan = o.get('plan')
      if (email === undefined) return fail("'key create' needs --email")
      if (plan === undefined) return fail("'key create' needs --plan")
      const command: AdminCommand = { kind: 'key-create', email, plan }
      if (o.has('name')) command.name = o.get('name')!
      const expires = expiryOption(o.get('expires'))
      if (expires !== undefined) command.expiresAt = expires
      return { ok: true, command }
    }
    if (second === 'show') {
      const split = splitOptions(rest, [])
      if (!split.ok) return fail(split.error)
      const bad = expectPositionals(split.positionals, ['id'], 'key show')
      return bad ? fail(bad) : { ok: true, command: { kind: 'key-show', id: split.positionals[0]! } }
    }
    if (second === 'update') {
      const split = splitOptions(rest, ['status', 'expires', 'plan'])
      if (!split.ok) return fail(split.error)
      const bad = expectPositionals(split.positionals, ['id'], 'key update')
      if (bad) return fail(bad)
      const o = split.options
      const command: AdminCommand = { kind: 'key-update', id: split.positionals[0]! }
      const status = o.get('status')
      if (status !== undefined) {
        if (status !== 'active' && status !== 'inactive') return fail(`--status must be 'active' or 'inactive', got '${status}'`)
        command.status = status
      }
      const expires = expiryOption(o.get('expires'))
      if (expires !== undefined) command.expiresAt = expires
      if (o.has('plan')) command.plan = o.get('plan')!
      if (o.size === 0) return fail("'key update' has nothing to change: give --status, --expires or --plan")
      return { ok: true, command }
    }
    return fail(second === undefined ? "'key' needs a subcommand: create, show or update" : `unknown command 'key ${second}' (key commands: create, show, update)`)
  }

  return fail(`unknown command '${first}'`)
}

/** The operator API request for a command (help makes none). */
export function adminRequest(command: Exclude<AdminCommand, { kind: 'help' }>): AdminRequest {
  switch (command.kind) {
    case 'plans':
      return { method: 'GET', path: '/api/admin/plans' }
    case 'plan-set':
      return {
        method: 'POST',
        path: '/api/admin/plans',
        body: { name: command.name, monthly_limit: command.monthlyLimit, ...(command.selfServe === undefined ? {} : { self_serve: command.selfServe }) },
      }
    case 'key-create': {
      const body: Record<string, unknown> = { email: command.email, plan: command.plan }
      if (command.name !== undefined) body.name = command.name
      if (command.expiresAt !== undefined) body.expires_at = command.expiresAt
      return { method: 'POST', path: '/api/admin/keys', body }
    }
    case 'key-show':
      return { method: 'GET', path: `/api/admin/keys/${encodeURIComponent(command.id)}` }
    case 'key-update': {
      const body: Record<string, unknown> = {}
      if (command.status !== undefined) body.status = command.status
      if (command.expiresAt !== undefined) body.expires_at = command.expiresAt
      if (command.plan !== undefined) body.plan = command.plan
      return { method: 'PATCH', path: `/api/admin/keys/${encodeURIComponent(command.id)}`, body }
    }
  }
}
