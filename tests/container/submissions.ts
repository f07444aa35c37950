// The container test's load (tests/container/run.sh): for --seconds, 16 connections submitting
// tasks (POST, the interface spec's bot-detector body) and 16 fetching one of them with a key,
// together, from autocannon on loopback. Fails when a request was not answered with a 2xx or
// none was made; prints the counts and rates (which say little on a shared machine).
//   bun tests/container/submissions.ts --base-url http://127.0.0.1:PORT --key ab_… [--seconds 15]

import autocannon, { type AutocannonResult } from 'autocannon'
import { specBotResults } from '../support/app'

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? process.argv[i + 1] : undefined
}
const baseUrl = arg('base-url')
const key = arg('key')
const seconds = Number(arg('seconds') ?? 15)
if (!baseUrl || !key || !(seconds > 0)) {
  console.error('usage: bun tests/container/submissions.ts --base-url URL --key KEY [--seconds N]')
  process.exit(2)
}

const BODY = JSON.stringify({ tool: 'bot-detector', results: specBotResults() })
const json = { 'content-type': 'application/json' }
const created = await fetch(`${baseUrl}/api/antibot/tasks`, { method: 'POST', headers: json, body: BODY })
if (created.status !== 201) throw new Error(`Cannot submit a task: ${created.status} ${await created.text()}`)
const { task_id: taskId } = (await created.json()) as { task_id: string }

const run = (opts: Record<string, unknown>) =>
  new Promise<AutocannonResult>((resolve, reject) => {
    autocannon({ connections: 16, duration: seconds, ...opts }, (err, result) => (err ? reject(err) : resolve(result)))
  })
const [post, get] = await Promise.all([
  run({ url: `${baseUrl}/api/antibot/tasks`, method: 'POST', headers: json, body: BODY }),
  run({ url: `${baseUrl}/api/antibot/tasks/${taskId}`, headers: { authorization: `Bearer ${key}` } }),
])
const line = (what: string, r: AutocannonResult) => `${what}: ${r['2xx']} answered 2xx (${Math.round(r.requests.average)}/s), ${r.non2xx} other, ${r.errors} errors, ${r.timeouts} timeouts`
console.log(`container: ${seconds} s of load: ${line('submissions', post)}; ${line('keyed fetches', get)}`)
const bad = [post, get].filter((r) => r['2xx'] === 0 || r.non2xx > 0 || r.errors > 0 || r.timeouts > 0)
process.exit(bad.length > 0 ? 1 : 0)
