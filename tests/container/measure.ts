// Memory of the service in its container, at idle and under load: `npm run test:container --
// --measure` runs this against the container it started. The process is the container's PID 1
// (`bun src/main.ts`), read from the host's /proc by its host pid: PSS summed over it and its
// children (tests/support/pss.ts; the IP database's parser while it runs) sampled every 200 ms,
// and the peak resident memory the kernel recorded for the first process (VmHWM, start-up
// included).
// Load: task submissions (POST, the interface spec's bot-detector body), then keyed fetches of
// one task, each from autocannon for a bounded time on loopback. Prints figures; asserts
// nothing (docs/operations.md#memory has a run's figures).
//   bun tests/container/measure.ts --base-url http://127.0.0.1:PORT --key ab_… --pid HOSTPID [--seconds 15]

import { readFileSync } from 'node:fs'
import autocannon, { type AutocannonResult } from 'autocannon'
import { specBotResults } from '../support/app'
import { sampleTree } from '../support/pss'

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? process.argv[i + 1] : undefined
}
const baseUrl = arg('base-url')
const key = arg('key')
const pid = Number(arg('pid'))
const seconds = Number(arg('seconds') ?? 15)
if (!baseUrl || !key || !Number.isInteger(pid) || !(seconds > 0)) {
  console.error('usage: bun tests/container/measure.ts --base-url URL --key KEY --pid HOSTPID [--seconds N]')
  process.exit(2)
}

const BODY = JSON.stringify({ tool: 'bot-detector', results: specBotResults() })

/** PSS of the process tree and VmHWM of the process, in MB. */
function memory(): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN)
  return { rss: sampleTree(pid).mb, hwm: kb('VmHWM') / 1024 }
}

/** Runs the load while sampling resident memory; the peak and the last sample. */
async function under(load: () => Promise<AutocannonResult>): Promise<{ peak: number; result: AutocannonResult }> {
  let peak = memory().rss
  const timer = setInterval(() => {
    peak = Math.max(peak, memory().rss)
  }, 200)
  try {
    const result = await load()
    return { peak: Math.max(peak, memory().rss), result }
  } finally {
    clearInterval(timer)
  }
}

const run = (opts: Record<string, unknown>) =>
  new Promise<AutocannonResult>((resolve, reject) => {
    autocannon({ connections: 32, duration: seconds, ...opts }, (err, result) => (err ? reject(err) : resolve(result)))
  })

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const fmt = (mb: number) => `${mb.toFixed(0)} MB`

await sleep(5000)
const idle = memory()
const created = await fetch(`${baseUrl}/api/antibot/tasks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: BODY })
const { task_id: taskId } = (await created.json()) as { task_id: string }

const post = await under(() => run({ url: `${baseUrl}/api/antibot/tasks`, method: 'POST', headers: { 'content-type': 'application/json' }, body: BODY }))
const get = await under(() => run({ url: `${baseUrl}/api/antibot/tasks/${taskId}`, headers: { authorization: `Bearer ${key}` } }))
await sleep(10000)
const after = memory()

const ok = (r: AutocannonResult) => `${Math.round(r.requests.average)} req/s, ${r['2xx']} 2xx, ${r.non2xx} other`
console.log(`memory (PSS): idle ${fmt(idle.rss)} (VmHWM since start ${fmt(idle.hwm)})`)
console.log(`memory: under ${seconds} s of task submissions (32 connections): peak ${fmt(post.peak)}; ${ok(post.result)}`)
console.log(`memory: under ${seconds} s of keyed fetches (32 connections): peak ${fmt(get.peak)}; ${ok(get.result)}`)
console.log(`memory: 10 s after the load ${fmt(after.rss)} (VmHWM since start ${fmt(after.hwm)})`)
