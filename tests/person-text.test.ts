// What the pages show a person carries none of the service's internals (issue 58): no setting
// name (TLS_PORT, DNS_ZONE…), source path, issue number, raw null, raw JSON or internal field
// name. Scanned here over every tool's report as the server renders it — for a client that sent
// nothing (most checks not applicable, their texts naming the listeners they need), for a
// person's Chrome and for Playwright's headless Chromium on bot-detector, for dns-leak without
// a DNS zone, for tls-fingerprint over plain HTTP — and over the home and run pages. The run
// page's own scan, in a browser over every report at once, is in tests/run.e2e.ts.

import { describe, expect, test } from 'bun:test'
import { TOOL_IDS, type ToolId } from '../common/tools'
import { assembleResults } from '../src/core/tools/assemble'
import type { ServerObservation } from '../src/core/tools/observation'
import { humanChrome, judge, playwrightHeadless, SPEC_EXAMPLE_RESULTS } from '../src/core/tools/bot-detector.fixture'
import { server as dnsServer, today as dnsToday } from '../src/core/tools/dns-leak.fixture'
import { INTERNAL_PATTERNS, plainText, plainValue, plainWords } from '../src/pages/plain-words'
import { ReportFragment, type ReportResults } from '../src/pages/report'
import { IndexPage } from '../src/pages/tools'
import { RunPage } from '../src/pages/run'
import type { AssetStore } from '../src/http/assets'

const CURL = 'curl/7.88.1'
const curl = (): ServerObservation => ({ ip: '127.0.0.1', userAgent: CURL, headers: [['accept', '*/*'], ['host', '127.0.0.1:3000'], ['user-agent', CURL]], receivedAt: Date.UTC(2026, 10, 21), nonce: 'missing' })
const assets = { url: (name: string) => `/assets/${name}` } as unknown as AssetStore

