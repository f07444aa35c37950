// A stored task keeps what is particular to it; the text every task of a check shares (its
// `name`, `why`, and `source` when it is the definition's) comes from the check's definition
// when the task is served, and so does a check's constant `expected` and a consistency item's
// `detail` when it is one of the fixed texts: each is stored as a code of a text listed in
// stored-texts.json (beside this file). That file only grows (`npm run docs:checks` appends
// what the code writes now and drops nothing; a test keeps it current), so a task stored
// with an old wording is served with that wording. docs/api.md (Decisions) and
// docs/performance.md say why.
//
// Store (compactResults): a check whose name and why are exactly its definition's (for the
// task's tool) is stored without them, and without `source` when that is the definition's
// too. Anything else — a check id two definitions share with different text, a text the IP
// truncation changed, an object with other keys — is stored in full, as before.
//
// Expectations and consistency details: fixed texts are stored as codes and served as the texts
// again (src/core/text-codes.ts says how).
//
// Serve (hydrateResults): the stored jsonb as text, in PostgreSQL's jsonb key order (shorter
// keys first, then bytewise: id, why, name, points, source, verdict, expected, observed),
// gets the missing members and the coded expectation put back where jsonb would have printed
// them, so the served body is byte for byte the full form. Only the top level up to `checks` and the checks array are
// scanned (no JSON.parse). A check that already has `why` (rows stored before this change),
// or whose id no definition of the tool has any more, is served as stored.

import { SPEC_SCORING_DEFS } from '../checks/spec-scoring'
import { afterStringMember, skipValue, type Splice, stringEnd, topLevelStarts } from './jsonb-text'
import type { Check } from './scoring'
import { CODE_LENGTH, compactDetails, DETAIL_CODE, detailSplices, expectations } from './text-codes'
import { TOOL_DEFINITIONS } from './tools/registry'

interface CheckText {
  name: string
  why: string
  source: 'client' | 'server'
  /** `"why": …, "name": …, ` as jsonb prints them, put after the id. */
  head: string
  /** `"source": …, ` put after the points. */
  sourceJson: string
}

/**
 * Checks no tool runs any more, whose compact tasks are still kept: their text, so those tasks
 * are still served in full. Add a check here when removing it from a tool's list.
 */
export const RETIRED_CHECKS: ReadonlyArray<{ tool: string; id: string; name: string; why: string; source: 'client' | 'server' }> = []

/** Per tool, per id as JSON text (`"webdriver-flag"`): the shared text; null when two definitions disagree. */
let table: Map<string, Map<string, CheckText | null>> | undefined

function texts(tool: string): Map<string, CheckText | null> | undefined {
  if (!table) {
    table = new Map()
    const defs: Array<[string, { id: string; name: string; why: string; source: 'client' | 'server' }]> = []
    for (const [tool, def] of Object.entries(TOOL_DEFINITIONS)) for (const [c] of def.checks) defs.push([tool, c])
    for (const c of SPEC_SCORING_DEFS) defs.push(['bot-detector', c])
    for (const c of RETIRED_CHECKS) defs.push([c.tool, c])
    for (const [tool, c] of defs) {
      let byId = table.get(tool)
      if (!byId) {
        byId = new Map()
        table.set(tool, byId)
      }
      const key = JSON.stringify(c.id)
      const text: CheckText = {
        name: c.name,
        why: c.why,
        source: c.source,
        head: `"why": ${JSON.stringify(c.why)}, "name": ${JSON.stringify(c.name)}, `,
        sourceJson: `"source": ${JSON.stringify(c.source)}, `,
      }
      const seen = byId.get(key)
      if (seen === undefined) byId.set(key, text)
      else if (seen && (seen.name !== text.name || seen.why !== text.why || seen.source !== text.source)) byId.set(key, null)
    }
  }
  return table.get(tool)
}

const FULL_KEYS = ['id', 'name', 'verdict', 'observed', 'expected', 'source', 'why', 'points']

