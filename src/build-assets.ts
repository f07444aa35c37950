// Builds the asset files at start-up: the pinned htmx from node_modules, the stylesheet, and
// one minified bundle per probe entry in probes/ (Bun.build). Called by src/main.ts and by
// tests; never at import time.

import { readdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { AssetFile } from './http/assets'

const root = (p: string) => fileURLToPath(new URL(`../${p}`, import.meta.url))

/** Probe entry points: probes/entries/<name>.ts, one per tool page (and shared workers). */
export function probeEntries(): string[] {
  try {
    return readdirSync(root('probes/entries')).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
  } catch {
    return []
  }
}

export async function buildAssets(): Promise<AssetFile[]> {
  const files: AssetFile[] = [
    { name: 'htmx.js', body: await Bun.file(root('node_modules/htmx.org/dist/htmx.min.js')).bytes(), contentType: 'text/javascript; charset=utf-8' },
    { name: 'app.css', body: await Bun.file(root('src/pages/assets/app.css')).bytes(), contentType: 'text/css; charset=utf-8' },
  ]
  const entries = probeEntries()
  if (entries.length) {
    const result = await Bun.build({
      entrypoints: entries.map((e) => root(`probes/entries/${e}`)),
      target: 'browser',
      format: 'esm',
      minify: true,
      splitting: false,
      sourcemap: 'none',
    })
    if (!result.success) throw new Error(`Probe build failed:\n${result.logs.map(String).join('\n')}`)
    for (const out of result.outputs) {
      const name = out.path.split('/').pop()!
      files.push({ name: `probes/${name}`, body: new Uint8Array(await out.arrayBuffer()), contentType: 'text/javascript; charset=utf-8' })
    }
  }
  for (const f of readdirSync(root('src/pages/assets'))) {
    if (f === 'app.css') continue
    const type = f.endsWith('.js') ? 'text/javascript; charset=utf-8' : f.endsWith('.svg') ? 'image/svg+xml' : f.endsWith('.css') ? 'text/css; charset=utf-8' : 'application/octet-stream'
    files.push({ name: f, body: await Bun.file(root(`src/pages/assets/${f}`)).bytes(), contentType: type })
  }
  return files
}
