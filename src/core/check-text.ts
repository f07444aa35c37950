// A stored task keeps what is particular to it; the text every task of a check shares (its
// `name`, `why`, and `source` when it is the definition's) comes from the check's definition
// when the task is served, and so does a check's constant `expected` and a consistency item's
// `detail` when it is one of the fixed texts: each is stored as a code of a text listed in
// stored-texts.json (beside this file). That file only grows (`npm run docs:checks` appends
// what the code writes now and drops nothing; a test keeps it current), so a task stored
// with an old wording is served with that wording. docs/api.md (Decisions) and
// docs/performance.md say why.
//
// Consistency details: a fixed text is stored as `#` and eight hex digits of a SHA-256 (no
// server-written detail starts with `#`), in place, and served as the text again. An item of
// the usual shape also leaves out its `sources` and `verdict`: its code is the hash of text,
// sources and verdict together, and stands for all three (jsonb prints those two members right
// after `detail`, so they go back in the same place). Items stored before these item codes keep
// their members and a code of the text alone. A code no table knows (a text reworded without
// keeping the old one) is served as stored.
//
// Store (compactResults): a check whose name and why are exactly its definition's (for the
// task's tool) is stored without them, and without `source` when that is the definition's
// too. Anything else — a check id two definitions share with different text, a text the IP
// truncation changed, an object with other keys — is stored in full, as before.
//
// Expectations: a compact check whose `expected` is one of the file's `expected` texts (every
// check definition's constant `expected` longer than a code, and every wording such a text
// ever had) is stored with a code of the same form in its place (`#` and eight hex digits of a
// SHA-256 of the text) and served as the text again, so a task keeps the expectation it was
// judged against. A compact check whose own `expected` looks like a known code is stored in
// full instead, so a code always means the text.
//
// Serve (hydrateResults): the stored jsonb as text, in PostgreSQL's jsonb key order (shorter
// keys first, then bytewise: id, why, name, points, source, verdict, expected, observed),
// gets the missing members and the coded expectation put back where jsonb would have printed
// them, so the served body is byte for byte the full form. Only the top level up to `checks` and the checks array are
// scanned (no JSON.parse). A check that already has `why` (rows stored before this change),
// or whose id no definition of the tool has any more, is served as stored.

import { createHash } from 'node:crypto'
import { SPEC_SCORING_DEFS } from '../checks/spec-scoring'
import { CONSISTENCY_VERDICTS, FIXED_DETAILS } from './consistency'
import type { Check } from './scoring'
import STORED_TEXTS from './stored-texts.json'
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

// ------------------------------------------------------------------ expectations

/** A code as stored: `#` and eight hex digits, 9 characters (11 as JSON). */
export const CODE_LENGTH = 9

/** The code of what `hashed` names: `#` and the first eight hex digits of its SHA-256. */
const codeOfText = (hashed: string) => `#${createHash('sha256').update(hashed).digest('hex').slice(0, 8)}`

let expectationTables: { codeOf: Map<string, string>; textOf: Map<string, string> } | undefined

/**
 * The coded expectations: `codeOf`, a text → its code; `textOf`, a code as JSON text
 * (`"#1a2b3c4d"`) → the text as JSON. Only texts longer than a code are listed in the file.
 */
export function expectations() {
  if (!expectationTables) {
    const codeOf = new Map<string, string>()
    const textOf = new Map<string, string>()
    for (const text of STORED_TEXTS.expected) {
      if (text.length <= CODE_LENGTH) continue
      const code = codeOfText(text)
      const json = JSON.stringify(code)
      const seen = textOf.get(json)
      if (seen !== undefined && seen !== JSON.stringify(text)) throw new Error(`two expectations share the code ${code}`)
      codeOf.set(text, code)
      textOf.set(json, JSON.stringify(text))
    }
    expectationTables = { codeOf, textOf }
  }
  return expectationTables
}

// ------------------------------------------------------------------ consistency details

let detailTables: { codeOf: Map<string, string>; itemCodeOf: Map<string, Map<string, string>>; textOf: Map<string, string> } | undefined

