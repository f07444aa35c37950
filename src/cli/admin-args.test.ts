import { describe, expect, test } from 'bun:test'
import { adminRequest, parseAdminArgs, type AdminCommand } from './admin-args'

function command(argv: string[]): AdminCommand {
  const parsed = parseAdminArgs(argv)
  if (!parsed.ok) throw new Error(`expected a command, got error: ${parsed.error}`)
  return parsed.command
}

function error(argv: string[]): string {
  const parsed = parseAdminArgs(argv)
  if (parsed.ok) throw new Error(`expected an error, got ${JSON.stringify(parsed.command)}`)
  return parsed.error
}

describe('parseAdminArgs', () => {
  test('reads help in its usual spellings', () => {
    for (const argv of [['help'], ['--help'], ['-h']]) expect(command(argv)).toEqual({ kind: 'help' })
  })

  test('refuses an empty command line and unknown commands', () => {
    expect(error([])).toBe('no command given')
    expect(error(['plan-set'])).toBe("unknown command 'plan-set'")
    expect(error(['key', 'delete', 'x'])).toContain("unknown command 'key delete'")
    expect(error(['plan'])).toContain("'plan' needs a subcommand")
  })

  test('reads plans, refusing extra arguments', () => {
    expect(command(['plans'])).toEqual({ kind: 'plans' })
    expect(error(['plans', 'extra'])).toBe("'plans' got an unexpected argument 'extra'")
    expect(error(['plans', '--all'])).toContain("unknown option '--all'")
  })

  test('reads plan set with a whole-number limit', () => {
    expect(command(['plan', 'set', 'pro', '100000'])).toEqual({ kind: 'plan-set', name: 'pro', monthlyLimit: 100000 })
    expect(command(['plan', 'set', 'closed', '0'])).toEqual({ kind: 'plan-set', name: 'closed', monthlyLimit: 0 })
  })

  test('reads plan set --self-serve yes|no (also true|false); left out, it is not sent', () => {
    expect(command(['plan', 'set', 'team', '500', '--self-serve', 'yes'])).toEqual({ kind: 'plan-set', name: 'team', monthlyLimit: 500, selfServe: true })
    expect(command(['plan', 'set', '--self-serve=No', 'team', '500'])).toEqual({ kind: 'plan-set', name: 'team', monthlyLimit: 500, selfServe: false })
    expect(command(['plan', 'set', 'team', '500', '--self-serve', 'true'])).toMatchObject({ selfServe: true })
    expect(command(['plan', 'set', 'team', '500', '--self-serve', 'false'])).toMatchObject({ selfServe: false })
    expect(command(['plan', 'set', 'team', '500'])).not.toHaveProperty('selfServe')
    expect(error(['plan', 'set', 'team', '500', '--self-serve', 'maybe'])).toBe("--self-serve must be 'yes' or 'no', got 'maybe'")
    expect(error(['plan', 'set', 'team', '500', '--self-serve'])).toBe('option --self-serve needs a value')
  })

  test('refuses plan set with a missing, negative, fractional or non-numeric limit', () => {
    expect(error(['plan', 'set', 'pro'])).toBe("'plan set' needs <name> <monthly_limit>")
    for (const bad of ['-1', '1.5', '1e3', 'lots', '99999999999999999999']) {
      expect(error(['plan', 'set', 'pro', bad])).toBe(`monthly_limit must be a whole number of requests, got '${bad}'`)
    }
  })

  test('reads key create with required and optional options, in either spelling', () => {
    expect(command(['key', 'create', '--email', 'a@example.com', '--plan', 'free'])).toEqual({ kind: 'key-create', email: 'a@example.com', plan: 'free' })
    expect(command(['key', 'create', '--plan=pro', '--email=a@example.com', '--name', 'ci', '--expires', '2027-01-31T00:00:00Z'])).toEqual({
      kind: 'key-create',
      email: 'a@example.com',
      plan: 'pro',
      name: 'ci',
      expiresAt: '2027-01-31T00:00:00Z',
    })
  })

  test('refuses key create without --email or --plan, or with a value missing or repeated', () => {
    expect(error(['key', 'create', '--plan', 'free'])).toBe("'key create' needs --email")
    expect(error(['key', 'create', '--email', 'a@example.com'])).toBe("'key create' needs --plan")
    expect(error(['key', 'create', '--email', '--plan', 'free'])).toBe('option --email needs a value')
    expect(error(['key', 'create', '--email', 'a@example.com', '--plan'])).toBe('option --plan needs a value')
    expect(error(['key', 'create', '--email=', '--plan', 'free'])).toBe('option --email needs a value')
    expect(error(['key', 'create', '--email', 'a@x.io', '--email', 'b@x.io', '--plan', 'free'])).toBe('option --email is given twice')
    expect(error(['key', 'create', '--email', 'a@x.io', '--plan', 'free', '--status', 'active'])).toContain("unknown option '--status'")
    expect(error(['key', 'create', 'stray', '--email', 'a@x.io', '--plan', 'free'])).toBe("'key create' got an unexpected argument 'stray'")
  })

  test('reads key show with exactly one id', () => {
    expect(command(['key', 'show', 'c0ffee00-0000-4000-8000-000000000000'])).toEqual({ kind: 'key-show', id: 'c0ffee00-0000-4000-8000-000000000000' })
    expect(error(['key', 'show'])).toBe("'key show' needs <id>")
    expect(error(['key', 'show', 'a', 'b'])).toBe("'key show' got an unexpected argument 'b'")
  })

  test('reads key update; --expires none clears the expiry', () => {
    expect(command(['key', 'update', 'k1', '--status', 'inactive'])).toEqual({ kind: 'key-update', id: 'k1', status: 'inactive' })
    expect(command(['key', 'update', 'k1', '--expires', 'none', '--plan', 'pro'])).toEqual({ kind: 'key-update', id: 'k1', expiresAt: null, plan: 'pro' })
    expect(command(['key', 'update', '--expires=2027-01-01', 'k1'])).toEqual({ kind: 'key-update', id: 'k1', expiresAt: '2027-01-01' })
  })

  test('refuses key update with nothing to change or a status other than active/inactive', () => {
    expect(error(['key', 'update', 'k1'])).toBe("'key update' has nothing to change: give --status, --expires or --plan")
    expect(error(['key', 'update', 'k1', '--status', 'paused'])).toBe("--status must be 'active' or 'inactive', got 'paused'")
    expect(error(['key', 'update', '--status', 'active'])).toBe("'key update' needs <id>")
  })
})

