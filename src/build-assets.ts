// Builds the asset files at start-up: the pinned htmx from node_modules, the stylesheet, and
// one minified bundle per probe entry in probes/entries (Bun.build). Called by src/main.ts and
// by tests; never at import time. Every tool of common/tools.ts must have its entry
// (probes/entries/<tool>.ts) and it must build: otherwise this throws, naming the tool, and the
// service does not start (a tool page without its probe would be an empty page).

import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { TOOL_IDS } from '../common/tools'
import { probeAsset, type AssetFile } from './http/assets'

const root = (p: string) => fileURLToPath(new URL(`../${p}`, import.meta.url))

/**
 * The probe entry files (one per tool page, the run page's, and any shared worker) in `dir`; throws naming the
 * first tool without one.
 */
export function probeEntries(dir: string): string[] {
  for (const tool of TOOL_IDS) {
    if (!existsSync(join(dir, `${tool}.ts`))) throw new Error(`Cannot start: tool '${tool}' has no probe bundle: ${join(dir, `${tool}.ts`)} does not exist`)
  }
  return readdirSync(dir)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .map((f) => join(dir, f))
}

async function buildProbes(dir: string): Promise<AssetFile[]> {
  const entries = probeEntries(dir)
  const result = await Bun.build({ entrypoints: entries, target: 'browser', format: 'esm', minify: true, splitting: false, sourcemap: 'none', throw: false })
  if (!result.success) {
    // Name the tools whose entry the errors point at (an error in a shared module names that file).
    const files = [...new Set(result.logs.map((l) => l.position?.file).filter((f): f is string => !!f))]
    const tools = TOOL_IDS.filter((t) => files.some((f) => f.endsWith(`/${t}.ts`)))
    const which = tools.length ? `of tool ${tools.map((t) => `'${t}'`).join(', ')} ` : ''
    throw new Error(`Cannot start: the probe bundle ${which}does not build:\n${result.logs.map(String).join('\n')}`)
  }
  const files: AssetFile[] = []
  for (const out of result.outputs) {
    const name = out.path.split('/').pop()!
    files.push({ name: `probes/${name}`, body: new Uint8Array(await out.arrayBuffer()), contentType: 'text/javascript; charset=utf-8' })
  }
  for (const tool of TOOL_IDS) {
    if (!files.some((f) => f.name === probeAsset(tool))) throw new Error(`Cannot start: tool '${tool}' has no probe bundle: building ${dir} gave no ${tool}.js`)
  }
  return files
}

/** `probesDir` is for tests; the service builds probes/entries. */
export async function buildAssets(opts: { probesDir?: string } = {}): Promise<AssetFile[]> {
  const files: AssetFile[] = [
    { name: 'htmx.js', body: await Bun.file(root('node_modules/htmx.org/dist/htmx.min.js')).bytes(), contentType: 'text/javascript; charset=utf-8' },
    { name: 'app.css', body: await Bun.file(root('src/pages/assets/app.css')).bytes(), contentType: 'text/css; charset=utf-8' },
    ...(await buildProbes(opts.probesDir ?? root('probes/entries'))),
  ]
  for (const f of readdirSync(root('src/pages/assets'))) {
    if (f === 'app.css') continue
    const type = f.endsWith('.js') ? 'text/javascript; charset=utf-8' : f.endsWith('.svg') ? 'image/svg+xml' : f.endsWith('.css') ? 'text/css; charset=utf-8' : 'application/octet-stream'
    files.push({ name: f, body: await Bun.file(root(`src/pages/assets/${f}`)).bytes(), contentType: type })
  }
  return files
}
