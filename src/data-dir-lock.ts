// One service per embedded database (issue 45): PGlite is a PostgreSQL that lives in one
// process, and a second process opening the same files (a second `npm start`, a second
// container on the same volume, two first starts unpacking the template at once) overwrites
// what the first wrote — tasks answered 201 were lost. So the service takes an exclusive lock
// on DATA_DIR/lock before it unpacks the template or opens the database, and holds it until it
// exits: flock(2), through bun:ffi (Bun and node:fs have no flock). The kernel drops the lock
// when the process ends, however it ends, so a killed service never blocks its restart; the
// lock works across containers that mount the same volume (one file, one inode). The holder
// writes its pid and host name into the file, for the message the second service stops with.

import { closeSync, ftruncateSync, openSync, readFileSync, writeSync } from 'node:fs'
import { hostname } from 'node:os'
import { join, resolve } from 'node:path'

/** The lock file's name in DATA_DIR (src/data-dir.ts keeps it owner-only). */
export const LOCK_FILE = 'lock'

const LOCK_EX = 2
const LOCK_NB = 4

type Flock = (fd: number, operation: number) => number
let flock: Flock | null | undefined

/** libc's flock through bun:ffi, opened on first use; null where there is none (not Linux, not Bun). */
function loadFlock(): Flock | null {
  if (flock !== undefined) return flock
  flock = null
  if (process.platform !== 'linux' || typeof Bun === 'undefined') return null
  try {
    const ffi = require('bun:ffi') as typeof import('bun:ffi')
    const lib = ffi.dlopen('libc.so.6', { flock: { args: ['i32', 'i32'], returns: 'i32' } })
    flock = (fd, operation) => lib.symbols.flock(fd, operation)
  } catch {
    flock = null
  }
  return flock
}

export class DataDirInUse extends Error {}

export interface DataDirLock {
  /** The file holding the lock. */
  path: string
  /** False where flock is not available: the service runs without the guard (said at start). */
  held: boolean
  /** Gives the lock up (the process's exit does the same). */
  release(): void
}

/**
 * Takes DATA_DIR's lock, or throws DataDirInUse naming the directory and the process that
 * holds it. DATA_DIR must exist.
 */
export function lockDataDir(dataDir: string, lockFn: Flock | null = loadFlock()): DataDirLock {
  const path = join(resolve(dataDir), LOCK_FILE)
  if (!lockFn) return { path, held: false, release() {} }
  // Opened for writing without truncating: the holder's note stays until the lock is ours.
  const fd = openSync(path, 'a+', 0o600)
  if (lockFn(fd, LOCK_EX | LOCK_NB) !== 0) {
    closeSync(fd)
    const holder = readFileSync(path, 'utf8').trim().replace(/\s+/g, ' ').slice(0, 200)
    throw new DataDirInUse(
      `DATA_DIR ${resolve(dataDir)} is in use by another Antibot service${holder ? ` (${holder})` : ''}: its embedded database can be open in one process only. Stop that service, give this one another DATA_DIR, or use DATABASE_URL to run several instances on one PostgreSQL.`,
    )
  }
  ftruncateSync(fd, 0)
  writeSync(fd, `pid ${process.pid} on host ${hostname()}\n`, 0)
  let released = false
  return {
    path,
    held: true,
    release() {
      if (released) return
      released = true
      closeSync(fd)
    },
  }
}