/** The text a person reads: tags, and the check's id line (`webdriver-flag · client`), left out; entities decoded. */
export function personText(html: string): string {
  return html
    .replace(/<script[\s\S]*?<\/script>/g, ' ')
    .replace(/<div class="muted check-id">[\s\S]*?<\/div>/g, ' ')
    .replace(/<wbr>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
}

/** Each internal pattern found in `text`, with a little context. */
export function internals(text: string): string[] {
  const out: string[] = []
  for (const [what, re] of INTERNAL_PATTERNS) {
    for (const m of text.matchAll(new RegExp(re.source, `${re.flags.replace('g', '')}g`))) out.push(`${what}: …${text.slice(Math.max(0, m.index! - 50), m.index! + m[0].length + 30)}…`)
  }
  return out
}

async function reportText(tool: ToolId, results: Record<string, unknown>): Promise<string> {
  return personText(String(await ReportFragment({ tool, results: results as unknown as ReportResults })))
}

describe('plain words', () => {
  test('a parenthesis naming only a setting, a file or an issue goes; a setting inside a sentence says what it is', () => {
    expect(plainWords("needs the service's HTTPS listener (TLS_PORT, on by default), which parses the ClientHello")).toBe("needs the service's HTTPS listener, which parses the ClientHello")
    expect(plainWords('a DNS zone served by the service (DNS_ZONE): without one')).toBe('a DNS zone served by the service: without one')
    expect(plainWords('clusters by engine (Blink ≈ 124.04, WebKit ≈ 35.11; table in src/checks/audio-sums.ts). A sum')).toBe('clusters by engine (Blink ≈ 124.04, WebKit ≈ 35.11). A sum')
    expect(plainWords('removes them for people too (issue 10).')).toBe('removes them for people too.')
    expect(plainWords("the service's HTTPS listener is off (TLS_PORT=off)")).toBe("the service's HTTPS listener is off")
    expect(plainWords('means TLS_PORT is reached through a forwarder')).toBe("means the service's HTTPS listener is reached through a forwarder")
    expect(plainWords('self-signed unless TLS_CERT_FILE and TLS_KEY_FILE are set')).toBe('self-signed unless its operator gave it a certificate')
  })
  test('a cipher suite or a value in parentheses is left alone', () => {
    expect(plainWords('offers TLS_AES_128_GCM_SHA256 (TLS_CHACHA20_POLY1305_SHA256) first')).toBe('offers TLS_AES_128_GCM_SHA256 (TLS_CHACHA20_POLY1305_SHA256) first')
    expect(plainWords('Chrome 131 (Windows)')).toBe('Chrome 131 (Windows)')
  })
  test('an observed value is text: none for null, items for a list, name: value pairs for an object', () => {
    expect(plainValue(null)).toBe('none')
    expect(plainValue(['a', 'b'])).toBe('a, b')
    expect(plainValue({ webdriver: true, worker: null, list: [1, 2], o: { a: 1 } })).toBe('webdriver: true; worker: none; list: [1, 2]; o: (a: 1)')
    expect(plainValue('x'.repeat(500))).toHaveLength(401)
  })
})

describe('no internals in what a person reads', () => {
  test('the stored texts do name them (what the API serves is unchanged), so the scan has something to find', () => {
    const r = assembleResults('tls-fingerprint', {}, curl())
    if (!r.ok) throw new Error(r.error)
    const raw = JSON.stringify(r.results.checks)
    expect(internals(raw).some((m) => m.startsWith('a setting name'))).toBe(true)
  })
  for (const tool of TOOL_IDS) {
    test(`${tool}: the report for a client that sent nothing`, async () => {
      const r = assembleResults(tool, tool === 'bot-detector' ? { signals: humanChrome() } : {}, curl())
      if (!r.ok) throw new Error(r.error)
      expect(internals(await reportText(tool, r.results))).toEqual([])
    })
  }
  test("bot-detector: a person's Chrome, Playwright's headless Chromium, and a body of the spec's shape", async () => {
    expect(internals(await reportText('bot-detector', judge(humanChrome()).stored))).toEqual([])
    const headless = playwrightHeadless()
    expect(internals(await reportText('bot-detector', judge(headless.signals, headless.server).stored))).toEqual([])
    const spec = assembleResults('bot-detector', SPEC_EXAMPLE_RESULTS, curl())
    if (!spec.ok) throw new Error(spec.error)
    expect(internals(await reportText('bot-detector', spec.results))).toEqual([])
  })
  test('dns-leak without a DNS zone: not tested, said in plain words, the operator named once with a link', async () => {
    const r = assembleResults('dns-leak', { signals: dnsToday }, dnsServer('81.2.69.160'))
    if (!r.ok) throw new Error(r.error)
    const html = String(await ReportFragment({ tool: 'dns-leak', results: r.results as unknown as ReportResults }))
    expect(internals(personText(html))).toEqual([])
    expect(personText(html)).toContain('Not tested')
    expect(html.match(/href="\/docs#operations"/g)).toHaveLength(1)
  })
  test('tls-fingerprint over plain HTTP: one click to the HTTPS address, and what the certificate warning means', async () => {
    const r = assembleResults('tls-fingerprint', {}, curl())
    if (!r.ok) throw new Error(r.error)
    const untested = { reason: 'the page could not open its connection to the HTTPS listener on port 3443', url: 'https://127.0.0.1:3443/tools/tls-fingerprint' }
    const html = String(await ReportFragment({ tool: 'tls-fingerprint', results: { ...(r.results as unknown as ReportResults), tested: false, untested } }))
    expect(html).toContain('<a class="button-primary" href="https://127.0.0.1:3443/tools/tls-fingerprint">Run it over HTTPS</a>')
    expect(personText(html)).toContain('This instance uses a certificate it made for itself')
    expect(internals(personText(html))).toEqual([])
  })
  test('the home page and the run page, with dns-leak not available', async () => {
    const unavailable = new Map<ToolId, string>([['dns-leak', 'it needs a DNS zone of its own, which is not set up here']])
    const home = personText(String(await IndexPage({ assets, unavailable })))
    expect(internals(home)).toEqual([])
    expect(home).toContain('Not available on this instance')
    const pages = TOOL_IDS.map((tool) => ({ tool, nonce: 'n', turnSecret: 't' }))
    const run = String(await RunPage({ assets, script: '/assets/run.js', runId: 'r', pages, pageData: {}, unavailable }))
    expect(internals(personText(run))).toEqual([])
    // The run's address is shown as text, not swallowed as an element.
    expect(run).toContain('<code>GET /api/antibot/runs/&lt;id&gt;</code>')
  })
})

test('a value turned into JSON text reads as text, whole or cut short; a lone null is none', () => {
  expect(plainText('[{"tag":"en-US","q":1}]')).toBe('(tag: en-US; q: 1)')
  expect(plainText('{"caption":"Arial","icon":"Arial","menu":"Ari…')).toBe('(caption: Arial, icon: Arial, menu: Ari…')
  expect(plainText('DNT header absent; navigator.doNotTrack null')).toBe('DNT header absent; navigator.doNotTrack none')
  expect(plainText('nullable-thing')).toBe('nullable-thing')
})
