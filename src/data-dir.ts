// DATA_DIR holds the embedded database (accounts, password hashes, tasks), the signing key's
// secret, the TLS key and the IP database cache: nothing in it is for other users of the
// machine. src/main.ts sets the process umask to 077 before anything is created, so what the
// service makes is owner-only (directories 0700, files 0600), and runs ownerOnly() at start on
// DATA_DIR itself and on each entry the service makes in it: entries left with looser modes by
// an older version, a copy or an archive, and the files PGlite sets to 0666 itself when it
// creates a database (it chmods them, so the umask does not reach them), lose their group and
// other bits. Other entries in DATA_DIR are the operator's and are left as they are.

import { chmodSync, lstatSync, readdirSync, type Stats } from 'node:fs'
import { join, resolve } from 'node:path'

/** What the service makes in DATA_DIR. */
export const DATA_DIR_ENTRIES = ['pglite', 'tls', 'ipdb', 'signing-key.secret', 'lock'] as const

const GROUP_AND_OTHER = 0o077
const STICKY = 0o1000

export interface OwnerOnlyResult {
  /** Entries whose group and other permission bits were removed. */
  tightened: number
  /** Why DATA_DIR itself was left as it is, when it is open to others and not the service's to change. */
  leftOpen: string | null
}

/**
 * Removes group and other permissions from DATA_DIR and, recursively, from the service's
 * entries in it (symbolic links are not followed). DATA_DIR itself is left alone when it is a
 * shared directory (sticky, like /tmp) or belongs to another user; that is reported instead.
 */
export function ownerOnly(dataDir: string): OwnerOnlyResult {
  const root = resolve(dataDir)
  let tightened = 0
  const tighten = (path: string, s: Stats) => {
    if ((s.mode & GROUP_AND_OTHER) === 0) return
    chmodSync(path, s.mode & 0o7700)
    tightened++
  }
  const walk = (path: string) => {
    const s = lstatSync(path, { throwIfNoEntry: false })
    if (!s || s.isSymbolicLink()) return
    tighten(path, s)
    if (s.isDirectory()) for (const name of readdirSync(path)) walk(join(path, name))
  }
  let leftOpen: string | null = null
  const top = lstatSync(root)
  if (top.mode & GROUP_AND_OTHER) {
    const uid = process.getuid?.()
    if (top.mode & STICKY) leftOpen = `${root} is a shared directory (mode ${(top.mode & 0o7777).toString(8)}); the service's entries in it are owner-only`
    else if (uid !== undefined && top.uid !== uid) leftOpen = `${root} belongs to another user (mode ${(top.mode & 0o777).toString(8)}); the service's entries in it are owner-only`
    else tighten(root, top)
  }
  for (const name of DATA_DIR_ENTRIES) walk(join(root, name))
  return { tightened, leftOpen }
}

/** The start-up log line for a pass of ownerOnly, or null when there is nothing to say. */
export function ownerOnlyLine(dataDir: string, r: OwnerOnlyResult, what: string): string | null {
  const parts: string[] = []
  if (r.tightened) parts.push(`DATA_DIR ${resolve(dataDir)}: ${r.tightened} ${what} had permissions for other users; made owner-only (directories 0700, files 0600)`)
  if (r.leftOpen) parts.push(`DATA_DIR warning: ${r.leftOpen}`)
  return parts.length ? parts.join('\n') : null
}
