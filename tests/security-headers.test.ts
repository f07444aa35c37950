// Every HTML page carries a Content-Security-Policy (scripts only from this origin, no framing),
// X-Frame-Options, X-Content-Type-Options and a Referrer-Policy, through app.handle: the index,
// the docs, each of the 14 tool pages, the 404 page, sign-up, log-in, the dashboard, a dashboard
// fragment and a tool's report fragment. The one page any site may frame, /probe/frame, is
// checked for the opposite. The pages hold no inline script and no event-handler attribute, so
// the policy costs them nothing; tests/csp.e2e.ts runs them in Chromium and collects violations.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { TOOL_IDS } from '../common/tools'
import { buildTestApp } from './support/app'
import { openTestDatabase, testDrivers, type TestDatabase } from './support/db'
import { WebClient } from './support/web-client'
import { uniqueEmail } from './support/unique'

const BASE = 'http://localhost:3000'
// Opening (and dropping) a test database takes what it takes on a loaded machine: no clock of its
// own (0), so a busy machine never fails a suite before its first test (issue 57).
const HOOK_TIMEOUT_MS = 0

/** The policy as a map from directive to its sources. */
function directives(csp: string | null): Map<string, string[]> {
  const out = new Map<string, string[]>()
  for (const part of (csp ?? '').split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/)
    if (name) out.set(name.toLowerCase(), sources)
  }
  return out
}

/** The headers every HTML page that may not be framed must carry. */
function expectPageHeaders(what: string, res: Response) {
  const h = (n: string) => res.headers.get(n)
  expect({ what, type: h('content-type') }).toEqual({ what, type: expect.stringMatching(/^text\/html/) })
  const csp = directives(h('content-security-policy'))
  expect({ what, script: csp.get('script-src') }).toEqual({ what, script: ["'self'"] })
  expect({ what, ancestors: csp.get('frame-ancestors') }).toEqual({ what, ancestors: ["'none'"] })
  expect({ what, objects: csp.get('object-src'), base: csp.get('base-uri'), def: csp.get('default-src') }).toEqual({ what, objects: ["'none'"], base: ["'none'"], def: ["'self'"] })
  // Nothing that would let a script in: no 'unsafe-inline' or 'unsafe-eval' for scripts, no wildcards.
  for (const [name, sources] of csp) {
    if (name === 'style-src') continue
    expect({ what, name, sources }).toEqual({ what, name, sources: expect.not.arrayContaining(["'unsafe-inline'", "'unsafe-eval'", '*', 'https:', 'http:']) })
  }
  expect({ what, xfo: h('x-frame-options'), nosniff: h('x-content-type-options'), referrer: h('referrer-policy') }).toEqual({
    what,
    xfo: 'DENY',
    nosniff: 'nosniff',
    referrer: expect.stringMatching(/^(same-origin|strict-origin-when-cross-origin|no-referrer)$/),
  })
}

