// Codes stored in place of texts every task shares, served as the texts again (the why is in
// src/core/check-text.ts). Both come from stored-texts.json (beside this file), which only grows.
//
// Consistency details: a fixed text is stored as `#` and eight hex digits of a SHA-256 (no
// server-written detail starts with `#`), in place, and served as the text again. An item of
// the usual shape also leaves out its `sources` and `verdict`: its code is the hash of text,
// sources and verdict together, and stands for all three (jsonb prints those two members right
// after `detail`, so they go back in the same place). Items stored before these item codes keep
// their members and a code of the text alone. A code no table knows (a text reworded without
// keeping the old one) is served as stored.
//
// Expectations: a compact check whose `expected` is one of the file's `expected` texts (every
// check definition's constant `expected` longer than a code, and every wording such a text
// ever had) is stored with a code of the same form in its place (`#` and eight hex digits of a
// SHA-256 of the text) and served as the text again, so a task keeps the expectation it was
// judged against. A compact check whose own `expected` looks like a known code is stored in
// full instead, so a code always means the text.

import { createHash } from 'node:crypto'
import { CONSISTENCY_VERDICTS, FIXED_DETAILS } from './consistency'
import { skipValue, type Splice } from './jsonb-text'
import STORED_TEXTS from './stored-texts.json'

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

let detailTables: { codeOf: Map<string, string>; itemCodeOf: Map<string, Map<number, string>>; textOf: Map<string, string> } | undefined

const SIDES = ['client', 'server'] as const
/** Every `sources` list an item can have: one to three sides (the WebRTC item has three). */
const SOURCE_LISTS: Array<Array<(typeof SIDES)[number]>> = [1, 2, 3].flatMap((n) => {
  let lists: Array<Array<(typeof SIDES)[number]>> = [[]]
  for (let i = 0; i < n; i++) lists = lists.flatMap((l) => SIDES.map((s) => [...l, s]))
  return lists
})
/** What an item code is the hash of. */
const itemKey = (text: string, sources: readonly string[], verdict: string) => JSON.stringify([text, sources, verdict])
/**
 * The key an item code is found by among a text's: its sources and verdict, when they are ones an
 * item can have, as a number (a leading 1, a bit per side, then the verdict's place): a string
 * built per item cost more to hash in the lookup than the rest of storing it.
 */
function comboKey(sources: unknown, verdict: unknown): number | null {
  if (!Array.isArray(sources) || sources.length < 1 || sources.length > 3) return null
  const v = CONSISTENCY_VERDICTS.indexOf(verdict as never)
  if (v < 0) return null
  let key = 1
  for (const x of sources) {
    if (x === 'client') key *= 2
    else if (x === 'server') key = key * 2 + 1
    else return null
  }
  return key * CONSISTENCY_VERDICTS.length + v
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
  const itemCodeOf = new Map<string, Map<number, string>>()
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
    const combos = new Map<number, string>()
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
export function compactDetails(results: Record<string, unknown>): unknown {
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

export const DETAIL_CODE = '"detail": "#'

/**
 * The stored results with every coded consistency detail put back as its text. `open` is the
 * `{` of the top-level `consistency` value. Inside its `items` array, `"detail": "#` can only be
 * the key of an item written by the server (inside a jsonb string every quote is escaped, and
 * no object the items nest has a `detail`), so the codes are found with indexOf.
 */
export function detailSplices(text: string, open: number, out: Splice[]): void {
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
