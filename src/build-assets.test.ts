import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { TOOL_IDS } from '../common/tools'
import { buildAssets } from './build-assets'
import { createAssetStore } from './http/assets'
import type { AppDeps } from './http/deps'
import { toolsPages } from './http/tools'

// Stand-in probe entries: one tiny module per tool, in a directory of the test's own.
const dirs: string[] = []
function entries(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'antibot-probes-'))
  dirs.push(dir)
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text)
  return dir
}
const everyTool = () => Object.fromEntries(TOOL_IDS.map((t) => [`${t}.ts`, `export const tool = ${JSON.stringify(t)}\n`]))

afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

describe('a missing or broken probe bundle stops the start', () => {
  test('builds one bundle per tool when every entry is there', async () => {
    const names = (await buildAssets({ probesDir: entries(everyTool()) })).map((f) => f.name)
    for (const t of TOOL_IDS) expect(names).toContain(`probes/${t}.js`)
  })

  test('refuses to build when a tool has no entry, naming the tool', async () => {
    const files = everyTool()
    delete files['dns-leak.ts']
    expect(buildAssets({ probesDir: entries(files) })).rejects.toThrow(/^Cannot start: tool 'dns-leak' has no probe bundle: .*dns-leak\.ts does not exist/)
  })

  test('refuses to build when an entry does not compile, naming the tool', async () => {
    const dir = entries({ ...everyTool(), 'ip-leak.ts': 'export const = ;\n' })
    expect(buildAssets({ probesDir: dir })).rejects.toThrow(/^Cannot start: the probe bundle of tool 'ip-leak' does not build/)
  })

  test('the tool pages refuse an asset store without a tool\'s bundle, naming the tool', () => {
    const files = TOOL_IDS.filter((t) => t !== 'vpn-detector').map((t) => ({ name: `probes/${t}.js`, body: new TextEncoder().encode('export {}'), contentType: 'text/javascript' }))
    const deps = { assets: createAssetStore(files) } as unknown as AppDeps
    expect(() => toolsPages(deps)).toThrow("Cannot start: tool 'vpn-detector' has no probe bundle (probes/vpn-detector.js is not among the built assets; see src/build-assets.ts)")
  })
})

describe('the real probe bundles', () => {
  test('carry no schema library: probes import only types from common/signals', async () => {
    const probes = (await buildAssets()).filter((f) => f.name.startsWith('probes/'))
    // One bundle per tool page, and the run page's (every tool's plan).
    expect(probes.map((f) => f.name).sort()).toEqual([...TOOL_IDS, 'run'].map((t) => `probes/${t}.js`).sort())
    // TypeBox brands every schema with Symbol.for('TypeBox.Kind'); a bundle that has it imported a
    // value from a schema module (common/signals/*) and grew by ~11 KB gzip.
    for (const f of probes) expect(new TextDecoder().decode(f.body).includes('TypeBox.Kind'), `${f.name} bundles TypeBox`).toBe(false)
  })
})
