// Key directories served over HTTPS by the test itself (issue 60), with a certificate for
// 127.0.0.1 and localhost signed by a CA of the test's own (tests/support/trusted-ca.ts, put in
// no store: the fetcher is given it as NODE_EXTRA_CA_CERTS would). `routes` maps a path to what
// it answers; every request is counted by path.

import { readFileSync } from 'node:fs'
import { DIRECTORY_MEDIA_TYPE } from '../../src/agents/directory-fetch'
import { makeTrustedCa } from './trusted-ca'

export interface DirectoryServer {
  origin: string
  /** The CA's PEM, to trust. */
  ca: string
  caFile: string
  hits: Map<string, number>
  routes: Map<string, (req: Request) => Response | Promise<Response>>
  stop(): void
}

/** A directory response as the draft has it: a JWK Set, the draft's media type. */
export function directoryResponse(keys: unknown[], headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ keys }), { headers: { 'content-type': DIRECTORY_MEDIA_TYPE, ...headers } })
}

export function startDirectoryServer(): DirectoryServer {
  const ca = makeTrustedCa({ engines: [] })
  const hits = new Map<string, number>()
  const routes = new Map<string, (req: Request) => Response | Promise<Response>>()
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    tls: { cert: readFileSync(ca.certFile, 'utf8'), key: readFileSync(ca.keyFile, 'utf8') },
    fetch(req) {
      const path = new URL(req.url).pathname
      hits.set(path, (hits.get(path) ?? 0) + 1)
      const route = routes.get(path)
      return route ? route(req) : new Response('not found', { status: 404 })
    },
  })
  return {
    origin: `https://127.0.0.1:${server.port}`,
    ca: readFileSync(ca.caFile, 'utf8'),
    caFile: ca.caFile,
    hits,
    routes,
    stop() {
      server.stop(true)
      ca.uninstall()
    },
  }
}
