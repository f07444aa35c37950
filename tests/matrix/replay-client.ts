// The browserless class (issue 46, widened by issue 56): no browser drives the page. A real
// person's browser runs bot-detector once (recorded at run time, so the recording always matches
// the current code: its submitted signals and headers as the service kept them, and its requests'
// header order off the wire); then an HTTP client that impersonates a browser's network stack
// replays that visit under a fresh nonce, as scraper authors do with curl-impersonate, wreq,
// tls-client or curl_cffi:
// - the page, twice on one connection as Chromium does for Critical-CH (first without the
//   critical hints, then with every hint), each with the person's headers in Chromium's order;
// - the page's /evidence/<nonce> on a connection of its own, as Chromium keeps uncredentialed fetches;
// - the person's recorded submission under the fresh page's nonce, the nonce inside it too
//   (signals.tlsEvidence), with the person's headers in Chromium's fetch order.
// The variants:
// - `replay`, `replay-firefox` (issue 46): recorded on the target itself, claiming what the
//   person's browser said (Chromium 156, Firefox 153), through wreq-js (Rust wreq on BoringSSL;
//   its newest profiles chrome_149 and firefox_151; the native part ships inside the package).
// - `replay-other-149` (issue 56): recorded on a second instance of the service (its own data
//   directory and database, as the scraper author's own copy of this open-source service), so the
//   target has never seen the recording; replayed through wreq's chrome_149 claiming Chromium 149,
//   the version that profile copies: User-Agent, Sec-CH-UA* and every version string of the body
//   rewritten, the brand lists made as Chromium makes them for 149 (./claim.ts).
// - `impit-other-151` (issue 56): the same recording through a second library, Apify's impit
//   (Rust, reqwest on a patched rustls; a prebuilt napi binary in an optional dependency, nothing
//   downloaded at install) with its newest Chrome profile, chrome151, claiming Chromium 151: a
//   hello without the BoringSSL family's invariants.
// - `proxy-replay-149` (issue 56): `replay-other-149` sent through the matrices' TLS-inspecting
//   proxy (tests/support/intercepting-proxy.ts), so the service sees on the wire exactly what it
//   sees of a person behind that proxy (Node's OpenSSL), without the page's proof.

import { Impit } from 'impit'
import { createSession, fetch as wreqFetch } from 'wreq-js'
import { startInterceptingProxy } from '../support/intercepting-proxy'
import { startServer } from '../support/server'
import { uniqueEmail } from '../support/unique'
import { type ChromiumVersion, claimChromium, recordedChromium } from './claim'
import type { Client } from './clients'
import { PEOPLE, type PersonContext } from './person'

/** wreq's newest Chrome and Firefox profiles in the version the project pins (wreq-js 3.1.0). */
export const REPLAY_PROFILES = { chromium: 'chrome_149', firefox: 'firefox_151' } as const
/** impit's newest Chrome profile in the version the project pins (impit 0.14.5). */
export const IMPIT_PROFILE = 'chrome151' as const
/** The versions those Chrome profiles copy, as a replayer claims them (full versions of that major's stable line). */
export const PROFILE_CHROMIUM = {
  chrome_149: { major: 149, full: '149.0.7695.80' },
  chrome151: { major: 151, full: '151.0.7803.62' },
} as const satisfies Record<string, ChromiumVersion>

export interface RecordedTask {
  results: {
    signals: Record<string, unknown>
    server?: { headers?: Array<[string, string]>; evidence?: Array<{ kind: string; data: { header_order?: string[]; path?: string } }> }
  }
}

/** Where the replayed visit was recorded: on the target itself, or on another instance of the service. */
export type RecordedOn = 'target' | 'other-instance'

