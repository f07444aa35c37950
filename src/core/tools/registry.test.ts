import { describe, expect, test } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { TOOL_SIGNALS } from '../../../common/signals'
import { TOOLS } from '../../../common/tools'
import { SPEC_SCORING_DEFS } from '../../checks/spec-scoring'
import { foundText } from '../check-found'
import { allChecks, checksMarkdown } from './check-list'
import { TOOL_DEFINITIONS } from './registry'

const root = fileURLToPath(new URL('../../../', import.meta.url))

function sources(dir: string): string[] {
  return readdirSync(root + dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$|\.fixture\.ts$/.test(f))
    .map((f) => `${dir}/${f}`)
}

describe('the tool registry', () => {
  test('every tool has a definition whose signals are its schema in common/signals', () => {
    for (const { id } of TOOLS) {
      expect(TOOL_DEFINITIONS[id].id).toBe(id)
      expect(TOOL_DEFINITIONS[id].signals).toBe(TOOL_SIGNALS[id])
    }
  })

  test('a tool lists each check once', () => {
    for (const { id } of TOOLS) {
      const ids = TOOL_DEFINITIONS[id].checks.map(([c]) => c.id)
      expect(ids.length, id).toBe(new Set(ids).size)
      expect(ids.length, id).toBeGreaterThan(0)
    }
  })

  test('every check id has one definition, written in one file', () => {
    const checks = allChecks()
    const files = [...sources('src'), ...sources('common')].map((f) => [f, readFileSync(root + f, 'utf8')] as const)
    for (const { def } of checks) {
      // A definition names its id and then its name (a tool names its id and then its signals).
      const written = new RegExp(`id: '${def.id}',\\s*name:`)
      const homes = files.filter(([, text]) => written.test(text)).map(([f]) => f)
      expect(homes, def.id).toHaveLength(1)
      expect(homes[0], def.id).toStartWith('src/checks/')
    }
  })

  test('every check has both texts: its name (what a consistent browser does) and what it found when it fires, which differ', () => {
    const defs = [...allChecks().map(({ def }) => def), ...SPEC_SCORING_DEFS]
    expect(defs.length).toBeGreaterThan(100)
    for (const def of defs) {
      expect(def.name.trim().length, def.id).toBeGreaterThan(0)
      expect(def.found.trim().length, def.id).toBeGreaterThan(0)
      expect(def.found.toLowerCase(), def.id).not.toBe(def.name.toLowerCase())
    }
    // What the findings panels show for a fired check of each tool is that phrase.
    for (const { id } of TOOLS) for (const [c] of TOOL_DEFINITIONS[id].checks) expect(foundText(id, c), `${id} ${c.id}`).toBe(c.found)
    expect(foundText('bot-detector', { id: 'webdriver-flag', name: 'navigator.webdriver is not true' })).toBe('navigator.webdriver is true')
    expect(foundText('bot-detector', { id: 'selenium', name: 'No Selenium traces' })).toBe('the client reported Selenium traces')
    expect(foundText('bot-detector', { id: 'a-retired-check', name: 'Its old name' })).toBe('Its old name')
  })

  test('docs/checks.md is current (npm run docs:checks)', () => {
    expect(readFileSync(`${root}docs/checks.md`, 'utf8')).toBe(checksMarkdown())
  })
})
