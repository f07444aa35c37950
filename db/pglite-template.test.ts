// The embedded database's first start: the cluster comes from db/pglite-template.tar.zst
// (db/pglite-template.ts), not from PGlite's initdb. These tests fail when the template no
// longer opens with the installed PGlite (after an upgrade: run `npm run db:template`).

import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import { openPglite, PGLITE_TEMPLATE, rows } from './client'

// Opening PGlite takes 1–2 s here, much longer on a loaded machine: not the 20 s default.
const OPEN_TIMEOUT_MS = 90_000

let tmp: string
beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'antibot-template-'))
})
afterEach(() => rmSync(tmp, { recursive: true, force: true }))

async function seededPlans(dir: string): Promise<string[]> {
  const database = await openPglite(dir)
  try {
    await database.migrate()
    return (await rows<{ name: string }>(database.db, sql`select name::text as name from plans order by name`)).map((r) => r.name)
  } finally {
    await database.close()
  }
}

describe('the PGlite template', () => {
  test('is a cluster of the installed PGlite: it opens, its PG_VERSION is the server major version, and the migrations apply', async () => {
    const dir = join(tmp, 'pglite')
    const database = await openPglite(dir)
    try {
      const [v] = await rows<{ v: string }>(database.db, sql`select current_setting('server_version_num')::text as v`)
      expect(readFileSync(join(dir, 'PG_VERSION'), 'utf8').trim()).toBe(String(Math.floor(Number(v!.v) / 10000)))
      // Nothing of the service's own: the migrations make it all.
      const tables = await rows<{ n: number }>(database.db, sql`select count(*)::int4 as n from pg_tables where schemaname = 'public'`)
      expect(tables[0]!.n).toBe(0)
      await database.migrate()
      const plans = await rows<{ n: number }>(database.db, sql`select count(*)::int4 as n from plans`)
      expect(plans[0]!.n).toBeGreaterThan(0)
    } finally {
      await database.close()
    }
  }, OPEN_TIMEOUT_MS)

  test('holds a cleanly shut-down cluster (no postmaster.pid) and stays small', async () => {
    const tar = new Bun.Archive(Bun.zstdDecompressSync(await Bun.file(PGLITE_TEMPLATE).bytes()))
    const files = await tar.files()
    const names = [...files.keys()].map((n) => n.replace(/^\.\//, ''))
    expect(names).toContain('PG_VERSION')
    expect(names).toContain('global/pg_control')
    expect(names.some((n) => n.endsWith('postmaster.pid'))).toBe(false)
    expect(statSync(PGLITE_TEMPLATE).size).toBeLessThan(4_000_000)
  }, OPEN_TIMEOUT_MS)
})

describe('creating the embedded database', () => {
  test('a new directory gets the cluster and keeps its data across starts', async () => {
    const dir = join(tmp, 'data', 'pglite')
    expect(await seededPlans(dir)).toContain('free')
    expect(existsSync(`${dir}.partial`)).toBe(false)
    // A later start opens what is there (the template is not unpacked over it).
    const database = await openPglite(dir)
    try {
      await database.db.execute(sql`create table kept (x int)`)
    } finally {
      await database.close()
    }
    const again = await openPglite(dir)
    try {
      const [r] = await rows<{ n: number }>(again.db, sql`select count(*)::int4 as n from pg_tables where tablename = 'kept'`)
      expect(r!.n).toBe(1)
    } finally {
      await again.close()
    }
  }, OPEN_TIMEOUT_MS)

  test('an empty directory (src/main.ts makes it) is filled the same way', async () => {
    const dir = join(tmp, 'pglite')
    mkdirSync(dir)
    expect(await seededPlans(dir)).toContain('free')
  }, OPEN_TIMEOUT_MS)

  test('a .partial directory left by a start killed while unpacking is replaced', async () => {
    const dir = join(tmp, 'pglite')
    mkdirSync(`${dir}.partial`)
    writeFileSync(`${dir}.partial/PG_VERSION`, 'half')
    expect(await seededPlans(dir)).toContain('free')
    expect(existsSync(`${dir}.partial`)).toBe(false)
  }, OPEN_TIMEOUT_MS)

  test('a directory that holds files but no database is refused, saying so, and left as it was', async () => {
    const dir = join(tmp, 'pglite')
    mkdirSync(dir)
    writeFileSync(join(dir, 'notes.txt'), 'mine')
    await expect(openPglite(dir)).rejects.toThrow(`Cannot create the embedded database in ${dir}: the directory holds files (notes.txt) but no database (PG_VERSION); move them away`)
    expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe('mine')
    expect(existsSync(`${dir}.partial`)).toBe(false)
  }, OPEN_TIMEOUT_MS)
})