async function fetchTask(baseUrl: string, adminToken: string, id: string): Promise<RecordedTask> {
  const made = await fetch(`${baseUrl}/api/admin/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ email: uniqueEmail('replay'), plan: 'pro' }),
  })
  if (made.status !== 201) throw new Error(`Cannot make a key for the recording: ${made.status}`)
  const { key } = (await made.json()) as { key: string }
  const res = await fetch(`${baseUrl}/api/antibot/tasks/${id}`, { headers: { authorization: `Bearer ${key}` } })
  if (res.status !== 200) throw new Error(`Cannot read the recording: its task answered ${res.status}`)
  return (await res.json()) as RecordedTask
}

/**
 * The person's bot-detector run, as the service kept it: on the target (ctx's server), or on a
 * second instance started for it the way the matrix starts its servers (ctx.serverEnv: the same
 * certificate) with a data directory and database of its own, over the same transport.
 */
export async function recordVisit(ctx: PersonContext, person: string, on: RecordedOn): Promise<RecordedTask> {
  if (on === 'target') return fetchTask(ctx.baseUrl, ctx.adminToken, await PEOPLE[person]!.run(ctx))
  const other = await startServer(ctx.serverEnv ?? {})
  try {
    const https = ctx.pageUrl.startsWith('https:')
    if (https && !other.tlsUrl) throw new Error('Cannot record on a second instance: it has no HTTPS listener')
    const origin = https ? `https://localhost:${new URL(other.tlsUrl!).port}` : other.baseUrl
    const there: PersonContext = { ...ctx, pageUrl: `${origin}/tools/bot-detector`, pageOrigin: origin, baseUrl: other.baseUrl, adminToken: other.adminToken }
    return await fetchTask(other.baseUrl, other.adminToken, await PEOPLE[person]!.run(there))
  } finally {
    await other.stop()
  }
}

/** Headers in `order` (names), each with the recorded value or a constant, those without a value left out. */
export function ordered(order: readonly string[], values: Record<string, string>): Array<[string, string]> {
  return order.flatMap((name) => (values[name] !== undefined ? [[name, values[name]!] as [string, string]] : []))
}

/** Each engine's own header order for a navigation, its side fetch and a fetch() POST (src/evidence/fixtures/navigations.json). */
export const ORDERS = {
  chromium: {
    navigation: ['sec-ch-ua', 'sec-ch-ua-mobile', 'sec-ch-ua-platform', 'upgrade-insecure-requests', 'user-agent', 'accept', 'sec-fetch-site', 'sec-fetch-mode', 'sec-fetch-user', 'sec-fetch-dest', 'accept-encoding', 'accept-language', 'priority'],
    side: ['pragma', 'cache-control', 'sec-ch-ua-full-version-list', 'sec-ch-ua-platform', 'viewport-width', 'device-memory', 'sec-ch-ua', 'sec-ch-dpr', 'sec-ch-ua-model', 'sec-ch-ua-mobile', 'sec-ch-ua-bitness', 'sec-ch-ua-wow64', 'sec-ch-ua-arch', 'sec-ch-viewport-width', 'sec-ch-viewport-height', 'sec-ch-device-memory', 'sec-ch-prefers-reduced-motion', 'dpr', 'sec-ch-prefers-color-scheme', 'user-agent', 'sec-ch-ua-platform-version', 'accept', 'sec-fetch-site', 'sec-fetch-mode', 'sec-fetch-dest', 'referer', 'accept-encoding', 'accept-language', 'priority'],
    post: ['sec-ch-ua-platform', 'user-agent', 'sec-ch-ua', 'content-type', 'sec-ch-ua-mobile', 'accept', 'origin', 'sec-fetch-site', 'sec-fetch-mode', 'sec-fetch-dest', 'referer', 'accept-encoding', 'accept-language', 'priority'],
    accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7',
    encoding: 'gzip, deflate, br, zstd',
  },
  firefox: {
    navigation: ['user-agent', 'accept', 'accept-language', 'accept-encoding', 'upgrade-insecure-requests', 'sec-fetch-dest', 'sec-fetch-mode', 'sec-fetch-site', 'sec-fetch-user', 'priority', 'te'],
    side: ['user-agent', 'accept', 'accept-language', 'accept-encoding', 'referer', 'sec-fetch-dest', 'sec-fetch-mode', 'sec-fetch-site', 'priority', 'pragma', 'cache-control', 'te'],
    post: ['user-agent', 'accept', 'accept-language', 'accept-encoding', 'referer', 'content-type', 'origin', 'sec-fetch-dest', 'sec-fetch-mode', 'sec-fetch-site', 'priority', 'te'],
    accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
    encoding: 'gzip, deflate, br, zstd',
  },
} as const

/** What a replayer's HTTP client does: the page's connection (navigations, then the POST), and an uncredentialed fetch on a connection of its own. */
export interface ReplayHttp {
  request(url: string, init: { method?: 'GET' | 'POST'; headers: Array<[string, string]>; body?: string }): Promise<{ status: number; text(): Promise<string> }>
  side(url: string, headers: Array<[string, string]>): Promise<{ status: number; text(): Promise<string> }>
  close(): Promise<void>
}