/** What a strict script-src would block in the markup itself. */
async function expectNoInlineScript(what: string, res: Response) {
  const html = await res.clone().text()
  const inline = [...html.matchAll(/<script\b[^>]*>/gi)].map((m) => m[0]).filter((tag) => !/\ssrc=/.test(tag))
  const handlers = [...html.matchAll(/<[a-z][^>]*\s(on[a-z]+)\s*=/gi)].map((m) => m[1])
  const jsUrls = [...html.matchAll(/(href|src|action)\s*=\s*["']?\s*javascript:/gi)].map((m) => m[0])
  expect({ what, inline, handlers, jsUrls }).toEqual({ what, inline: [], handlers: [], jsUrls: [] })
}

for (const driver of testDrivers()) {
  describe(`security headers of every HTML page (${driver})`, () => {
    let database: TestDatabase
    let app: Awaited<ReturnType<typeof buildTestApp>>['app']
    beforeAll(async () => {
      database = await openTestDatabase(driver)
      ;({ app } = await buildTestApp(database.db, { evidence: { tlsPort: 8443, dnsZone: 'leak.example.net' } }))
    }, HOOK_TIMEOUT_MS)
    afterAll(() => database?.destroy())

    const get = (path: string, init?: RequestInit) => app.handle(new Request(`${BASE}${path}`, init))

    test('the index, the docs, the 404 page, sign-up and log-in', async () => {
      for (const [path, status] of [['/', 200], ['/docs', 200], ['/tools/no-such-tool', 404], ['/signup', 200], ['/login', 200]] as const) {
        const res = await get(path)
        expect({ path, status: res.status }).toEqual({ path, status })
        expectPageHeaders(path, res)
        await expectNoInlineScript(path, res)
        expect(res.headers.get('content-security-policy')).not.toContain('blob:')
      }
    })

    test('each of the 14 tool pages, with the sources its probes need and nothing more', async () => {
      expect(TOOL_IDS).toHaveLength(14)
      for (const tool of TOOL_IDS) {
        const path = `/tools/${tool}`
        const res = await get(path)
        expect({ path, status: res.status }).toEqual({ path, status: 200 })
        expectPageHeaders(path, res)
        await expectNoInlineScript(path, res)
        const csp = directives(res.headers.get('content-security-policy'))
        expect(csp.get('worker-src')).toEqual(["'self'", 'blob:'])
        // /probe/frame by name: Firefox matches 'self' in the data: frame against its opaque origin.
        expect(csp.get('frame-src')).toEqual(["'self'", 'data:', 'https://*:*/probe/frame', 'http://*:*/probe/frame'])
        // The TLS listener on its port, the DNS zone's names, and (the page is on localhost) the
        // page's own port on 127.0.0.1 and [::1].
        expect(csp.get('connect-src')).toEqual(["'self'", 'https://*:8443', 'https://*.leak.example.net', 'http://*:3000'])
        expect(csp.get('img-src')).toEqual(["'self'", 'data:', 'https://*.leak.example.net'])
        expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin')
      }
    })

    test('a tool page served under a public host name allows no other host on its port', async () => {
      const res = await app.handle(new Request('https://antibot.example.com/tools/ip-leak'))
      expectPageHeaders('public ip-leak', res)
      expect(directives(res.headers.get('content-security-policy')).get('connect-src')).toEqual(["'self'", 'https://*:8443', 'https://*.leak.example.net'])
    })

    test('a tool page without listeners names none', async () => {
      const bare = (await buildTestApp(database.db)).app
      const res = await bare.handle(new Request('https://antibot.example.com/tools/dns-leak'))
      expectPageHeaders('bare dns-leak', res)
      const csp = directives(res.headers.get('content-security-policy'))
      expect(csp.get('connect-src')).toEqual(["'self'"])
      expect(csp.get('img-src')).toEqual(["'self'", 'data:'])
    })

    test('the dashboard, its fragments, and a tool report fragment', async () => {
      const web = new WebClient(app, BASE)
      await web.signUp(uniqueEmail('headers'))
      const dashboard = await web.get('/dashboard')
      expect(dashboard.status).toBe(200)
      expectPageHeaders('/dashboard', dashboard)
      await expectNoInlineScript('/dashboard', dashboard)
      const fragment = await web.post('/dashboard/keys', { name: 'ci', plan: 'free' }, { htmx: true })
      expect(fragment.headers.get('content-type')).toStartWith('text/html')
      expectPageHeaders('key fragment', fragment)
      await expectNoInlineScript('key fragment', fragment)

      const report = await get('/tools/http-headers/report', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ tool: 'http-headers', results: {} }) })
      expect(report.status).toBe(200)
      expectPageHeaders('report fragment', report)
      await expectNoInlineScript('report fragment', report)
    })

    test('/probe/frame may be framed by any site, and still runs nothing and is not sniffed', async () => {
      const res = await get('/probe/frame')
      expect(res.status).toBe(200)
      expect(res.headers.get('x-frame-options')).toBeNull()
      const csp = directives(res.headers.get('content-security-policy'))
      expect(csp.has('frame-ancestors')).toBe(false)
      expect(csp.get('default-src')).toEqual(["'none'"])
      expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    })

    test('every other response is not sniffed either: JSON, assets, errors', async () => {
      const html = await (await get('/tools/bot-detector')).text()
      const script = /<script type="module" src="([^"]+)"/.exec(html)![1]!
      for (const path of ['/healthz', '/openapi.json', '/.well-known/jwks.json', '/api/antibot/tasks/x', '/no/such/route', script]) {
        const res = await get(path)
        expect({ path, nosniff: res.headers.get('x-content-type-options') }).toEqual({ path, nosniff: 'nosniff' })
      }
    })
  })
}
