// Reading the text PostgreSQL prints for a jsonb value without parsing it: where a JSON string
// ends, where an object or array ends, and where the top-level members the task texts need
// start. jsonb prints a space after every `:` and `,`, and its keys shorter first, then
// bytewise; src/core/check-text.ts and src/core/text-codes.ts rely on that layout and change
// the text by splices.

/** Replace text[at, to) with `insert`; splices are kept in text order and never overlap. */
export interface Splice {
  at: number
  to: number
  insert: string
}

/** End of the JSON string member value at `p` (its key `key`): the index after `", `, or -1. */
export function afterStringMember(text: string, p: number, key: string): number {
  if (!text.startsWith(key, p) || text.charCodeAt(p + key.length) !== 34) return -1
  const q = stringEnd(text, p + key.length)
  return q < 0 || !text.startsWith(', ', q + 1) ? -1 : q + 3
}

/** Index of the quote that closes the JSON string opening at `i`, or -1. */
export function stringEnd(text: string, i: number): number {
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
export function skipValue(text: string, i: number): number {
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
export function topLevelStarts(text: string): { checks: number; consistency: number } {
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
