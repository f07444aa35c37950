// Creates the embedded database's cluster in a directory and exits: run by db/client.ts
// (initPgliteCluster) in a process of its own, so initdb's memory goes with the process.
//   bun db/pglite-init.ts <data-dir>

import { newPglite } from './client'

const dir = process.argv[2]
if (!dir) throw new Error('usage: pglite-init.ts <data-dir>')
const client = newPglite(dir)
await client.waitReady
await client.close()
process.exit(0)
