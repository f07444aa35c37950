// One request over IPv4 only and one over IPv6 only, to see which address families this
// browser can use to reach the service. On the Internet this needs two host names of the
// service, one with only an A record and one with only an AAAA record (operator
// configuration, issue 7), so that the server sees this browser's address in each family —
// the IPv6 address that bypasses an IPv4-only VPN tunnel is the classic leak. Until those
// exist the page can only do it when it is itself served from a loopback host, where the
// literal addresses 127.0.0.1 and [::1] name the same machine.
// mode 'no-cors': the other family is another origin; an opaque response still proves the
// connection worked, and a network failure rejects.

import type { FamilyReach, IpFamilies } from '../../common/signals/ip-leak'
import { unsupported } from '../core/probe-error'

/** localhost, *.localhost (RFC 6761), 127.0.0.0/8 and ::1. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, '')
  return h === 'localhost' || h.endsWith('.localhost') || /^127(\.\d{1,3}){3}$/.test(h) || h === '::1' || h === '0:0:0:0:0:0:0:1'
}

async function reach(url: string, timeoutMs: number): Promise<FamilyReach> {
  const ctl = new AbortController()
  const timer = setTimeout(() => ctl.abort(), timeoutMs)
  const t0 = performance.now()
  try {
    await fetch(url, { mode: 'no-cors', cache: 'no-store', signal: ctl.signal })
    return { url, reachable: true, ms: Math.round(performance.now() - t0), error: null }
  } catch (e) {
    const error = ctl.signal.aborted ? `no answer within ${timeoutMs} ms` : String(e instanceof Error ? e.message : e).slice(0, 200)
    return { url, reachable: false, ms: Math.round(performance.now() - t0), error }
  } finally {
    clearTimeout(timer)
  }
}

export async function ipFamilies(): Promise<IpFamilies> {
  if (!isLoopbackHost(location.hostname)) {
    throw unsupported('IPv4-only and IPv6-only requests need two host names of the service (A-only and AAAA-only) which the service does not offer yet; they can only be made here when the page is served from a loopback host')
  }
  const base = `${location.protocol}//`
  const port = location.port ? `:${location.port}` : ''
  const [ipv4, ipv6] = await Promise.all([reach(`${base}127.0.0.1${port}/healthz`, 1500), reach(`${base}[::1]${port}/healthz`, 1500)])
  return { ipv4, ipv6 }
}
