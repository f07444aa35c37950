// Makes what every test server's DATA_DIR would otherwise make for itself at start, once:
// PGlite's cluster with the migrations applied (pglite/) and the IP database's parsed cache
// (ipdb/). tests/support/server.ts copies both into each fresh DATA_DIR, so a server starts in a
// second rather than after initdb and the CSV parse (11 s and more each on a busy two-core
// machine, for each of the browser tests' servers: issue 36). No signing key, certificate or
// row the service makes at start is in it: the service still makes those itself.
//   bun tests/support/data-dir-template.ts <dir>

import { join } from 'node:path'
import { openPglite } from '../../db/client'
import { loadIpDatabase } from '../../src/evidence/ipdb'

const dir = process.argv[2]
if (!dir) throw new Error('usage: data-dir-template.ts <dir>')
const db = await openPglite(join(dir, 'pglite'))
await db.migrate()
await db.close()
const ipdb = await loadIpDatabase({ cacheDir: join(dir, 'ipdb') })
if (ipdb.load.cacheError) throw new Error(ipdb.load.cacheError)
process.exit(0)
