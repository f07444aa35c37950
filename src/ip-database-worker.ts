// Child process of src/ip-database.ts: parses the IP database's CSVs and writes its cache, off
// the service's process, and prints how that went (a WarmReply as JSON). The tables themselves
// stay here and go away with the process — parsing peaks at ~200 MB, which a thread of the
// service's own process would leave in its heap for good.
//   bun src/ip-database-worker.ts <cache-dir>

import { loadIpDatabase } from './evidence/ipdb'
import type { WarmReply } from './ip-database'

let reply: WarmReply
try {
  const cacheDir = process.argv[2]
  if (!cacheDir) throw new Error('usage: ip-database-worker.ts <cache-dir>')
  const db = await loadIpDatabase({ cacheDir })
  reply = { ok: true, cacheError: db.load.cacheError }
} catch (err) {
  reply = { ok: false, error: err instanceof Error ? err.message : String(err) }
}
process.stdout.write(`${JSON.stringify(reply)}\n`)
process.exit(0)
