// The operator CLI as an operator runs it: a separate `bun src/cli/admin.ts` process talking
// HTTP to a listening app (on the test database), configured only through its environment.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { fileURLToPath } from 'node:url'
import { buildTestApp } from './support/app'
import { openTestDatabase, testDrivers, type TestDatabase } from './support/db'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const ADMIN_TOKEN = 'cli-test-operator-token-0123456789'

async function runCli(baseUrl: string, args: string[], token: string | null = ADMIN_TOKEN) {
  const env: Record<string, string> = { ...(process.env as Record<string, string>), ANTIBOT_URL: baseUrl }
  if (token === null) delete env.ADMIN_TOKEN
  else env.ADMIN_TOKEN = token
  // Asynchronous spawn: the app answering the CLI runs on this process's event loop.
  const child = Bun.spawn([process.execPath, 'src/cli/admin.ts', ...args], { cwd: ROOT, env, stdout: 'pipe', stderr: 'pipe' })
  const [code, stdout, stderr] = await Promise.all([child.exited, new Response(child.stdout).text(), new Response(child.stderr).text()])
  return { code, stdout, stderr }
}

for (const driver of testDrivers()) {
  describe(`operator CLI against a running app (${driver})`, () => {
    let database: TestDatabase
    let app: Awaited<ReturnType<typeof buildTestApp>>['app']
    let baseUrl: string

    beforeAll(async () => {
      database = await openTestDatabase(driver)
      app = (await buildTestApp(database.db, { adminToken: ADMIN_TOKEN })).app
      app.listen({ port: 0, hostname: '127.0.0.1' })
      baseUrl = `http://127.0.0.1:${app.server!.port}`
    }, 30_000)

    afterAll(async () => {
      await app?.stop()
      await database?.destroy()
    }, 30_000)

    test('creates a plan and a key, shows the key and deactivates it', async () => {
      const plan = await runCli(baseUrl, ['plan', 'set', 'cli-plan', '250'])
      expect(plan.stderr).toBe('')
      expect(plan.code).toBe(0)
      expect(JSON.parse(plan.stdout)).toMatchObject({ name: 'cli-plan', monthly_limit: 250 })

      const plans = await runCli(baseUrl, ['plans'])
      expect(plans.code).toBe(0)
      expect(JSON.parse(plans.stdout)).toContainEqual(expect.objectContaining({ name: 'cli-plan', monthly_limit: 250 }))

      const created = await runCli(baseUrl, ['key', 'create', '--email', 'cli@example.test', '--plan', 'cli-plan', '--name', 'from-cli', '--expires', '2030-01-01T00:00:00Z'])
      expect(created.stderr).toBe('')
      expect(created.code).toBe(0)
      const key = JSON.parse(created.stdout) as { id: string; key: string; plan: string; status: string; expires_at: string }
      expect(key).toMatchObject({ plan: 'cli-plan', status: 'active', expires_at: '2030-01-01T00:00:00+00:00' })
      expect(key.key).toStartWith('ab_')

      const shown = await runCli(baseUrl, ['key', 'show', key.id])
      expect(shown.code).toBe(0)
      expect(JSON.parse(shown.stdout)).toMatchObject({ id: key.id, name: 'from-cli', usage: { used: 0, limit: 250, remaining: 250 } })

      const updated = await runCli(baseUrl, ['key', 'update', key.id, '--status', 'inactive', '--expires', 'none'])
      expect(updated.code).toBe(0)
      expect(JSON.parse(updated.stdout)).toMatchObject({ id: key.id, status: 'inactive', expires_at: null })
    })

    test('plan set makes a plan operator-only unless --self-serve yes; plans shows which; key create takes any plan', async () => {
      const hidden = await runCli(baseUrl, ['plan', 'set', 'cli-hidden', '2000000000'])
      expect(hidden.code).toBe(0)
      expect(JSON.parse(hidden.stdout)).toMatchObject({ name: 'cli-hidden', self_serve: false })
      const open = await runCli(baseUrl, ['plan', 'set', 'cli-open', '10', '--self-serve', 'yes'])
      expect(JSON.parse(open.stdout)).toMatchObject({ name: 'cli-open', self_serve: true })
      const plans = JSON.parse((await runCli(baseUrl, ['plans'])).stdout) as Array<{ name: string; self_serve: boolean }>
      expect(plans).toContainEqual(expect.objectContaining({ name: 'cli-hidden', self_serve: false }))
      expect(plans).toContainEqual(expect.objectContaining({ name: 'free', self_serve: true }))
      const key = await runCli(baseUrl, ['key', 'create', '--email', 'vip@example.test', '--plan', 'cli-hidden'])
      expect(key.code).toBe(0)
      expect(JSON.parse(key.stdout)).toMatchObject({ plan: 'cli-hidden' })
    })

    test('a far expiry is refused by the server, naming the field', async () => {
      const r = await runCli(baseUrl, ['key', 'create', '--email', 'far@example.test', '--plan', 'free', '--expires', '9999-12-31T23:59:59-23:59'])
      expect(r.code).toBe(1)
      expect(r.stderr).toContain('failed with 422: Cannot create key: expires_at must lie between 1970-01-01T00:00:00Z and 9999-12-31T23:59:59Z once in UTC')
    })

    test("prints the server's error and exits 1 when the server refuses", async () => {
      const r = await runCli(baseUrl, ['key', 'create', '--email', 'cli@example.test', '--plan', 'no-such-plan'])
      expect(r.code).toBe(1)
      expect(r.stdout).toBe('')
      expect(r.stderr).toContain("admin: POST /api/admin/keys failed with 422: Cannot create key: unknown plan 'no-such-plan'")
    })

    test('exits 1 with the reason when the token is wrong', async () => {
      const r = await runCli(baseUrl, ['plans'], 'wrong-token-wrong-token')
      expect(r.code).toBe(1)
      expect(r.stderr).toContain('failed with 401: Operator token required')
    })

    test('exits 2 without a token or with a usage error, before any request', async () => {
      const noToken = await runCli(baseUrl, ['plans'], null)
      expect(noToken.code).toBe(2)
      expect(noToken.stderr).toContain('ADMIN_TOKEN is not set')
      const usage = await runCli(baseUrl, ['plan', 'set', 'x', 'many'])
      expect(usage.code).toBe(2)
      expect(usage.stderr).toContain("admin: monthly_limit must be a whole number of requests, got 'many'")
      expect(usage.stderr).toContain('Usage: npm run admin -- <command>')
    })

    test('says which URL it could not reach', async () => {
      const r = await runCli('http://127.0.0.1:9', ['plans'])
      expect(r.code).toBe(1)
      expect(r.stderr).toContain('admin: cannot reach the service at http://127.0.0.1:9 (ANTIBOT_URL)')
    })
  })
}
