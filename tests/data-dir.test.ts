// DATA_DIR is for the service's user only: a real start of the service (`bun src/main.ts`,
// embedded PGlite, the self-signed TLS pair, the signing secret, the IP database cache) on a
// fresh DATA_DIR leaves every directory 0700 and every file 0600; a DATA_DIR whose entries were
// left open to others is closed at the next start, which says so in its log. The operator's
// own files in DATA_DIR are not the service's to change (src/data-dir.ts).

import { afterAll, describe, expect, test } from 'bun:test'
import { chmodSync, lstatSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DATA_DIR_ENTRIES } from '../src/data-dir'
import { startServer, type RunningServer } from './support/server'

const START_TIMEOUT_MS = 120_000
const parent = mkdtempSync(join(tmpdir(), 'antibot-datadir-'))
const dataDir = join(parent, 'data')
afterAll(() => rmSync(parent, { recursive: true, force: true }))

/** Every entry under `root` with its type and permission bits, symbolic links not followed. */
function modes(root: string): Array<{ path: string; dir: boolean; mode: number }> {
  const out: Array<{ path: string; dir: boolean; mode: number }> = []
  const walk = (path: string) => {
    const s = lstatSync(path)
    out.push({ path, dir: s.isDirectory(), mode: s.mode & 0o7777 })
    if (s.isDirectory()) for (const name of readdirSync(path)) walk(join(path, name))
  }
  walk(root)
  return out
}

/** Entries that are not owner-only: directories other than 0700, files other than 0600. */
const loose = (entries: ReturnType<typeof modes>) => entries.filter((e) => e.mode !== (e.dir ? 0o700 : 0o600)).map((e) => `${e.mode.toString(8)} ${e.path}`)

/** Starts the service on `dataDir`, uses it (a page, a task), waits until the IP database cache is written, stops it. */
async function runOnce(): Promise<string> {
  let server: RunningServer | null = null
  try {
    server = await startServer({ DATA_DIR: dataDir })
    expect((await fetch(`${server.baseUrl}/tools/http-headers`)).status).toBe(200)
    const created = await fetch(`${server.baseUrl}/api/antibot/tasks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"tool":"http-headers","results":{}}' })
    expect(created.status).toBe(201)
    for (let i = 0; i < 600 && !/IP database ready|Cannot load the IP database/.test(server.output()); i++) await new Promise((r) => setTimeout(r, 100))
    expect(server.output()).toContain('IP database ready')
    return server.output()
  } finally {
    await server?.stop()
  }
}

describe('DATA_DIR permissions', () => {
  test(
    'a fresh start makes DATA_DIR and everything in it owner-only: directories 0700, files 0600',
    async () => {
      const out = await runOnce()
      const entries = modes(dataDir)
      // The embedded database alone is about a thousand files; every kind of entry is there.
      expect(entries.length).toBeGreaterThan(500)
      for (const name of DATA_DIR_ENTRIES) expect(entries.some((e) => e.path === join(dataDir, name))).toBe(true)
      expect(loose(entries)).toEqual([])
      // PGlite sets its new database's files to 0666 itself; the start says it closed them.
      expect(out).toMatch(/DATA_DIR .*: \d+ files PGlite wrote had permissions for other users; made owner-only/)
    },
    START_TIMEOUT_MS,
  )

  test(
    'entries left open to others are closed at the next start, with a log line; the operator\'s own file is left alone',
    async () => {
      for (const e of modes(dataDir)) chmodSync(e.path, e.dir ? 0o777 : 0o666)
      chmodSync(dataDir, 0o755)
      const notes = join(dataDir, 'operator-notes.txt')
      writeFileSync(notes, 'mine\n')
      chmodSync(notes, 0o644)
      const opened = modes(dataDir).length
      const out = await runOnce()
      const m = /DATA_DIR .*: (\d+) entries had permissions for other users; made owner-only \(directories 0700, files 0600\)/.exec(out)
      expect(m).not.toBeNull()
      expect(Number(m![1])).toBeGreaterThanOrEqual(opened - 1)
      expect(loose(modes(dataDir).filter((e) => e.path !== notes))).toEqual([])
      expect(lstatSync(notes).mode & 0o777).toBe(0o644)
    },
    START_TIMEOUT_MS,
  )
})
