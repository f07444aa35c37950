// After a submission is judged: how identifying its browser is (src/core/uniqueness.ts), from
// the counts db/uniqueness.ts keeps and the reference population in memory (issue 59), as
// `results.uniqueness`, and the sighting that the task's insert records. The page's report
// shows what its stored task was given.

import type { ToolId } from '../../common/tools'
import { countsBefore, storedUniqueness, type Sighting } from '../../db/uniqueness'
import { isDatabaseUnavailable } from '../../db/unavailable'
import { toolReference } from '../core/reference/reference'
import { countedPairs, DEFAULT_PER_RANGE, DEFAULT_WINDOW_DAYS, identifyingAttributes, IDENTIFYING_TOOLS, sightingKeys, uniquenessOf } from '../core/uniqueness'
import type { AppDeps } from './deps'

const IDENTIFYING = new Set<string>(IDENTIFYING_TOOLS)

/**
 * Sets `results.uniqueness` on an identifying tool's results (null when nothing identifying
 * was read, or the counts could not be read: then the log says why and the task is stored
 * without a sighting) and returns the sighting to record with the task.
 * `report`: the nonce of the stored task whose figures the page's report shows.
 */
export async function countUniqueness(
  deps: Pick<AppDeps, 'db' | 'log' | 'uniqueness'>,
  args: { tool: ToolId; results: Record<string, unknown>; userAgent: string; storedIp: string; now: Date; report?: string | undefined },
): Promise<Sighting | null> {
  const { tool, results } = args
  if (!IDENTIFYING.has(tool)) return null
  const id = identifyingAttributes(tool, results, args.userAgent)
  results.uniqueness = null
  if (!id) return null
  const log = deps.log ?? console.error
  try {
    if (args.report !== undefined) {
      const stored = await storedUniqueness(deps.db, args.report)
      if (stored !== undefined) {
        results.uniqueness = stored
        return null
      }
    }
    const windowDays = deps.uniqueness?.windowDays ?? DEFAULT_WINDOW_DAYS
    const perRange = deps.uniqueness?.perRange ?? DEFAULT_PER_RANGE
    const keys = sightingKeys(tool, args.storedIp, id.combination)
    const { names, values } = countedPairs(id)
    const before = await countsBefore(deps.db, { tool, keys, names, values, now: args.now })
    results.uniqueness = uniquenessOf(id, before, { windowDays, perRange, reference: toolReference(deps.uniqueness?.reference, tool) })
    return args.report !== undefined ? null : { tool, keys, names, values, seen: args.now, perRange }
  } catch (error) {
    log(`Cannot count how identifying a ${tool} submission is (${isDatabaseUnavailable(error) ? 'the database did not answer' : 'the query failed'}): ${error instanceof Error ? error.message : String(error)}`)
    return null
  }
}
