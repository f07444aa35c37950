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

/** The first problem found (depth-first, in document order), or null. Iterative: no recursion limit. */
export function findJsonProblem(root: unknown, maxDepth = MAX_DEPTH): JsonProblem | null {
  const stack: Array<{ value: unknown; path: string; depth: number }> = [{ value: root, path: '', depth: 1 }]
  while (stack.length) {
    const { value, path, depth } = stack.pop()!
    if (typeof value === 'string') {
      const p = badString(value)
      if (p) return { path: path || '(body)', problem: `string ${p}` }
    } else if (typeof value === 'number') {
      if (!Number.isFinite(value)) return { path: path || '(body)', problem: 'number is out of range' }
    } else if (value !== null && typeof value === 'object') {
      if (depth > maxDepth) return { path: path || '(body)', problem: `nesting is deeper than ${maxDepth} levels` }
      const children: Array<{ value: unknown; path: string; depth: number }> = []
      if (Array.isArray(value)) {
        for (const [i, v] of value.entries()) children.push({ value: v, path: pathOf(path, i), depth: depth + 1 })
      } else {
        for (const [k, v] of Object.entries(value)) {
          const p = badString(k)
          if (p) return { path: pathOf(path, k), problem: `key ${p}` }
          children.push({ value: v, path: pathOf(path, k), depth: depth + 1 })
        }
      }
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!)
    }
  }
  return null
}
