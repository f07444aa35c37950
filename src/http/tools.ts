// The tool index, the 14 tool pages, and the report a page shows after submitting.

import { Elysia } from 'elysia'
import { TOOL_IDS, TOOLS, type ToolId } from '../../common/tools'
import { IndexPage, NotFoundPage, ToolPage, type UnavailableTools } from '../pages/tools'
import { ReportFragment, type ReportResults } from '../pages/report'
import { reportAdmission, type ReportCharge } from './report-budget'
import { requestClientIp } from './client-ip'
import { issueNonce, issueNonces } from '../../db/nonces'
import { RunPage } from '../pages/run'
import { uuidV4 } from '../core/ids'
import { fileListenerEvidence } from '../listeners/https-requests'
import { DEFAULT_PAGE_NONCE_LIMIT, generateNonce, NONCE_TTL_SECONDS } from '../core/nonce'
import { networkKey } from '../core/ip'
import { hashSecret, randomBase62 } from '../core/keys'
import { probeAsset } from './assets'
import { renderedOnce } from './rendered'
import type { AppDeps } from './deps'
import { errorResponse } from './json'
import { PROBE_FRAME_CSP, PROBE_FRAME_PATH, toolPageCsp } from './page'
import { readSubmission, submissionFailure } from './submission'
import { IP_DATA_ATTRIBUTIONS } from '../evidence/ipdb'
import { IP_DATA_TOOLS } from '../core/tools/ip-intel'
import { ACCEPT_CH_HINTS, CRITICAL_CH_HINTS } from '../core/page-hints'
import { observeAgent } from './observe'

const HTML = { 'content-type': 'text/html; charset=utf-8' }
// Ask Chromium for the client hints the tools compare with what the page reports (src/core/page-hints.ts).
const ACCEPT_CH = ACCEPT_CH_HINTS.join(', ')
const CRITICAL_CH = CRITICAL_CH_HINTS.join(', ')

/** Each tool's probe bundle URL; throws naming the first tool whose bundle is not among the assets. */
function probeScripts(assets: AppDeps['assets']): ReadonlyMap<ToolId, string> {
  return new Map(
    TOOL_IDS.map((tool) => {
      try {
        return [tool, assets.url(probeAsset(tool))] as const
      } catch {
        throw new Error(`Cannot start: tool '${tool}' has no probe bundle (${probeAsset(tool)} is not among the built assets; see src/build-assets.ts)`)
      }
    }),
  )
}

/**
 * The tools this instance cannot run as it is set up, each with why in plain words: dns-leak
 * without a DNS zone (nothing for the page to look up, no resolver to observe).
 */
export function unavailableTools(evidence: AppDeps['evidence']): UnavailableTools {
  const out = new Map<ToolId, string>()
  if (evidence?.dnsZone === undefined) out.set('dns-leak', 'it needs a DNS zone of its own, which is not set up here')
  return out
}