describe('adminRequest', () => {
  test('maps each command to its operator API request', () => {
    expect(adminRequest({ kind: 'plans' })).toEqual({ method: 'GET', path: '/api/admin/plans' })
    expect(adminRequest({ kind: 'plan-set', name: 'pro', monthlyLimit: 5 })).toEqual({ method: 'POST', path: '/api/admin/plans', body: { name: 'pro', monthly_limit: 5 } })
    expect(adminRequest({ kind: 'plan-set', name: 'team', monthlyLimit: 5, selfServe: false })).toEqual({
      method: 'POST',
      path: '/api/admin/plans',
      body: { name: 'team', monthly_limit: 5, self_serve: false },
    })
    expect(adminRequest({ kind: 'key-create', email: 'a@x.io', plan: 'free', expiresAt: null })).toEqual({
      method: 'POST',
      path: '/api/admin/keys',
      body: { email: 'a@x.io', plan: 'free', expires_at: null },
    })
    expect(adminRequest({ kind: 'key-show', id: 'a/b' })).toEqual({ method: 'GET', path: '/api/admin/keys/a%2Fb' })
    expect(adminRequest({ kind: 'key-update', id: 'k1', status: 'active', expiresAt: null })).toEqual({
      method: 'PATCH',
      path: '/api/admin/keys/k1',
      body: { status: 'active', expires_at: null },
    })
  })
})
