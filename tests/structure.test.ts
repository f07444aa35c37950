// House rules that hold for the whole tree: no import cycle between modules, no core file over
// 350 lines, and every code fence in the Markdown closed (an unclosed one turns the rest of the
// page into code).

import { describe, expect, test } from 'bun:test'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { importCycles, importGraph } from './support/import-graph'
import { fenceProblems } from './support/markdown-fences'

const ROOT = join(import.meta.dir, '..')

describe('import cycles', () => {
  test('the cycle finder names each cycle as a path back to its start, a self-import too', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts', 'f.ts']],
      ['d.ts', ['a.ts']],
      ['e.ts', ['e.ts']],
      ['f.ts', ['g.ts']],
      ['g.ts', []],
    ])
    expect(importCycles(graph)).toEqual([
      ['a.ts', 'b.ts', 'c.ts', 'a.ts'],
      ['e.ts', 'e.ts'],
    ])
  })

  test('the graph counts type-only imports and re-exports', () => {
    const graph = importGraph(ROOT, ['src/core'])
    // judge.ts imports only types from src/checks/define.ts, which is outside the folder read.
    expect(graph.get('src/core/judge.ts')).toContain('src/checks/define.ts')
    expect(graph.get('src/core/tools/types.ts')).toContain('src/core/judge.ts')
  })

  test('no module imports itself back through others, type imports included', () => {
    const cycles = importCycles(importGraph(ROOT, ['src', 'db', 'common', 'probes', 'tests']))
    expect(cycles.map((c) => c.join(' → '))).toEqual([])
  })
})

/** The pure core and the browser code (docs/architecture.md): what judges and what collects. */
const CORE = ['src/core', 'src/checks', 'common', 'probes']
const MAX_LINES = 350

function files(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) files(path, out)
    else out.push(path)
  }
  return out
}

test(`no core file (${CORE.join(', ')}) is over ${MAX_LINES} lines, tests aside`, () => {
  const long: string[] = []
  for (const dir of CORE) {
    for (const file of files(join(ROOT, dir))) {
      if (!/\.(ts|tsx)$/.test(file) || /\.test\.tsx?$/.test(file)) continue
      const lines = readFileSync(file, 'utf8').split('\n').length - 1
      if (lines > MAX_LINES) long.push(`${relative(ROOT, file)}: ${lines} lines`)
    }
  }
  expect(long).toEqual([])
})

describe('Markdown code fences', () => {
  test('a stray fence is found: the next block opens inside it', () => {
    const stray = ['```json', '{}', '```', '', '```', '', '| status |', '', '```sh', 'curl …', '```'].join('\n')
    expect(fenceProblems(stray)).toEqual([
      'line 9: "```sh" inside the code block opened on line 5 (a fence left open before it?)',
    ])
    expect(fenceProblems(['text', '```sh', 'npm test'].join('\n'))).toEqual(['the code block opened on line 2 is never closed'])
    expect(fenceProblems(['```sh', 'npm test', '```', 'text', '````md', '```', '````'].join('\n'))).toEqual([])
  })

  test('README.md and docs/*.md close every code block they open', () => {
    const pages = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)]
    const problems = pages.flatMap((page) => fenceProblems(readFileSync(join(ROOT, page), 'utf8')).map((p) => `${page} ${p}`))
    expect(problems).toEqual([])
  })
})
