// The project's import graph and its cycles, for tests/structure.test.ts. Every relative import
// counts, `import type` included: a type-only cycle still ties two modules together, and says
// that a type lives on the wrong side. Imports of packages are left out.

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import ts from 'typescript'

/** Module (path relative to the root) → the modules it imports. */
export type ImportGraph = Map<string, string[]>

const SOURCE = /\.(ts|tsx)$/
const SKIP = new Set(['node_modules', '.git', 'data', 'test-results', 'playwright-report', 'bench-results', 'dist'])

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (SKIP.has(name) || name.startsWith('.')) continue
    const path = join(dir, name)
    if (statSync(path).isDirectory()) sourceFiles(path, out)
    else if (SOURCE.test(name) && !name.endsWith('.d.ts')) out.push(path)
  }
  return out
}

/** The file a relative specifier names, as Bun and TypeScript's `bundler` resolution find it. */
function resolveImport(from: string, specifier: string): string | null {
  const base = resolve(dirname(from), specifier)
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')]) {
    if (SOURCE.test(candidate) && existsSync(candidate) && statSync(candidate).isFile()) return candidate
  }
  return null
}

/** The import graph of every .ts/.tsx file under `root` (the listed folders, or all of it). */
export function importGraph(root: string, folders: readonly string[] = ['.']): ImportGraph {
  const graph: ImportGraph = new Map()
  for (const folder of folders) {
    for (const file of sourceFiles(join(root, folder))) {
      const imports = ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles
      const targets = new Set<string>()
      for (const { fileName } of imports) {
        if (!fileName.startsWith('.')) continue
        const target = resolveImport(file, fileName)
        if (target) targets.add(relative(root, target))
      }
      graph.set(relative(root, file), [...targets].sort())
    }
  }
  return graph
}

/**
 * The cycles: each strongly connected component of more than one module (or a module that
 * imports itself), as one path through it that returns to its start, e.g. `a → b → a`.
 * Tarjan's algorithm, iterative, in a stable order.
 */
export function importCycles(graph: ImportGraph): string[][] {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const onStack = new Set<string>()
  const stack: string[] = []
  const components: string[][] = []
  let next = 0
  const edges = (n: string) => (graph.get(n) ?? []).filter((m) => graph.has(m))
  for (const start of [...graph.keys()].sort()) {
    if (index.has(start)) continue
    const work: Array<{ node: string; i: number }> = [{ node: start, i: 0 }]
    index.set(start, next)
    low.set(start, next++)
    stack.push(start)
    onStack.add(start)
    while (work.length) {
      const top = work[work.length - 1]!
      const out = edges(top.node)
      if (top.i < out.length) {
        const m = out[top.i++]!
        if (!index.has(m)) {
          index.set(m, next)
          low.set(m, next++)
          stack.push(m)
          onStack.add(m)
          work.push({ node: m, i: 0 })
        } else if (onStack.has(m)) low.set(top.node, Math.min(low.get(top.node)!, index.get(m)!))
        continue
      }
      work.pop()
      if (work.length) {
        const parent = work[work.length - 1]!.node
        low.set(parent, Math.min(low.get(parent)!, low.get(top.node)!))
      }
      if (low.get(top.node) === index.get(top.node)) {
        const component: string[] = []
        let m: string
        do {
          m = stack.pop()!
          onStack.delete(m)
          component.push(m)
        } while (m !== top.node)
        if (component.length > 1 || edges(top.node).includes(top.node)) components.push(component.sort())
      }
    }
  }
  return components.map((c) => cyclePath(graph, c))
}

/** A shortest path from the component's first module back to itself, inside the component. */
function cyclePath(graph: ImportGraph, component: string[]): string[] {
  const inside = new Set(component)
  const start = component[0]!
  const previous = new Map<string, string>()
  const queue = [start]
  for (let q = 0; q < queue.length; q++) {
    const n = queue[q]!
    for (const m of graph.get(n) ?? []) {
      if (!inside.has(m)) continue
      if (m === start) {
        const path = [start]
        for (let p: string | undefined = n; p !== undefined && p !== start; p = previous.get(p)) path.splice(1, 0, p)
        return [...path, start]
      }
      if (!previous.has(m)) {
        previous.set(m, n)
        queue.push(m)
      }
    }
  }
  return [...component, start]
}
