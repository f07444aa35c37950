import { afterAll, describe, expect, test } from 'bun:test'
import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { computeRulesets, diskSource, REPO_ROOT, RULESET_PATTERN, rulesetModules, rulesetOf, type RulesetSource, type RulesetTool } from './ruleset'
import { TOOL_DEFINITIONS } from './tools/registry'
import { TOOL_IDS } from '../../common/tools'

const TOOLS: RulesetTool[] = Object.values(TOOL_DEFINITIONS)
const disk = diskSource()
const now = computeRulesets(TOOLS, disk)

/** The tree as it is, but `path` read as `edit` makes it. */
function edited(path: string, edit: (text: string) => string): RulesetSource {
  return {
    ...disk,
    read(p) {
      const text = disk.read(p)
      if (p !== path || text === null) return text
      const out = edit(text)
      if (out === text) throw new Error(`the edit of ${path} changed nothing`)
      return out
    },
  }
}

/** The tools whose ruleset differs from today's. */
const changed = (ids: Map<string, string>) => TOOL_IDS.filter((t) => ids.get(t) !== now.get(t))

describe('ruleset', () => {
  test('every tool has one, of the form r1- and 16 hex digits, the same on every computation', () => {
    for (const tool of TOOL_IDS) {
      expect(now.get(tool)).toMatch(RULESET_PATTERN)
      expect(rulesetOf(tool)).toBe(now.get(tool)!)
    }
    expect(computeRulesets(TOOLS, diskSource())).toEqual(now)
  })

  test('each tool has its own', () => {
    expect(new Set(now.values()).size).toBe(TOOL_IDS.length)
  })

  test('a tool follows its own definition, the shared modules and the judging code they import, nothing else', () => {
    const modules = rulesetModules('dns-leak', disk)
    expect(modules).toContain('src/core/tools/dns-leak.ts')
    expect(modules).toContain('src/checks/dns-lookups-sent.ts')
    for (const shared of ['src/core/tools/assemble.ts', 'src/core/scoring.ts', 'src/core/judge.ts', 'src/core/task-verdict.ts', 'src/checks/automation-verdict.ts', 'src/checks/spec-scoring.ts']) expect(modules).toContain(shared)
    // Not another tool's definition (the registry is not followed), nor tests, nor anything outside the judging code.
    expect(modules).not.toContain('src/core/tools/registry.ts')
    expect(modules).not.toContain('src/core/tools/bot-detector.ts')
    expect(modules.filter((m) => !/^(src\/(checks|core|evidence)|common)\//.test(m) || m.endsWith('.test.ts'))).toEqual([])
    expect(modules).toEqual([...modules].sort())
  })

  test('a changed weight changes that tool’s ruleset only', () => {
    const tools = TOOLS.map((t) => (t.id === 'canvas-fingerprint' ? { ...t, checks: t.checks.map(([c, w], i) => [c, i === 0 ? w + 1 : w] as const) } : t))
    expect(changed(computeRulesets(tools, disk))).toEqual(['canvas-fingerprint'])
  })

  test('checks in another order are another ruleset', () => {
    const tools = TOOLS.map((t) => (t.id === 'http-headers' ? { ...t, checks: [...t.checks].reverse() } : t))
    expect(changed(computeRulesets(tools, disk))).toEqual(['http-headers'])
  })

  test('a changed verdict in a check changes the rulesets of the tools that run it', () => {
    // dns-lookups-sent is dns-leak's alone.
    const ids = computeRulesets(TOOLS, edited('src/checks/dns-lookups-sent.ts', (t) => t.replace("lookups.names.length ? 'pass' : 'warn'", "lookups.names.length ? 'pass' : 'fail'")))
    expect(changed(ids)).toEqual(['dns-leak'])
  })

  test('a changed text in a check changes them too: it is stored in the checks', () => {
    const ids = computeRulesets(TOOLS, edited('src/checks/dns-lookups-sent.ts', (t) => t.replace("expected: 'every name requested'", "expected: 'every name looked up'")))
    expect(changed(ids)).toEqual(['dns-leak'])
  })

  test('a changed scoring formula changes every ruleset', () => {
    const ids = computeRulesets(TOOLS, edited('src/core/scoring.ts', (t) => t.replace('100 - deducted', '99 - deducted')))
    expect(changed(ids)).toEqual([...TOOL_IDS])
  })

  test('a changed verdict threshold changes every ruleset', () => {
    const ids = computeRulesets(TOOLS, edited('src/core/task-verdict.ts', (t) => t.replace('score >= 80', 'score >= 81')))
    expect(changed(ids)).toEqual([...TOOL_IDS])
  })

  test('comments, formatting and types do not count', () => {
    const ids = computeRulesets(
      TOOLS,
      edited('src/checks/dns-lookups-sent.ts', (t) => `// A comment that says more.\n\n/** And a doc comment. */\ntype Unused = { a: string }\n${t.replaceAll('\n', '\n\n')}\n\n// The end.\n`),
    )
    expect(changed(ids)).toEqual([])
  })

  describe('from another directory', () => {
    const copy = mkdtempSync(join(tmpdir(), 'antibot-ruleset-'))
    afterAll(() => rmSync(copy, { recursive: true, force: true }))

    test('a copy of the tree elsewhere (as the container has it) computes the same rulesets: paths count relative to the tree', () => {
      for (const dir of ['src/checks', 'src/core', 'src/evidence', 'common']) cpSync(join(REPO_ROOT, dir), join(copy, dir), { recursive: true })
      expect(computeRulesets(TOOLS, diskSource(copy))).toEqual(now)
    })

    test('a judging module missing from the copy is an error, not another ruleset', () => {
      rmSync(join(copy, 'src/checks/dns-lookups-sent.ts'))
      expect(() => computeRulesets(TOOLS, diskSource(copy))).toThrow("Cannot compute the ruleset: '../../checks/dns-lookups-sent' imported by src/core/tools/dns-leak.ts is not in the tree")
    })
  })
})