const SIDES = ['client', 'server'] as const
/** Every `sources` list an item can have: one to three sides (the WebRTC item has three). */
const SOURCE_LISTS: Array<Array<(typeof SIDES)[number]>> = [1, 2, 3].flatMap((n) => {
  let lists: Array<Array<(typeof SIDES)[number]>> = [[]]
  for (let i = 0; i < n; i++) lists = lists.flatMap((l) => SIDES.map((s) => [...l, s]))
  return lists
})
/** What an item code is the hash of. */
const itemKey = (text: string, sources: readonly string[], verdict: string) => JSON.stringify([text, sources, verdict])
/** The key an item code is found by among a text's: its sources and verdict, when they are ones an item can have. */
function comboKey(sources: unknown, verdict: unknown): string | null {
  if (!Array.isArray(sources) || sources.length < 1 || sources.length > 3 || !CONSISTENCY_VERDICTS.includes(verdict as never)) return null
  let key = verdict as string
  for (const x of sources) {
    if (x !== 'client' && x !== 'server') return null
    key += x === 'client' ? 'c' : 's'
  }
  return key
}

/**
 * The codes and what they stand for. `codeOf`: a fixed text → its code (items stored before
 * the item codes, and items of another shape, keep their `sources` and `verdict`).
 * `itemCodeOf`: text → sources and verdict (comboKey) → the code of all three (the item is stored without
 * `sources` and `verdict`). `textOf`: code as JSON text (`"#1a2b3c4d"`) → what is put in its
 * place, as jsonb prints it — the text alone, or the text followed by the two members, which
 * jsonb prints right after `detail` (keys of 7 characters between the 6 of `detail` and the 8
 * of `observed`).
 */
export function detailCodes() {
  detailTables ??= detailTablesOf([...STORED_TEXTS.details, ...FIXED_DETAILS])
  return detailTables
}

/** The tables of detailCodes() for these sentences (the file's, then any the code writes that it lacks). */
export function detailTablesOf(texts: readonly string[]) {
  const codeOf = new Map<string, string>()
  const itemCodeOf = new Map<string, Map<string, string>>()
  const textOf = new Map<string, string>()
  const add = (hashed: string, served: string) => {
    const code = codeOfText(hashed)
    const json = JSON.stringify(code)
    const seen = textOf.get(json)
    if (seen !== undefined && seen !== served) throw new Error(`two fixed consistency details share the code ${code}`)
    textOf.set(json, served)
    return code
  }
  for (const text of new Set(texts)) {
    codeOf.set(text, add(text, JSON.stringify(text)))
    const combos = new Map<string, string>()
    for (const sources of SOURCE_LISTS) {
      for (const verdict of CONSISTENCY_VERDICTS) {
        const served = `${JSON.stringify(text)}, "sources": [${sources.map((x) => JSON.stringify(x)).join(', ')}], "verdict": ${JSON.stringify(verdict)}`
        combos.set(comboKey(sources, verdict)!, add(itemKey(text, sources, verdict), served))
      }
    }
    itemCodeOf.set(text, combos)
  }
  return { codeOf, itemCodeOf, textOf }
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v)
const ITEM_KEYS = ['id', 'claim', 'observed', 'sources', 'verdict', 'detail']

/**
 * An item of the usual shape whose detail is fixed is stored without `sources` and `verdict`,
 * its detail the code of all three; one of another shape keeps them, its detail the text's code.
 */
function compactDetails(results: Record<string, unknown>): unknown {
  const c = results.consistency
  if (!isRecord(c) || !Array.isArray(c.items)) return results
  const { codeOf, itemCodeOf } = detailCodes()
  let changed = false
  const items = c.items.map((item: unknown) => {
    if (!isRecord(item) || typeof item.detail !== 'string') return item
    const code = codeOf.get(item.detail)
    if (code === undefined) return item
    changed = true
    const { sources, verdict } = item
    const keys = Object.keys(item)
    const combo = comboKey(sources, verdict)
    if (combo !== null && keys.length === ITEM_KEYS.length && ITEM_KEYS.every((k) => k in item)) {
      const whole = itemCodeOf.get(item.detail)?.get(combo)
      if (whole !== undefined) return { id: item.id, claim: item.claim, detail: whole, observed: item.observed }
    }
    return { ...item, detail: code }
  })
  return changed ? { ...results, consistency: { ...c, items } } : results
}

