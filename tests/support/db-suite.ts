// A test database per suite, for bun:test suites run on each driver (describe.each(testDrivers())):
// opened before the suite's tests, closed (and for PostgreSQL dropped) after them.

import { afterAll, beforeAll } from 'bun:test'
import { openTestDatabase, type DriverName, type TestDatabase } from './db'

/**
 * Opening a database takes seconds, on a loaded machine minutes (PGlite applies every migration
 * in WebAssembly on the test's own thread): the hooks have no clock of their own (0), so how
 * fast the machine is never decides a suite's verdict (issue 57). A database that really hangs
 * is bounded by its connect timeout (PostgreSQL) and the gate.
 */
export const HOOK_TIMEOUT_MS = 0

/** Registers the hooks in the calling describe block; `opened` receives the database before the first test. */
export function useTestDatabase(driver: DriverName, opened: (tdb: TestDatabase) => void): void {
  let tdb: TestDatabase | undefined
  beforeAll(async () => {
    tdb = await openTestDatabase(driver)
    opened(tdb)
  }, HOOK_TIMEOUT_MS)
  afterAll(async () => {
    await tdb?.destroy()
  }, HOOK_TIMEOUT_MS)
}
