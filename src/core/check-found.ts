// What a fired check found, said as the finding: a check's `name` says what a consistent
// browser does ("navigator.webdriver is not true"), its `found` what the page saw when it
// fails or warns ("navigator.webdriver is true"). Tasks store neither (src/core/check-text.ts);
// the report looks the phrase up by tool and check id when it lists findings.

import type { Check } from './scoring'
import { SPEC_SCORING_DEFS } from '../checks/spec-scoring'
import { TOOL_DEFINITIONS } from './tools/registry'

/** Per tool, check id → its `found` phrase. Built at first use. */
let table: Map<string, Map<string, string>> | undefined

function phrases(tool: string): Map<string, string> | undefined {
  if (!table) {
    table = new Map()
    for (const [t, def] of Object.entries(TOOL_DEFINITIONS)) table.set(t, new Map(def.checks.map(([c]) => [c.id, c.found])))
    const bot = table.get('bot-detector')
    for (const c of SPEC_SCORING_DEFS) if (!bot?.has(c.id)) bot?.set(c.id, c.found)
  }
  return table.get(tool)
}

/**
 * The finding of a check that failed or warned in a task of `tool`: its definition's `found`
 * phrase, or its name when no definition of the tool has that id any more (a retired check
 * of an old task).
 */
export function foundText(tool: string, check: Pick<Check, 'id' | 'name'>): string {
  return phrases(tool)?.get(check.id) ?? check.name
}