const DETAIL_CODE = '"detail": "#'

/**
 * The stored results with every coded consistency detail put back as its text. `open` is the
 * `{` of the top-level `consistency` value. Inside its `items` array, `"detail": "#` can only be
 * the key of an item written by the server (inside a jsonb string every quote is escaped, and
 * no object the items nest has a `detail`), so the codes are found with indexOf.
 */
function detailSplices(text: string, open: number, out: Splice[]): void {
  if (open < 0 || !text.startsWith('{"items": [', open)) return
  const end = skipValue(text, open + 10)
  if (end < 0) return
  const { textOf } = detailCodes()
  for (let p = text.indexOf(DETAIL_CODE, open); p >= 0 && p < end; p = text.indexOf(DETAIL_CODE, p + DETAIL_CODE.length)) {
    const start = p + DETAIL_CODE.length - 2
    const full = textOf.get(text.slice(start, start + CODE_LENGTH + 2))
    if (full !== undefined) out.push({ at: start, to: start + CODE_LENGTH + 2, insert: full })
  }
}

/** Replace text[at, to) with `insert`; splices are kept in text order and never overlap. */
interface Splice {
  at: number
  to: number
  insert: string
}

const CHECK_START = '{"id": "'
const POINTS = '"points": '
const SOURCE = '"source": '
const VERDICT = '"verdict": '
const EXPECTED = '"expected": '

/** End of the JSON string member value at `p` (its key `key`): the index after `", `, or -1. */
function afterStringMember(text: string, p: number, key: string): number {
  if (!text.startsWith(key, p) || text.charCodeAt(p + key.length) !== 34) return -1
  const q = stringEnd(text, p + key.length)
  return q < 0 || !text.startsWith(', ', q + 1) ? -1 : q + 3
}

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

/** Index of the quote that closes the JSON string opening at `i`, or -1. */
function stringEnd(text: string, i: number): number {
  let q = i
  for (;;) {
    q = text.indexOf('"', q + 1)
    if (q < 0) return -1
    let b = q - 1
    while (text.charCodeAt(b) === 92) b--
    if ((q - 1 - b) % 2 === 0) return q
  }
}

/** Index just past the object or array that starts at `i`, or -1. */
function skipValue(text: string, i: number): number {
  let depth = 0
  for (let p = i; p < text.length; p++) {
    const c = text.charCodeAt(p)
    if (c === 34) {
      p = stringEnd(text, p)
      if (p < 0) return -1
    } else if (c === 123 || c === 91) depth++
    else if ((c === 125 || c === 93) && --depth === 0) return p + 1
  }
  return -1
}

/**
 * Where the top-level `checks` array (its `[`) and `consistency` object (its `{`) start in
 * jsonb text, -1 for either that is not there; one pass over the top level.
 */
function topLevelStarts(text: string): { checks: number; consistency: number } {
  const found = { checks: -1, consistency: -1 }
  if (text.charCodeAt(0) !== 123) return found
  let depth = 0
  for (let p = 0; p < text.length; p++) {
    const c = text.charCodeAt(p)
    if (c === 34) {
      const q = stringEnd(text, p)
      if (q < 0) return found
      if (depth === 1) {
        if (q - p === 7 && text.startsWith('"checks": [', p)) found.checks = p + 10
        else if (q - p === 12 && text.startsWith('"consistency": {', p)) {
          found.consistency = p + 15
          return found
        }
      }
      p = q
    } else if (c === 123 || c === 91) depth++
    else if ((c === 125 || c === 93) && --depth === 0) return found
  }
  return found
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
