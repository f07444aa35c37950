// Loading the offline IP database at start without stalling the service. Parsing the CSV
// packages takes ~1.5 s of CPU on the first start after an install (seconds on a busy
// machine); on the main thread that would hold every request for as long. So a worker parses
// them and writes the cache file (src/evidence/ipdb.ts), and the main thread then maps the
// cache in tens of milliseconds. Later starts find the cache and skip the worker's work.

import { loadIpDatabase, type IpDatabase } from './evidence/ipdb'

/** What the worker reports: the cache is ready to read, or why not. */
export type WarmReply = { ok: true; cacheError: string | null } | { ok: false; error: string }

function warmInWorker(cacheDir: string): Promise<WarmReply> {
  return new Promise((resolve) => {
    const worker = new Worker(new URL('./ip-database-worker.ts', import.meta.url).href)
    const done = (reply: WarmReply) => {
      void worker.terminate()
      resolve(reply)
    }
    worker.onmessage = (e: MessageEvent<WarmReply>) => done(e.data)
    worker.onerror = (e) => done({ ok: false, error: e.message })
    worker.postMessage({ cacheDir })
  })
}

/**
 * Loads the database with the parse off the main thread. When the worker cannot leave a cache
 * (an unwritable DATA_DIR), the main thread parses as a last resort; a missing package throws.
 */
export async function loadIpDatabaseOffThread(cacheDir: string): Promise<IpDatabase> {
  const began = performance.now()
  const warm = await warmInWorker(cacheDir)
  if (!warm.ok) throw new Error(warm.error)
  const db = await loadIpDatabase({ cacheDir })
  return { ...db, load: { ...db.load, ms: performance.now() - began, cacheError: db.load.cacheError ?? warm.cacheError } }
}
