// navigator.connection (Network Information API): connection type (mobile Chromium only),
// effective type and the rounded rtt/downlink estimates. Only Chromium-based browsers have it.
// https://developer.mozilla.org/docs/Web/API/NetworkInformation
import type { NetworkInformation } from '../../common/signals/dns-leak'
import { ProbeError } from '../core/probe-error'

interface NetworkInformationLike {
  type?: string
  effectiveType?: string
  rtt?: number
  downlink?: number
  saveData?: boolean
}

export function networkInformation(): NetworkInformation {
  const c = (navigator as Navigator & { connection?: NetworkInformationLike }).connection
  if (!c) throw new ProbeError('unsupported', 'no navigator.connection (only Chromium-based browsers implement it)')
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null)
  const str = (v: unknown) => (typeof v === 'string' ? v.slice(0, 32) : null)
  return {
    type: str(c.type),
    effectiveType: str(c.effectiveType),
    rtt: num(c.rtt),
    downlink: num(c.downlink),
    saveData: typeof c.saveData === 'boolean' ? c.saveData : null,
  }
}
