// The ruleset that judged a task (issue 47): every stored task's results carry `ruleset`, an
// identifier computed from what decides its checks, score and verdict, never a number someone
// bumps. It hashes the tool's check list (ids, weights, order) and the code that judges: every
// module in the import closure of the tool's definition (src/core/tools/<tool>.ts) and of the
// modules all tasks go through (assembling the results, scoring, the verdict thresholds), as far
// as that closure is judging code (src/checks, src/core, src/evidence, common; .ts and .json).
// A module counts as the code it runs: Bun's transpiler drops comments, types and formatting,
// so rewording a comment keeps the ruleset and changing a weight, a constant or a branch
// changes it. Paths are hashed relative to the repository, so every instance running the same
// code (a container, another checkout) computes the same identifier. docs/scoring.md, "The
// ruleset", says what it is for.
//
// Computed once per process, on the first task, for every tool at once (modules they share are
// read once); only the identifiers are kept.

import { createHash } from 'node:crypto'
import { existsSync, readFileSync, statSync } from 'node:fs'
import { join, posix } from 'node:path'
import type { ToolId } from '../../common/tools'
import { TOOL_DEFINITIONS } from './tools/registry'

/** The scheme of the identifier: a new way of computing it gets a new prefix. */
export const RULESET_SCHEME = 'r1'

/** `r1-` and 16 hex digits (64 bits of a SHA-256). */
export const RULESET_PATTERN = /^r1-[0-9a-f]{16}$/

/** What the computation reads, by path relative to the repository (`/`-separated). */
export interface RulesetSource {
  /** The file's text; null when there is no such file. */
  read(path: string): string | null
  /** A module's code as it runs: without comments, types and formatting. */
  code(text: string, path: string): string
  /** The specifiers a module imports at run time (type-only imports are not). */
  imports(text: string, path: string): string[]
}

/** A tool as the ruleset sees it: its id and its checks with their weights, in order. */
export interface RulesetTool {
  id: string
  checks: ReadonlyArray<readonly [{ id: string }, number]>
}

/** Modules every task goes through besides its tool's definition: the results, the score, the verdicts. */
export const SHARED_ROOTS = ['src/core/tools/assemble.ts', 'src/core/scoring.ts', 'src/core/task-verdict.ts', 'src/checks/automation-verdict.ts'] as const

/** Judging code: followed and hashed. Anything else (db/, src/http/, src/pages/, packages) is not. */
const JUDGING = /^(src\/(checks|core|evidence)|common)\/.+\.(ts|json)$/
/** The registry lists every tool: a tool's ruleset follows its own definition, not the others'. */
const NOT_FOLLOWED = new Set(['src/core/tools/registry.ts'])

export const rulesetRoots = (tool: string): string[] => [`src/core/tools/${tool}.ts`, ...SHARED_ROOTS]

/** The module a relative specifier names, as Bun resolves it; null for a package or a file outside the tree. */
function resolve(source: RulesetSource, from: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null
  const base = posix.join(posix.dirname(from), specifier)
  if (base.startsWith('..')) return null
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`]) {
    if (/\.(ts|tsx|json)$/.test(candidate) && source.read(candidate) !== null) return candidate
  }
  throw new Error(`Cannot compute the ruleset: '${specifier}' imported by ${from} is not in the tree`)
}

interface Module {
  digest: string
  imports: string[]
}

function moduleOf(source: RulesetSource, path: string, seen: Map<string, Module>): Module {
  let m = seen.get(path)
  if (!m) {
    const text = source.read(path)
    if (text === null) throw new Error(`Cannot compute the ruleset: ${path} is missing`)
    const json = path.endsWith('.json')
    const code = json ? JSON.stringify(JSON.parse(text)) : source.code(text, path)
    const imports: string[] = []
    if (!json) {
      for (const spec of source.imports(text, path)) {
        const target = resolve(source, path, spec)
        if (target && JUDGING.test(target) && !NOT_FOLLOWED.has(target) && !/\.test\.ts$/.test(target)) imports.push(target)
      }
    }
    m = { digest: createHash('sha256').update(code).digest('hex'), imports }
    seen.set(path, m)
  }
  return m
}

/** The judging modules a tool's tasks run, sorted: its roots and everything they import that is judging code. */
export function rulesetModules(tool: string, source: RulesetSource, seen = new Map<string, Module>()): string[] {
  const found = new Set<string>()
  const queue = rulesetRoots(tool)
  while (queue.length) {
    const path = queue.pop()!
    if (found.has(path)) continue
    found.add(path)
    queue.push(...moduleOf(source, path, seen).imports)
  }
  return [...found].sort()
}

/** Each tool's ruleset identifier, from its check list and the code `source` gives. */
export function computeRulesets(tools: readonly RulesetTool[], source: RulesetSource): Map<string, string> {
  const seen = new Map<string, Module>()
  const out = new Map<string, string>()
  for (const tool of tools) {
    const h = createHash('sha256').update(`${RULESET_SCHEME}\ntool ${tool.id}\n`)
    for (const [check, weight] of tool.checks) h.update(`check ${check.id} ${weight}\n`)
    for (const path of rulesetModules(tool.id, source, seen)) h.update(`module ${path} ${seen.get(path)!.digest}\n`)
    out.set(tool.id, `${RULESET_SCHEME}-${h.digest('hex').slice(0, 16)}`)
  }
  return out
}

/** The repository this module runs from (wherever it was copied to). */
export const REPO_ROOT = join(import.meta.dir, '..', '..')

/** The files under `root`, each module read through Bun's transpiler. */
export function diskSource(root: string = REPO_ROOT): RulesetSource {
  const transpiler = new Bun.Transpiler({ loader: 'ts' })
  return {
    read(path) {
      const file = join(root, path)
      return existsSync(file) && statSync(file).isFile() ? readFileSync(file, 'utf8') : null
    },
    code: (text) => transpiler.transformSync(text),
    imports: (text) => transpiler.scanImports(text).map((i) => i.path),
  }
}

let rulesets: ReadonlyMap<string, string> | undefined

/** The ruleset of a tool's tasks in this process (every tool's computed on the first call). */
export function rulesetOf(tool: ToolId): string {
  rulesets ??= computeRulesets(Object.values(TOOL_DEFINITIONS), diskSource())
  const id = rulesets.get(tool)
  if (id === undefined) throw new Error(`Cannot name the ruleset: unknown tool '${tool}'`)
  return id
}