/** wreq-js with one of its profiles: our headers in our order and nothing else (disableDefaultHeaders). */
export async function wreqHttp(profile: string, proxy?: string): Promise<ReplayHttp> {
  const os = 'linux'
  const via = proxy ? { proxy } : {}
  const session = await createSession({ browser: profile as never, os, insecure: true, ...via })
  return {
    request: (url, init) => wreqFetch(url, { session, method: init.method ?? 'GET', headers: init.headers, body: init.body, disableDefaultHeaders: true, timeout: 20_000 }),
    side: (url, headers) => wreqFetch(url, { browser: profile as never, os, insecure: true, ...via, headers, disableDefaultHeaders: true, timeout: 20_000 }),
    close: () => session.close(),
  }
}

/**
 * impit with one of its profiles. It adds the headers of its profile where ours do not name
 * them and keeps its own order (no option turns that off): what a scraper using it sends.
 */
export function impitHttp(browser: typeof IMPIT_PROFILE): ReplayHttp {
  const page = new Impit({ browser, ignoreTlsErrors: true, http3: false, followRedirects: false, timeout: 20_000 })
  return {
    request: (url, init) => page.fetch(url, { method: init.method ?? 'GET', headers: init.headers, body: init.body }),
    // A second instance: a connection pool, so a connection, of its own.
    side: (url, headers) => new Impit({ browser, ignoreTlsErrors: true, http3: false, timeout: 20_000 }).fetch(url, { headers }),
    close: async () => {},
  }
}

/** The nonce and TLS port a tool page rendered, or why it has none. */
export function pageParams(status: number, html: string): { nonce: string; tlsPort: number } {
  const nonce = /data-nonce="([a-z2-7]{26})"/.exec(html)?.[1]
  const tlsPort = Number(/data-tls-port="(\d+)"/.exec(html)?.[1])
  if (status !== 200 || !nonce || !tlsPort) throw new Error(`the page answered ${status} without a nonce and the TLS port`)
  return { nonce, tlsPort }
}

interface ReplayOptions {
  id: string
  engine: 'chromium' | 'firefox'
  /** The person whose visit is recorded (person.ts). */
  person: string
  recordedOn: RecordedOn
  http: () => Promise<ReplayHttp>
  /** The HTTP client and its profile, as the row names it. */
  client: string
  /** The Chromium version claimed, every version string rewritten to it; none: what the person's browser said. */
  claim?: ChromiumVersion
  /** Through the matrices' TLS-inspecting proxy: the service sees the proxy's TLS. */
  viaProxy?: boolean
}

/** The recorded headers (lower-case names) and signals, made to claim `claim` when given. */
export function claimed(recording: RecordedTask, claim: ChromiumVersion | undefined): { sent: Record<string, string>; signals: Record<string, unknown> } {
  const sent = Object.fromEntries((recording.results.server?.headers ?? []).map(([k, v]) => [k.toLowerCase(), v]))
  const signals = structuredClone(recording.results.signals)
  if (!claim) return { sent, signals }
  const from = recordedChromium(sent['user-agent'] ?? '', sent['sec-ch-ua-full-version-list'])
  return { sent: claimChromium(sent, from, claim), signals: claimChromium(signals, from, claim) }
}

/**
 * A person's recorded bot-detector visit replayed by an impersonating HTTP client, claiming
 * what the person's browser said or `claim`.
 */
