// navigator.connection as Chromium writes it (probes/signals/network-information.ts): rtt and
// downlink rounded, effectiveType derived from the same estimates. Other values were written
// by a script or an extension.

import type { DnsLeakSignals, NetworkInformation } from '../../common/signals/dns-leak'
import { checkOn } from './define'

const REF = 'https://source.chromium.org/chromium/chromium/src/+/main:third_party/blink/renderer/platform/network/network_state_notifier.cc'

/**
 * Chromium reports rtt × a per-host factor (0.9–1.1) rounded to 50 ms, at most 3000, and
 * downlink rounded to 50 kbit/s (25 in older releases), at most 10 Mbit/s; effectiveType comes
 * from the same estimates. third_party/blink/renderer/platform/network/network_state_notifier.cc
 */
export function netinfoProblems(c: NetworkInformation): string[] {
  const p: string[] = []
  if (c.rtt !== null && (c.rtt < 0 || c.rtt > 3000 || c.rtt % 50 !== 0)) p.push(`rtt ${c.rtt} is not rounded to 50 ms within 0–3000`)
  if (c.downlink !== null) {
    const kbps = c.downlink * 1000
    if (c.downlink < 0 || c.downlink > 10 || Math.abs(kbps - Math.round(kbps / 25) * 25) > 1e-6) p.push(`downlink ${c.downlink} is not rounded to 25 kbit/s within 0–10 Mbit/s`)
  }
  if (c.effectiveType !== null && !['slow-2g', '2g', '3g', '4g'].includes(c.effectiveType)) p.push(`effectiveType '${c.effectiveType}' is not one of slow-2g, 2g, 3g, 4g`)
  if (c.rtt && c.effectiveType === '4g' && c.rtt > 1000) p.push(`effectiveType 4g with rtt ${c.rtt} ms`)
  if (c.rtt && (c.effectiveType === '2g' || c.effectiveType === 'slow-2g') && c.rtt < 270) p.push(`effectiveType ${c.effectiveType} with rtt ${c.rtt} ms`)
  return p
}

export const networkInformation = checkOn<DnsLeakSignals>()({
  id: 'network-information',
  name: 'Network Information values are consistent',
  found: 'Network Information values are inconsistent',
  source: 'client',
  why: 'Chromium rounds navigator.connection.rtt to 50 ms (at most 3000) and downlink to 50 kbit/s (25 in older releases; at most 10 Mbit/s), and derives effectiveType from the same estimates, so 4g comes with a short rtt. Other values were written by a script or an extension. DevTools network throttling can produce odd combinations, so it only warns.',
  ref: REF,
  needs: [],
  uses: ['connection'],
  judge: ({ connection: c }, { missing }) => {
    if (!c) return { verdict: 'na', observed: missing('connection'), expected: 'navigator.connection (only Chromium-based browsers implement it)' }
    const problems = netinfoProblems(c)
    return {
      verdict: problems.length ? 'warn' : 'pass',
      observed: problems.length ? problems : `effectiveType ${c.effectiveType ?? '—'}, rtt ${c.rtt ?? '—'} ms, downlink ${c.downlink ?? '—'} Mbit/s${c.type ? `, type ${c.type}` : ''}`,
      expected: 'values rounded as Chromium rounds them, effectiveType matching rtt',
    }
  },
})