/** The results as stored: each check's shared text left out where the definition gives it back. */
export function compactResults(tool: string, results: unknown): unknown {
  if (results === null || typeof results !== 'object' || Array.isArray(results)) return results
  const checks = (results as { checks?: unknown }).checks
  const byId = texts(tool)
  if (!byId || !Array.isArray(checks)) return results
  const codes = expectations()
  let changed = false
  const compact = checks.map((c: unknown) => {
    if (c === null || typeof c !== 'object' || Array.isArray(c)) return c
    const k = c as Check
    const keys = Object.keys(k)
    if (keys.length !== FULL_KEYS.length || !FULL_KEYS.every((f) => f in k)) return c
    if (typeof k.id !== 'string' || !Number.isSafeInteger(k.points) || k.observed === undefined) return c
    const t = byId.get(JSON.stringify(k.id))
    if (!t || k.name !== t.name || k.why !== t.why) return c
    let expected: unknown = k.expected
    if (typeof expected === 'string' && typeof k.verdict === 'string' && typeof k.source === 'string') {
      const coded = codes.codeOf.get(expected)
      if (coded !== undefined) expected = coded
      else if (expected.startsWith('#') && codes.textOf.has(JSON.stringify(expected))) return c
    }
    changed = true
    const { name: _n, why: _w, source, ...rest } = k
    return source === t.source ? { ...rest, expected } : { ...rest, expected, source }
  })
  const withChecks = changed ? { ...results, checks: compact } : results
  return compactDetails(withChecks as Record<string, unknown>)
}

const CHECK_START = '{"id": "'
const POINTS = '"points": '
const SOURCE = '"source": '
const VERDICT = '"verdict": '
const EXPECTED = '"expected": '

/**
 * The splice that puts a coded expectation back, for a compact check whose members after
 * `points` start at `p`: an optional `source`, the `verdict`, then `expected`.
 */
function expectationSplice(text: string, p: number): Splice | null {
  const s = afterStringMember(text, p, SOURCE)
  const v = afterStringMember(text, s < 0 ? p : s, VERDICT)
  if (v < 0 || !text.startsWith(EXPECTED, v)) return null
  const at = v + EXPECTED.length
  if (text.charCodeAt(at + 1) !== 35) return null
  const full = expectations().textOf.get(text.slice(at, at + CODE_LENGTH + 2))
  return full === undefined ? null : { at, to: at + CODE_LENGTH + 2, insert: full }
}

/**
 * The stored results (jsonb text) with every compacted check's name, why and source put back
 * from the tool's definitions: the text the full form would have been stored as. Text it does
 * not recognise is returned unchanged.
 */
export function hydrateResults(tool: string, text: string): string {
  const starts = topLevelStarts(text)
  // One list of splices in text order (the checks come before the consistency section: jsonb
  // puts shorter keys first), applied once, so the served text is built in one go.
  const splices = checkSplices(tool, text, starts.checks)
  if (text.includes(DETAIL_CODE)) detailSplices(text, starts.consistency, splices)
  if (!splices.length) return text
  let out = ''
  let last = 0
  for (const s of splices) {
    out += text.slice(last, s.at) + s.insert
    last = s.to
  }
  return out + text.slice(last)
}

/** The splices that put back the checks' text; none when the array is not as expected. */
function checkSplices(tool: string, text: string, open: number): Splice[] {
  const byId = texts(tool)
  if (!byId || open < 0) return []
  let i = open + 1
  if (text.charCodeAt(i) === 93) return []
  const out: Splice[] = []
  for (;;) {
    if (!text.startsWith(CHECK_START, i)) return []
    const idEnd = stringEnd(text, i + 7)
    if (idEnd < 0) return []
    const afterId = idEnd + 3
    const t = byId.get(text.slice(i + 7, idEnd + 1))
    if (t && text.startsWith(POINTS, afterId)) {
      out.push({ at: afterId, to: afterId, insert: t.head })
      let n = afterId + POINTS.length
      while (n < text.length && ((text.charCodeAt(n) >= 48 && text.charCodeAt(n) <= 57) || text.charCodeAt(n) === 45)) n++
      if (text.startsWith(', ', n) && !text.startsWith(SOURCE, n + 2)) out.push({ at: n + 2, to: n + 2, insert: t.sourceJson })
      const coded = expectationSplice(text, n + 2)
      if (coded) out.push(coded)
    }
    const end = skipValue(text, i)
    if (end < 0) return []
    const next = text.charCodeAt(end)
    if (next === 93) break
    if (next !== 44) return []
    i = end + 2
  }
  return out
}
