// The bare baseline the HTTP benchmark compares the service with: raw Bun.serve and
// postgres.js doing the same work as the service's hot endpoints in the fewest statements —
// GET: key hash lookup + conditional monthly increment + task read in one statement;
// POST: parse, minimal shape check, one insert. No framework, no validation beyond that.
//   bun tests/bench/baseline.ts <database-url>   (prints "baseline listening on <url>")

import { createHash, randomUUID } from 'node:crypto'
import postgres from 'postgres'

const url = process.argv[2]
if (!url) throw new Error('usage: baseline.ts <database-url>')
const sql = postgres(url, { max: 10, onnotice: () => {} })

const json = (body: string, status: number) => new Response(body, { status, headers: { 'content-type': 'application/json' } })

const server = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  async fetch(req) {
    const u = new URL(req.url)
    if (req.method === 'GET' && u.pathname.startsWith('/api/antibot/tasks/')) {
      const id = u.pathname.slice('/api/antibot/tasks/'.length)
      const key = (req.headers.get('authorization') ?? '').slice(7)
      if (!key) return json('{"error":"Valid API key required."}', 401)
      const hash = createHash('sha256').update(key).digest('hex')
      const now = new Date()
      const month = `${now.toISOString().slice(0, 8)}01`
      const day = now.getUTCDate()
      const [row] = await sql`
        with k as (select ak.id, p.monthly_limit from api_keys ak join plans p on p.id = ak.plan_id
                   where ak.key_hash = ${hash} and ak.status = 'active'),
        t as (select * from tasks where id = ${id}::uuid),
        inc as (insert into key_usage as u (key_id, month, count, daily, last_used_at)
                select k.id, ${month}::date, 1, array_fill(0, array[${day - 1}::int]) || array[1] || array_fill(0, array[${31 - day}::int]), now()
                from k cross join t
                on conflict (key_id, month) do update set count = u.count + 1, daily[${day}::int] = u.daily[${day}::int] + 1, last_used_at = now()
                where u.count < (select monthly_limit from k)
                returning u.count)
        select (select count from inc) as used, t.id::text as task_id, t.tool, t.score, t.ip_address, t.user_agent, t.results::text as results,
               to_char(t.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"+00:00"') as created_at
        from k left join t on true`
      if (!row) return json('{"error":"Valid API key required."}', 401)
      if (row.used === null) return json(row.task_id ? '{"error":"API key is inactive, expired, or has reached its request limit."}' : '{"error":"Task not found."}', row.task_id ? 403 : 404)
      return json(
        `{"task_id":"${row.task_id}","tool":${JSON.stringify(row.tool)},"score":${row.score},"ip_address":${JSON.stringify(row.ip_address)},"user_agent":${JSON.stringify(row.user_agent)},"results":${row.results},"created_at":"${row.created_at}"}`,
        200,
      )
    }
    if (req.method === 'POST' && u.pathname === '/api/antibot/tasks') {
      let body: { tool?: unknown; results?: { summary?: { score?: unknown } } }
      try {
        body = await req.json()
      } catch {
        return json('{"error":"bad json"}', 400)
      }
      if (typeof body.tool !== 'string' || typeof body.results !== 'object' || body.results === null) return json('{"error":"bad input"}', 422)
      const id = randomUUID()
      const score = typeof body.results.summary?.score === 'number' ? body.results.summary.score : 0
      await sql`insert into tasks (id, tool, score, ip_address, user_agent, results, created_at)
                values (${id}::uuid, ${body.tool}, ${score}, ${server.requestIP(req)?.address ?? ''}, ${req.headers.get('user-agent') ?? ''}, ${JSON.stringify(body.results)}::jsonb, now())`
      return json(`{"task_id":"${id}"}`, 201)
    }
    return json('{"error":"not found"}', 404)
  },
})
console.log(`baseline listening on http://127.0.0.1:${server.port}`)
process.on('SIGINT', () => process.exit(0))
