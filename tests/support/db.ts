// Test databases. Every suite that touches the database runs on each driver returned by
// testDrivers(): PGlite in memory always, and PostgreSQL when TEST_DATABASE_URL is set (CI sets
// it to the machine's server). Each PostgreSQL test database is created fresh (CREATE DATABASE)
// and dropped afterwards, so runs never see each other's rows.

import postgres from 'postgres'
import { openPglite, openPostgres, type Database } from '../../db/client'
import { uniqueDatabaseName } from './unique'

export type DriverName = 'pglite' | 'postgres'

export function testDrivers(): DriverName[] {
  return process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite']
}

export interface TestDatabase extends Database {
  /** For PostgreSQL: the URL of the fresh database (to open more instances on it). */
  url?: string
  /** Closes and, for PostgreSQL, drops the database. */
  destroy(): Promise<void>
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url)
  u.pathname = `/${name}`
  return u.toString()
}

/**
 * PGlite's in-memory databases, migrated or empty, each made once per test process and then
 * started from its dump: initdb and the migrations take seconds each time (more on a busy
 * machine), loading the dump a fraction of that (issue 36). Every database is still its own.
 */
const dumps = new Map<boolean, Promise<Blob>>()
function pgliteDump(migrate: boolean): Promise<Blob> {
  let dump = dumps.get(migrate)
  if (!dump) {
    dump = (async () => {
      const d = await openPglite()
      if (migrate) await d.migrate()
      const blob = await d.dump!()
      await d.close()
      return blob
    })()
    dumps.set(migrate, dump)
  }
  return dump
}

/** `migrate: false` leaves the database empty (for tests that apply migrations one by one). */
export async function openTestDatabase(driver: DriverName, opts: { migrate?: boolean } = {}): Promise<TestDatabase> {
  const migrate = opts.migrate ?? true
  if (driver === 'pglite') {
    const d = await openPglite(undefined, await pgliteDump(migrate))
    // Already migrated in the dump; migrating again is a no-op.
    if (migrate) await d.migrate()
    return { ...d, destroy: () => d.close() }
  }
  const base = process.env.TEST_DATABASE_URL
  if (!base) throw new Error('TEST_DATABASE_URL is not set')
  const name = uniqueDatabaseName('antibot_t')
  const admin = postgres(base, { max: 1, onnotice: () => {} })
  await admin.unsafe(`create database "${name}"`)
  await admin.end()
  const url = withDatabase(base, name)
  const d = openPostgres(url, { max: 10 })
  if (migrate) await d.migrate()
  return {
    ...d,
    url,
    async destroy() {
      await d.close()
      const a = postgres(base, { max: 1, onnotice: () => {} })
      await a.unsafe(`drop database if exists "${name}" with (force)`)
      await a.end()
    },
  }
}
