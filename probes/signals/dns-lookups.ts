// Makes the browser resolve names that exist nowhere else: `<nonce>-<n>.<zone>`, where the
// nonce is the page's own (<body data-nonce>, single-use, issued with the page), so the
// service's authoritative DNS server (src/listeners/dns.ts) files each query under this very
// task: the first query for each name comes from a resolver working for this browser. Half
// the names are loaded by an <img>, half by a no-cors fetch, because blockers and prefetch
// treat the two differently. The loads fail (nothing serves the names); the lookup is what
// the server logs. URLs are https so that an https page does not block them as mixed content
// before any lookup. Cross-origin resource timing hides DNS phases (no Timing-Allow-Origin),
// so only the time to the load's end is reported.
// The zone comes from the page (<body data-dns-zone>); without one there is nothing to look up.
import { NO_ZONE_MESSAGE } from '../../common/dns-zone'
import type { DnsLookups } from '../../common/signals/dns-leak'
import { ProbeError } from '../core/probe-error'


type Outcome = 'load' | 'error' | 'timeout'

function viaImg(url: string, timeoutMs: number): Promise<Outcome> {
  return new Promise((resolve) => {
    const img = new Image()
    const done = (o: Outcome) => {
      clearTimeout(timer)
      img.onload = img.onerror = null
      img.src = ''
      resolve(o)
    }
    const timer = setTimeout(() => done('timeout'), timeoutMs)
    img.onload = () => done('load')
    img.onerror = () => done('error')
    img.src = url
  })
}

async function viaFetch(url: string, timeoutMs: number): Promise<Outcome> {
  const ctl = new AbortController()
  const timer = setTimeout(() => ctl.abort(), timeoutMs)
  try {
    await fetch(url, { mode: 'no-cors', cache: 'no-store', credentials: 'omit', signal: ctl.signal })
    return 'load'
  } catch {
    return ctl.signal.aborted ? 'timeout' : 'error'
  } finally {
    clearTimeout(timer)
  }
}

/**
 * Each load waits at most `timeoutMs`: a load ends (with an error) only once the name is
 * resolved, so by then the query has reached the DNS server, which files it before answering.
 */
export function dnsLookups(zone: string | null | undefined, nonce: string | null | undefined, count = 4, timeoutMs = 2000) {
  return async (): Promise<DnsLookups> => {
    if (!zone) throw new ProbeError('unsupported', NO_ZONE_MESSAGE)
    if (!/^(?=.{1,200}$)([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)+[a-z0-9-]{2,}$/i.test(zone)) throw new ProbeError('error', `DNS zone '${zone.slice(0, 50)}' is not a host name`)
    // src/core/nonce.ts: 26 lower-case base32 characters, a valid DNS label.
    if (!nonce || !/^[a-z2-7]{26}$/.test(nonce)) throw new ProbeError('error', 'the page has no nonce (<body data-nonce>) to tie its lookups to')
    const n = nonce
    const names = await Promise.all(
      Array.from({ length: count }, async (_, i) => {
        const name = `${n}-${i + 1}.${zone.toLowerCase()}`
        const via = i < count / 2 ? ('img' as const) : ('fetch' as const)
        const t0 = performance.now()
        const outcome = await (via === 'img' ? viaImg : viaFetch)(`https://${name}/`, timeoutMs)
        return { name, via, outcome, ms: Math.round(performance.now() - t0) }
      }),
    )
    return { zone: zone.toLowerCase(), nonce: n, names }
  }
}
