// The signed-agent verifier as the service runs it (src/main.ts): directories fetched with the
// operator's settings (AGENT_DIRECTORIES_ALLOW_PRIVATE, NODE_EXTRA_CA_CERTS), cached in the
// database, at most AGENT_DIRECTORY_FETCHES_PER_MINUTE fetches a minute, pinned names.

import { readFileSync } from 'node:fs'
import type { Db } from '../../db/client'
import type { Config } from '../config'
import { createDirectoryLookup } from './directories'
import { fetchDirectory } from './directory-fetch'
import { createAgentVerifier, type AgentVerifier } from './verify'

/** Throws, saying what to set, when NODE_EXTRA_CA_CERTS names a file that cannot be read. */
export function agentVerifierFor(db: Db, settings: Config['agents'], log?: (line: string) => void): AgentVerifier {
  let extraCa: string[] = []
  if (settings.extraCaFile !== undefined) {
    try {
      extraCa = [readFileSync(settings.extraCaFile, 'utf8')]
    } catch (e) {
      throw new Error(`Cannot read NODE_EXTRA_CA_CERTS (${settings.extraCaFile}): ${e instanceof Error ? e.message : String(e)}`)
    }
  }
  const directories = createDirectoryLookup({ db, fetchesPerMinute: settings.fetchesPerMinute, log, fetch: (url) => fetchDirectory(url, { allowPrivate: settings.allowPrivate, extraCa }) })
  return createAgentVerifier({ directories, pinned: settings.pinned })
}
