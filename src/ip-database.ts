// Loading the offline IP database at start without stalling the service. Parsing the CSV
// packages takes ~1.5 s of CPU on the first start after an install (seconds on a busy
// machine); on the main thread that would hold every request for as long. So a child process
// parses them and writes the cache file (src/evidence/ipdb.ts), and the service then maps the
// cache in tens of milliseconds. Later starts find the cache and skip the parse. A process, not
// a worker thread: the parse's memory (~200 MB) leaves with it.

import { fileURLToPath } from 'node:url'
import { loadIpDatabase, type IpDatabase } from './evidence/ipdb'

/** What the worker reports: the cache is ready to read, or why not. */
export type WarmReply = { ok: true; cacheError: string | null } | { ok: false; error: string }

/**
 * Makes sure the cache is written, in the child; parses only when there is no cache for the
 * installed packages. The embedded default's start calls it before opening its database
 * (src/main.ts), so that the parse (~200 MB) and PGlite (~150 MB) never hold memory at once.
 */
export async function warmIpDatabase(cacheDir: string): Promise<WarmReply> {
  const script = fileURLToPath(new URL('./ip-database-worker.ts', import.meta.url))
  try {
    // `--smol`: the parse's peak is the first start's (issue 61: ~200 MB without it, ~160 with it).
    const child = Bun.spawn([process.execPath, '--smol', script, cacheDir], { stdout: 'pipe', stderr: 'pipe' })
    // The parse must not outlive the service: stopped while it runs, the service takes it along.
    const stop = () => child.kill()
    process.once('exit', stop)
    const [code, out, err] = await Promise.all([child.exited, new Response(child.stdout).text(), new Response(child.stderr).text()])
    process.off('exit', stop)
    const line = out.trim().split('\n').pop() ?? ''
    if (code === 0 && line.startsWith('{')) return JSON.parse(line) as WarmReply
    return { ok: false, error: err.trim() || `the IP database's parser exited with code ${code}` }
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) }
  }
}

/**
 * Loads the database with the parse off the main thread. When the worker cannot leave a cache
 * (an unwritable DATA_DIR), the main thread parses as a last resort; a missing package throws.
 */
export async function loadIpDatabaseOffThread(cacheDir: string, warmed?: WarmReply): Promise<IpDatabase> {
  const began = performance.now()
  const warm = warmed ?? (await warmIpDatabase(cacheDir))
  if (!warm.ok) throw new Error(warm.error)
  const db = await loadIpDatabase({ cacheDir })
  return { ...db, load: { ...db.load, ms: performance.now() - began, cacheError: db.load.cacheError ?? warm.cacheError } }
}
