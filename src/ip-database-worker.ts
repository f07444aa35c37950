// Worker of src/ip-database.ts: parses the IP database's CSVs and writes its cache, off the
// service's main thread. The tables themselves stay here and go away with the worker.

import { loadIpDatabase } from './evidence/ipdb'
import type { WarmReply } from './ip-database'

declare const self: Worker

self.onmessage = async (e: MessageEvent<{ cacheDir: string }>) => {
  let reply: WarmReply
  try {
    const db = await loadIpDatabase({ cacheDir: e.data.cacheDir })
    reply = { ok: true, cacheError: db.load.cacheError }
  } catch (err) {
    reply = { ok: false, error: err instanceof Error ? err.message : String(err) }
  }
  self.postMessage(reply)
}
