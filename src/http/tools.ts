// The tool index, the 14 tool pages, and the report a page shows after submitting.

import { Elysia } from 'elysia'
import type { Check, Summary } from '../core/scoring'
import { HttpError } from '../core/errors'
import { validateTaskInput } from '../core/task-input'
import { TOOLS } from '../../common/tools'
import { IndexPage, NotFoundPage, ReportFragment, ToolPage } from '../pages/tools'
import { parseJson, readBodyCapped, requireJson } from './body'
import { requestClientIp } from './client-ip'
import { believedFingerprintHeaders, observeSubmission } from './observe'
import { countSeen } from './identity-count'
import { truncateIp } from '../core/ip-privacy'
import { issueNonce } from '../../db/nonces'
import { generateNonce, NONCE_TTL_SECONDS } from '../core/nonce'
import { randomBase62 } from '../core/keys'
import type { AppDeps } from './deps'
import { IP_DATA_ATTRIBUTIONS } from '../evidence/ipdb'
import { IP_DATA_TOOLS } from '../core/tools/ip-intel'
import { MAX_TASK_BODY_BYTES } from './tasks'

const HTML = { 'content-type': 'text/html; charset=utf-8' }
// Ask Chromium for the client hints the tools compare with what the page reports.
const ACCEPT_CH =
  'Sec-CH-UA, Sec-CH-UA-Mobile, Sec-CH-UA-Platform, Sec-CH-UA-Platform-Version, Sec-CH-UA-Full-Version-List, Sec-CH-UA-Arch, Sec-CH-UA-Bitness, Sec-CH-UA-Model, Sec-CH-UA-WoW64, Sec-CH-DPR, Sec-CH-Viewport-Width, Sec-CH-Viewport-Height, Sec-CH-Device-Memory, Sec-CH-Prefers-Color-Scheme, Sec-CH-Prefers-Reduced-Motion, DPR, Viewport-Width, Device-Memory'

function probeScript(assets: AppDeps['assets'], tool: string): string | null {
  try {
    return assets.url(`probes/${tool}.js`)
  } catch {
    return null
  }
}

export function toolsPages(deps: AppDeps) {
  const { assets, clock, trustedProxies, db, random, ipTruncate } = deps
  const listenerData: Record<string, string> = {}
  if (deps.evidence?.tlsPort !== undefined) listenerData['data-tls-port'] = String(deps.evidence.tlsPort)
  if (deps.evidence?.stunPort !== undefined) listenerData['data-stun-port'] = String(deps.evidence.stunPort)
  if (deps.evidence?.dnsZone !== undefined) listenerData['data-dns-zone'] = deps.evidence.dnsZone
  return new Elysia({ name: 'tools-pages' })
    .get('/', async () => new Response(await IndexPage({ assets }), { headers: HTML }))
    .get('/tools/:tool', async ({ params, request }) => {
      const tool = TOOLS.find((t) => t.id === params.tool)
      if (!tool) {
        return new Response(await NotFoundPage({ assets, path: new URL(request.url).pathname }), { status: 404, headers: HTML })
      }
      // Every render issues a single-use nonce (stored, so any instance and any listener can
      // check it) and a TURN password for it.
      const nonce = generateNonce(random)
      const turnSecret = randomBase62(random, 24)
      await issueNonce(db, { nonce, tool: tool.id, turnSecret, now: clock(), ttlSeconds: NONCE_TTL_SECONDS })
      const page = await ToolPage({ tool, assets, script: probeScript(assets, tool.id), pageData: { 'data-nonce': nonce, 'data-turn-secret': turnSecret, ...listenerData }, credits: IP_DATA_TOOLS.has(tool.id) ? IP_DATA_ATTRIBUTIONS : [] })
      return new Response(page, {
        headers: { ...HTML, 'cache-control': 'no-store', 'accept-ch': ACCEPT_CH, 'critical-ch': 'Sec-CH-DPR, Sec-CH-Viewport-Width' },
      })
    })
    .post(
      '/tools/:tool/report',
      async ({ params, request, server }) => {
        const what = 'Cannot render report'
        requireJson(request, what)
        const body = parseJson(await readBodyCapped(request, MAX_TASK_BODY_BYTES, what), what)
        const now = clock()
        const observed = await observeSubmission(db, {
          request,
          ip: requestClientIp(server, request, trustedProxies),
          now,
          body,
          purpose: 'report',
          fingerprintHeaders: believedFingerprintHeaders(server, request, deps),
        })
        // Counted as the stored task was: without that task, nothing stored after it.
        const { nonce } = (body ?? {}) as { nonce?: unknown }
        const seen = await countSeen(db, {
          body,
          excludeIp: ipTruncate ? truncateIp(observed.ip) : observed.ip,
          now,
          asOfNonce: observed.nonce === 'valid' && typeof nonce === 'string' ? nonce : undefined,
          log: deps.log,
        })
        const input = validateTaskInput(body, observed, { ...deps.judge, fingerprintSeen: seen.fingerprintSeen })
        if (!input.ok) throw new HttpError(422, input.error.replace('Cannot create task', what))
        if (input.value.tool !== params.tool) throw new HttpError(422, `${what}: the body is for tool '${input.value.tool}', not '${params.tool}'`)
        const r = input.value.results as { summary: Summary; checks: Check[]; verdict?: unknown; frameworks?: unknown }
        const html = await ReportFragment({
          tool: input.value.tool,
          summary: r.summary,
          checks: r.checks,
          verdict: typeof r.verdict === 'string' ? r.verdict : undefined,
          frameworks: Array.isArray(r.frameworks) ? r.frameworks.filter((f): f is string => typeof f === 'string') : undefined,
        })
        return new Response(html, { headers: { ...HTML, 'cache-control': 'no-store' } })
      },
      { parse: 'none', detail: { hide: true } },
    )
}
