// The browserless class (issue 46): no browser drives the page. A real person's Chromium runs
// bot-detector once (recorded at run time, so the recording always matches the current code:
// its submitted signals and headers as the service kept them, and its requests' header order off
// the wire); then an HTTP client that impersonates Chrome's network stack (wreq-js from npm:
// Rust wreq on BoringSSL, its newest Chrome profile, chrome_149; the native part ships inside
// the package) replays that visit under a fresh nonce, as scraper authors do with curl-impersonate,
// wreq, tls-client or curl_cffi:
// - the page, twice on one connection as Chromium does for Critical-CH (first without the
//   critical hints, then with every hint), each with the person's headers in Chromium's order;
// - the page's /evidence/<nonce> on a connection of its own, as Chromium keeps uncredentialed fetches;
// - the person's recorded submission under the fresh page's nonce, the nonce inside it too
//   (signals.tlsEvidence), with the person's headers in Chromium's fetch order.
// Its User-Agent and client hints say what the person's browser said (Chromium 156 here); its
// TLS and HTTP/2 are wreq's.

import { createSession, fetch as wreqFetch } from 'wreq-js'
import type { Client, MatrixContext } from './clients'
import { PEOPLE, type PersonContext } from './person'
import { uniqueEmail } from '../support/unique'

/** wreq's newest Chrome and Firefox profiles in the version the project pins (wreq-js 3.1.0). */
export const REPLAY_PROFILES = { chromium: 'chrome_149', firefox: 'firefox_151' } as const

interface RecordedTask {
  results: {
    signals: Record<string, unknown>
    server?: { headers?: Array<[string, string]>; evidence?: Array<{ kind: string; data: { header_order?: string[]; path?: string } }> }
  }
}

async function adminKey(ctx: MatrixContext): Promise<string> {
  const res = await fetch(`${ctx.baseUrl}/api/admin/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ctx.adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ email: uniqueEmail('replay'), plan: 'pro' }),
  })
  if (res.status !== 201) throw new Error(`cannot make a key for the recording: ${res.status}`)
  return ((await res.json()) as { key: string }).key
}

/** The person's run, as the service kept it. */
async function record(ctx: PersonContext, person: string): Promise<RecordedTask> {
  const id = await PEOPLE[person]!.run(ctx)
  const res = await fetch(`${ctx.baseUrl}/api/antibot/tasks/${id}`, { headers: { authorization: `Bearer ${await adminKey(ctx)}` } })
  if (res.status !== 200) throw new Error(`the recording's task answered ${res.status}`)
  return (await res.json()) as RecordedTask
}

/** Headers in `order` (names), each with the recorded value or a constant, those without a value left out. */
function ordered(order: readonly string[], values: Record<string, string>): Array<[string, string]> {
  return order.flatMap((name) => (values[name] !== undefined ? [[name, values[name]!] as [string, string]] : []))
}

/** Each engine's own header order for a navigation, its side fetch and a fetch() POST (src/evidence/fixtures/navigations.json). */
const ORDERS = {
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

/**
 * A person's recorded bot-detector visit (`person`, of the engine `engine`) replayed with wreq
 * impersonating that engine's newest profile it has.
 */
function replay(engine: 'chromium' | 'firefox', person: string): Client {
  const profile = REPLAY_PROFILES[engine]
  const order = ORDERS[engine]
  return {
    name: `Browserless replay: wreq-js (${profile} TLS and HTTP/2) replays a ${engine === 'chromium' ? 'Chromium' : 'Firefox'} person's recorded visit and submission under a fresh nonce`,
    expected: 'bot',
    async run(ctx) {
      const recording = await record(ctx as PersonContext, person)
      const sent = Object.fromEntries((recording.results.server?.headers ?? []).map(([k, v]) => [k.toLowerCase(), v]))
      const pageRecord = recording.results.server?.evidence?.find((e) => e.kind === 'http2' && e.data.path?.startsWith('/tools/'))
      // Chromium's first visit restarts for Critical-CH: the recorded page request is the restart's.
      const restartOrder = pageRecord?.data.header_order ?? order.navigation
      const origin = new URL(ctx.pageUrl).origin
      const constants = { 'accept-encoding': order.encoding, te: 'trailers' }
      const navigation = { ...sent, ...constants, 'upgrade-insecure-requests': '1', accept: order.accept, 'sec-fetch-site': 'none', 'sec-fetch-mode': 'navigate', 'sec-fetch-user': '?1', 'sec-fetch-dest': 'document', priority: 'u=0, i' }
      const session = await createSession({ browser: profile, os: 'linux', insecure: true })
      try {
        const page = async (names: readonly string[]) => {
          const res = await wreqFetch(ctx.pageUrl, { session, headers: ordered(names, navigation), disableDefaultHeaders: true, timeout: 20_000 })
          const html = await res.text()
          const nonce = /data-nonce="([a-z2-7]{26})"/.exec(html)?.[1]
          const tlsPort = Number(/data-tls-port="(\d+)"/.exec(html)?.[1])
          if (res.status !== 200 || !nonce || !tlsPort) throw new Error(`the page answered ${res.status} without a nonce and the TLS port`)
          return { nonce, tlsPort }
        }
        if (engine === 'chromium') await page(order.navigation)
        const { nonce, tlsPort } = await page(engine === 'chromium' ? restartOrder : order.navigation)
        // The page's side fetch, uncredentialed, on a connection of its own.
        const side = await wreqFetch(`https://${new URL(ctx.pageUrl).hostname}:${tlsPort}/evidence/${nonce}`, {
          browser: profile,
          os: 'linux',
          insecure: true,
          headers: ordered(order.side, { ...sent, ...constants, pragma: 'no-cache', 'cache-control': 'no-cache', accept: '*/*', 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty', referer: ctx.pageUrl, priority: 'u=4' }),
          disableDefaultHeaders: true,
          timeout: 20_000,
        })
        await side.text()
        // The recorded submission, made this page's: its nonce, also where the page writes it.
        const signals = structuredClone(recording.results.signals) as Record<string, { value?: { nonce?: string } }>
        if (signals.tlsEvidence?.value?.nonce) signals.tlsEvidence.value.nonce = nonce
        const body = JSON.stringify({ tool: 'bot-detector', results: { signals }, nonce })
        const post = await wreqFetch(`${origin}/api/antibot/tasks`, {
          session,
          method: 'POST',
          body,
          headers: ordered(order.post, { ...sent, ...constants, 'content-type': 'application/json', accept: '*/*', origin, 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty', referer: ctx.pageUrl, priority: 'u=1, i' }),
          disableDefaultHeaders: true,
          timeout: 20_000,
        })
        const answer = (await post.json()) as { task_id?: string; error?: string }
        if (post.status !== 201 || !answer.task_id) throw new Error(`the replayed submission answered ${post.status}: ${answer.error ?? ''}`)
        return answer.task_id
      } finally {
        await session.close()
      }
    },
  }
}

/** A Chromium person's visit replayed with wreq's chrome_149 (claiming Chromium 156). */
export const replayClient = replay('chromium', 'person')
/** A Firefox ESR person's visit replayed with wreq's firefox_151 (claiming Firefox 153). */
export const replayFirefoxClient = replay('firefox', 'person-firefox')
