// Makes db/pglite-template.tar.zst, the empty database cluster a first start unpacks into
// DATA_DIR/pglite (db/client.ts, createPgliteCluster), instead of running PGlite's initdb:
//   npm run db:template
// Run it after changing the PGlite version or PGLITE_SETTINGS; db/pglite-template.test.ts fails
// while the template does not open with the installed PGlite.
//
// Why a template (docs/performance.md#memory): PGlite's initdb starts a second PGlite instance
// and the initdb WebAssembly module beside the first, builds the cluster in memory and copies it
// out as a tar; the process peaks at 720–930 MB, so a first start was OOM-killed in a 384 MB (and
// a 512 MB) container. Unpacking this file costs the service tens of MB for a fraction of a second.
//
// The cluster is what initdb makes, nothing more: the migrations run at start as on any
// upgrade, so a new migration needs no new template. Not byte-reproducible (initdb draws the
// cluster's system identifier at random, and the tar holds the time), but made the same way each
// time: PGlite's own initdb with the service's settings, in a directory, packed with GNU tar.

import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { PGLITE_TEMPLATE, pgliteOptions } from './client'

const work = mkdtempSync(join(tmpdir(), 'antibot-pglite-template-'))
try {
  // initdb as a first start ran it, then a clean shutdown: the cluster is stored "shut down",
  // so the service's first open needs no recovery (a dump of a running instance would hold its
  // postmaster.pid and a cluster in production).
  const dir = join(work, 'pglite')
  const client = new PGlite(dir, pgliteOptions())
  await client.waitReady
  await client.close()
  // GNU tar, in name order, with fixed times and owners: the same files give the same tar.
  const tar = Bun.spawnSync(['tar', '--sort=name', '--mtime=@0', '--owner=0', '--group=0', '--numeric-owner', '--mode=go-rwx', '--format=ustar', '-cf', '-', '-C', dir, '.'], { stdout: 'pipe', stderr: 'pipe' })
  if (tar.exitCode !== 0) throw new Error(`tar failed: ${tar.stderr.toString()}`)
  // zstd at level 19: 1.7 MB, where gzip leaves 4.5 MB of the 40 MB tar.
  const packed = Bun.zstdCompressSync(tar.stdout, { level: 19 })
  await Bun.write(PGLITE_TEMPLATE, packed)
  const { version } = (await Bun.file(new URL('../node_modules/@electric-sql/pglite/package.json', import.meta.url)).json()) as { version: string }
  console.log(`${PGLITE_TEMPLATE}: ${(packed.length / 1e6).toFixed(1)} MB (a ${(tar.stdout.length / 1e6).toFixed(0)} MB tar), made by PGlite ${version}`)
} finally {
  rmSync(work, { recursive: true, force: true })
}
