// The embedded default's starting state for the HTTP benchmark (tests/bench/http.ts): a PGlite
// data directory holding `tasks` tasks of the same mix as the PostgreSQL template
// (tests/bench/steady-state.ts), made once and kept under the system's temporary folder; each
// run copies it. Not analyzed: PGlite has no autovacuum, so a user's embedded database never is.

import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import { openPglite, rows } from '../../db/client'
import { bulkStatements, seedKeys, templateName } from './steady-state'

export interface LiteTemplate {
  /** The data directory (what DATA_DIR/pglite holds). */
  dir: string
  keys: string[]
  ids: string[]
  tasks: number
}

export async function ensureLiteTemplate(tasks: number, keyCount: number, log: (line: string) => void): Promise<LiteTemplate> {
  const root = join(tmpdir(), 'antibot-bench-cache', `${templateName(tasks)}_pglite`)
  const manifest = join(root, 'manifest.json')
  if (existsSync(manifest)) {
    const m = JSON.parse(readFileSync(manifest, 'utf8')) as Omit<LiteTemplate, 'dir'>
    if (m.keys.length >= keyCount) return { dir: join(root, 'pglite'), ...m, keys: m.keys.slice(0, keyCount) }
  }
  rmSync(root, { recursive: true, force: true })
  mkdirSync(root, { recursive: true })
  log(`making the PGlite template: ${tasks.toLocaleString('en')} tasks in ${root} (kept for later runs)`)
  const began = performance.now()
  const d = await openPglite(join(root, 'pglite'))
  try {
    await d.migrate()
    const keys = await seedKeys(d.db, keyCount)
    for (const statement of bulkStatements(tasks)) {
      await d.db.execute(sql.raw(statement.text))
      if (statement.done) log(`  ${statement.done.toLocaleString('en')} tasks (${Math.round((performance.now() - began) / 1000)} s)`)
    }
    const ids = (await rows<{ id: string }>(d.db, sql`select id::text as id from tasks tablesample bernoulli (1) repeatable (23) order by md5(id::text) limit 2000`)).map((r) => r.id)
    const [count] = await rows<{ n: number }>(d.db, sql`select count(*)::int as n from tasks`)
    writeFileSync(manifest, JSON.stringify({ keys, ids, tasks: count!.n }))
    log(`  PGlite template ready in ${Math.round((performance.now() - began) / 1000)} s`)
    return { dir: join(root, 'pglite'), keys, ids, tasks: count!.n }
  } finally {
    await d.close()
  }
}

/** Copies the template into a service's DATA_DIR (as DATA_DIR/pglite). */
export function copyLiteTemplate(dir: string, dataDir: string): void {
  cpSync(dir, join(dataDir, 'pglite'), { recursive: true })
}
