// Limits on a parsed JSON document before it is stored as PostgreSQL jsonb. jsonb rejects
// U+0000 and unpaired UTF-16 surrogates (both legal in JSON text and in JS strings), and
// JSON.parse turns out-of-range numbers such as 1e400 into Infinity, which would come back as
// null: each is refused here with its path, so nothing is stored half-right.

export const MAX_DEPTH = 32

export type JsonProblem = { path: string; problem: string }

function pathOf(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`
  return /^[A-Za-z_$][\w$]*$/.test(key) ? (parent ? `${parent}.${key}` : key) : `${parent}[${JSON.stringify(key)}]`
}

function badString(s: string): string | null {
  if (s.includes('\u0000')) return 'contains U+0000, which PostgreSQL cannot store'
  if (!s.isWellFormed()) return 'contains an unpaired UTF-16 surrogate, which PostgreSQL cannot store'
  return null
}

/** A problem on the way back up: the keys from the value up to the root, and what is wrong. */
interface Found {
  keys: Array<string | number>
  problem: string
}

/**
 * The first problem found (depth-first, in document order), or null. Recursive, but never
 * deeper than `maxDepth` + 1 frames (a deeper value is the problem); nothing is allocated for a
 * document without one, and the path is made only for the problem.
 */
export function findJsonProblem(root: unknown, maxDepth = MAX_DEPTH): JsonProblem | null {
  const found = walk(root, 1, maxDepth)
  if (!found) return null
  let path = ''
  for (let i = found.keys.length - 1; i >= 0; i--) path = pathOf(path, found.keys[i]!)
  return { path: path || '(body)', problem: found.problem }
}

function walk(value: unknown, depth: number, maxDepth: number): Found | null {
  if (typeof value === 'string') {
    const p = badString(value)
    return p ? { keys: [], problem: `string ${p}` } : null
  }
  if (typeof value === 'number') return Number.isFinite(value) ? null : { keys: [], problem: 'number is out of range' }
  if (value === null || typeof value !== 'object') return null
  if (depth > maxDepth) return { keys: [], problem: `nesting is deeper than ${maxDepth} levels` }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const f = walk(value[i], depth + 1, maxDepth)
      if (f) {
        f.keys.push(i)
        return f
      }
    }
    return null
  }
  const record = value as Record<string, unknown>
  for (const k in record) {
    if (!Object.hasOwn(record, k)) continue
    const p = badString(k)
    if (p) return { keys: [k], problem: `key ${p}` }
  }
  for (const k in record) {
    if (!Object.hasOwn(record, k)) continue
    const f = walk(record[k], depth + 1, maxDepth)
    if (f) {
      f.keys.push(k)
      return f
    }
  }
  return null
}
