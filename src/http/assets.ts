// Static assets (htmx, CSS, compiled probe bundles) served from memory under content-hashed
// URLs with a year-long immutable cache. The store is built once at start-up (src/build-assets.ts)
// and handed to createApp; nothing here reads files.

import { createHash } from 'node:crypto'
import { Elysia } from 'elysia'

export interface AssetFile {
  /** Logical name, e.g. `htmx.js` or `probes/bot-detector.js`. */
  name: string
  body: Uint8Array<ArrayBuffer>
  contentType: string
}

/** The asset name of a tool's probe bundle (built from probes/entries/<tool>.ts). */
export const probeAsset = (tool: string) => `probes/${tool}.js`

export interface AssetStore {
  /** The hashed URL of a logical name; throws for an unknown name (a bug, not a user error). */
  url(name: string): string
  get(path: string): { body: Uint8Array<ArrayBuffer>; gzip: Uint8Array<ArrayBuffer>; contentType: string; etag: string } | undefined
  /** Logical names with their byte and gzip sizes (for budgets and benchmarks). */
  sizes(): Array<{ name: string; bytes: number; gzipBytes: number }>
}

export function createAssetStore(files: readonly AssetFile[]): AssetStore {
  const byName = new Map<string, string>()
  const byPath = new Map<string, { name: string; body: Uint8Array<ArrayBuffer>; gzip: Uint8Array<ArrayBuffer>; contentType: string; etag: string }>()
  for (const f of files) {
    const hash = createHash('sha256').update(f.body).digest('hex').slice(0, 12)
    const dot = f.name.lastIndexOf('.')
    const path = `/assets/${f.name.slice(0, dot)}.${hash}${f.name.slice(dot)}`
    byName.set(f.name, path)
    byPath.set(path, { name: f.name, body: f.body, gzip: Bun.gzipSync(f.body, { level: 9 }), contentType: f.contentType, etag: `"${hash}"` })
  }
  return {
    url(name) {
      const u = byName.get(name)
      if (!u) throw new Error(`Unknown asset '${name}'`)
      return u
    },
    get: (path) => byPath.get(path),
    sizes: () => [...byPath.values()].map((a) => ({ name: a.name, bytes: a.body.byteLength, gzipBytes: a.gzip.byteLength })),
  }
}

export function assetsRoutes(store: AssetStore) {
  return new Elysia({ name: 'assets' }).get('/assets/*', ({ request }) => {
    const path = new URL(request.url).pathname
    const asset = store.get(path)
    if (!asset) return new Response(JSON.stringify({ error: `Not found: no asset at ${path}` }), { status: 404, headers: { 'content-type': 'application/json; charset=utf-8' } })
    const headers: Record<string, string> = {
      'content-type': asset.contentType,
      'cache-control': 'public, max-age=31536000, immutable',
      etag: asset.etag,
      vary: 'accept-encoding',
    }
    if (request.headers.get('if-none-match') === asset.etag) return new Response(null, { status: 304, headers })
    const gzip = /\bgzip\b/.test(request.headers.get('accept-encoding') ?? '')
    if (gzip) headers['content-encoding'] = 'gzip'
    return new Response(gzip ? asset.gzip : asset.body, { headers })
  })
}