export function toolsPages(deps: AppDeps) {
  const { assets, clock, trustedProxies, db, random } = deps
  const pageNonceLimit = deps.pageNonceLimit ?? DEFAULT_PAGE_NONCE_LIMIT
  // At start: a tool page without its probe would be an empty page.
  const scripts = probeScripts(assets)
  const listenerData: Record<string, string> = {}
  if (deps.evidence?.tlsPort !== undefined) listenerData['data-tls-port'] = String(deps.evidence.tlsPort)
  if (deps.evidence?.stunPort !== undefined) listenerData['data-stun-port'] = String(deps.evidence.stunPort)
  if (deps.evidence?.dnsZone !== undefined) listenerData['data-dns-zone'] = deps.evidence.dnsZone
  // The index is the same for everyone: rendered once, then served from memory (src/http/rendered.ts).
  const unavailable = unavailableTools(deps.evidence)
  const index = renderedOnce(() => IndexPage({ assets, unavailable }))
  const runScript = assets.url(probeAsset('run'))
  /** A page that runs probes: never cached, asks for the client hints, lets the probes reach the listeners. */
  const probePageHeaders = (request: Request) => ({
    ...HTML,
    'cache-control': 'no-store',
    'accept-ch': ACCEPT_CH,
    'critical-ch': CRITICAL_CH,
    'content-security-policy': toolPageCsp({ pageUrl: new URL(request.url), tlsPort: deps.evidence?.tlsPort, dnsZone: deps.evidence?.dnsZone }),
    // The browsers' default, so the listeners see the Referer any site would get.
    'referrer-policy': 'strict-origin-when-cross-origin',
  })
  return new Elysia({ name: 'tools-pages' })
    .get('/', async () => new Response(await index.bytes(), { headers: HTML }))
    .get('/tools/:tool', async ({ params, request, server }) => {
      const tool = TOOLS.find((t) => t.id === params.tool)
      if (!tool) {
        return new Response(await NotFoundPage({ assets, path: new URL(request.url).pathname }), { status: 404, headers: HTML })
      }
      // Every render issues a single-use nonce (stored, so any instance and any listener can
      // check it) and a TURN password for it. The page is never refused: a network that holds
      // PAGE_NONCE_LIMIT nonces it never used loses its oldest instead (db/nonces.ts). The page
      // load's address goes with it: the HTTPS listener's records from other networks are
      // capped apart (src/evidence/binding.ts).
      const nonce = generateNonce(random)
      const turnSecret = randomBase62(random, 24)
      const clientIp = requestClientIp(server, request, trustedProxies)
      const network = hashSecret(networkKey(clientIp))
      await issueNonce(db, { nonce, tool: tool.id, turnSecret, now: clock(), ttlSeconds: NONCE_TTL_SECONDS, clientIp, network, maxUnused: pageNonceLimit })
      // Loaded over the HTTPS listener: the handshake and HTTP/2 frames of this very connection
      // go under the nonce now, so the page needs no second connection to be judged on them.
      await fileListenerEvidence(db, request, nonce, clock(), clientIp)
      // A signing agent signs its navigations too (issue 60): said on the page; nothing for the unsigned.
      const agent = await observeAgent(deps.agents, request, clock())
      const page = await ToolPage({ tool, assets, script: scripts.get(tool.id)!, pageData: { 'data-nonce': nonce, 'data-turn-secret': turnSecret, ...listenerData }, credits: IP_DATA_TOOLS.has(tool.id) ? IP_DATA_ATTRIBUTIONS : [], agent })
      return new Response(page, { headers: probePageHeaders(request) })
    })
    // The run page (issue 47): one nonce per tool, issued together under one run id, each with
    // this navigation's listener records, as if each tool's own page had been loaded.
    .get('/run', async ({ request, server }) => {
      const runId = uuidV4(random)
      const pages = TOOL_IDS.map((tool) => ({ tool, nonce: generateNonce(random), turnSecret: randomBase62(random, 24) }))
      const clientIp = requestClientIp(server, request, trustedProxies)
      const network = hashSecret(networkKey(clientIp))
      await issueNonces(db, { pages, runId, now: clock(), ttlSeconds: NONCE_TTL_SECONDS, clientIp, network, maxUnused: Math.max(pageNonceLimit, pages.length) })
      for (const p of pages) await fileListenerEvidence(db, request, p.nonce, clock(), clientIp)
      const agent = await observeAgent(deps.agents, request, clock())
      const page = await RunPage({ assets, script: runScript, runId, pages, pageData: listenerData, credits: IP_DATA_ATTRIBUTIONS, unavailable, agent })
      return new Response(page, { headers: probePageHeaders(request) })
    })
    .post(
      '/tools/:tool/report',
      async ({ params, request, server }) => {
        const ip = requestClientIp(server, request, trustedProxies)
        const now = clock()
        // Held to the task endpoint's budget, its page's own report free (src/http/report-budget.ts).
        let charge: ReportCharge = 'unmetered'
        const admit = reportAdmission(deps, { tool: params.tool, ip, now, charged: (c) => (charge = c) })
        const read = await readSubmission(deps, { request, server, ip, now, purpose: 'report', page: params.tool, admit })
        if (!read.ok) {
          const { status, error } = submissionFailure(read.failure, 'Cannot render report')
          const retry = read.failure.code === 'rate_limited' ? { 'retry-after': String(read.failure.retryAfterSeconds) } : undefined
          return errorResponse(status, error, retry)
        }
        const { input } = read.submission
        deps.metrics?.reportJudged(input.tool, charge)
        const html = await ReportFragment({ tool: input.tool, results: input.results as unknown as ReportResults })
        return new Response(html, { headers: { ...HTML, 'cache-control': 'no-store' } })
      },
      { parse: 'none', detail: { hide: true } },
    )
    // An empty page of this origin for bot-detector's storage-partitioning probe
    // (probes/signals/storage-partition.ts), framed under a data: frame: the one page here
    // any site may frame, since it holds nothing and does nothing.
    // Its policy has no frame-ancestors, and it gets no X-Frame-Options (src/http/page.ts).
    .get(PROBE_FRAME_PATH, () => new Response(PROBE_FRAME, { headers: { ...HTML, 'cache-control': 'public, max-age=86400', 'x-content-type-options': 'nosniff', 'content-security-policy': PROBE_FRAME_CSP } }), { detail: { hide: true } })
}

const PROBE_FRAME = '<!doctype html><meta charset="utf-8"><title>Antibot probe frame</title>'