function replay(o: ReplayOptions): Client & { id: string } {
  const order = ORDERS[o.engine]
  const browserName = o.engine === 'chromium' ? 'Chromium' : 'Firefox'
  const where = o.recordedOn === 'target' ? 'visit' : 'visit on another instance'
  const claim = `${o.claim ? `, claiming Chromium ${o.claim.major} (every version string rewritten)` : ''}${o.viaProxy ? ", through the TLS-inspecting proxy the proxied people use (the service sees the proxy's TLS)" : ''}`
  return {
    id: o.id,
    name: `Browserless replay: ${o.client} replays a ${browserName} person's recorded ${where} and submission under a fresh nonce${claim}`,
    expected: 'bot',
    async run(ctx) {
      const recording = await recordVisit(ctx as PersonContext, o.person, o.recordedOn)
      const { sent, signals } = claimed(recording, o.claim)
      const pageRecord = recording.results.server?.evidence?.find((e) => e.kind === 'http2' && e.data.path?.startsWith('/tools/'))
      // Chromium's first visit restarts for Critical-CH: the recorded page request is the restart's.
      const restartOrder = pageRecord?.data.header_order ?? order.navigation
      const origin = new URL(ctx.pageUrl).origin
      const constants = { 'accept-encoding': order.encoding, te: 'trailers' }
      const navigation = { ...sent, ...constants, 'upgrade-insecure-requests': '1', accept: order.accept, 'sec-fetch-site': 'none', 'sec-fetch-mode': 'navigate', 'sec-fetch-user': '?1', 'sec-fetch-dest': 'document', priority: 'u=0, i' }
      const proxy = o.viaProxy ? await startInterceptingProxy() : null
      const http = proxy ? await wreqHttp(REPLAY_PROFILES.chromium, `http://${proxy.host}`) : await o.http()
      try {
        const page = async (names: readonly string[]) => {
          const res = await http.request(ctx.pageUrl, { headers: ordered(names, navigation) })
          return pageParams(res.status, await res.text())
        }
        if (o.engine === 'chromium') await page(order.navigation)
        const { nonce, tlsPort } = await page(o.engine === 'chromium' ? restartOrder : order.navigation)
        // The page's side fetch, uncredentialed, on a connection of its own.
        const side = await http.side(
          `https://${new URL(ctx.pageUrl).hostname}:${tlsPort}/evidence/${nonce}`,
          ordered(order.side, { ...sent, ...constants, pragma: 'no-cache', 'cache-control': 'no-cache', accept: '*/*', 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty', referer: ctx.pageUrl, priority: 'u=4' }),
        )
        await side.text()
        // The recorded submission, made this page's: its nonce, also where the page writes it.
        const tls = (signals as Record<string, { value?: { nonce?: string } }>).tlsEvidence
        if (tls?.value?.nonce) tls.value.nonce = nonce
        const body = JSON.stringify({ tool: 'bot-detector', results: { signals }, nonce })
        const post = await http.request(`${origin}/api/antibot/tasks`, {
          method: 'POST',
          body,
          headers: ordered(order.post, { ...sent, ...constants, 'content-type': 'application/json', accept: '*/*', origin, 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty', referer: ctx.pageUrl, priority: 'u=1, i' }),
        })
        const text = await post.text()
        const answer = JSON.parse(text || '{}') as { task_id?: string; error?: string }
        if (post.status !== 201 || !answer.task_id) throw new Error(`the replayed submission answered ${post.status}: ${answer.error ?? text.slice(0, 200)}`)
        return answer.task_id
      } finally {
        await http.close()
        await proxy?.stop()
      }
    },
  }
}

const chromeWreq = { http: () => wreqHttp(REPLAY_PROFILES.chromium), client: `wreq-js (${REPLAY_PROFILES.chromium} TLS and HTTP/2)` }
const firefoxWreq = { http: () => wreqHttp(REPLAY_PROFILES.firefox), client: `wreq-js (${REPLAY_PROFILES.firefox} TLS and HTTP/2)` }
const chromeImpit = { http: async () => impitHttp(IMPIT_PROFILE), client: `impit (${IMPIT_PROFILE} TLS and HTTP/2)` }

/** A Chromium person's visit replayed with wreq's chrome_149 (claiming Chromium 156). */
export const replayClient = replay({ id: 'replay', engine: 'chromium', person: 'person', recordedOn: 'target', ...chromeWreq })
/** A Firefox ESR person's visit replayed with wreq's firefox_151 (claiming Firefox 153). */
export const replayFirefoxClient = replay({ id: 'replay-firefox', engine: 'firefox', person: 'person-firefox', recordedOn: 'target', ...firefoxWreq })
/** Recorded on another instance, replayed with wreq's chrome_149 claiming Chromium 149. */
export const replayOther149Client = replay({ id: 'replay-other-149', engine: 'chromium', person: 'person', recordedOn: 'other-instance', ...chromeWreq, claim: PROFILE_CHROMIUM.chrome_149 })
/** The same through impit's chrome151, claiming Chromium 151. */
export const impitOther151Client = replay({ id: 'impit-other-151', engine: 'chromium', person: 'person', recordedOn: 'other-instance', ...chromeImpit, claim: PROFILE_CHROMIUM.chrome151 })
/** Recorded on another instance, claiming Chromium 149, through the inspecting proxy: the proxied people's wire without their proof. */
export const proxyReplay149Client = replay({ id: 'proxy-replay-149', engine: 'chromium', person: 'person', recordedOn: 'other-instance', ...chromeWreq, claim: PROFILE_CHROMIUM.chrome_149, viaProxy: true })
