// User-Agent client hints as JavaScript sees them: the low-entropy brands/mobile/platform and
// every high-entropy value, the same values Chromium sends as Sec-CH-UA-* headers once a
// response asked for them with Accept-CH. Chromium only, and only in secure contexts
// (https: and localhost). A spoofed navigator.userAgent with untouched hints, or hints edited
// in JavaScript but not in the headers, is the usual mistake of UA-switching tools.
// https://developer.mozilla.org/docs/Web/API/NavigatorUAData/getHighEntropyValues
// formFactors needs Chrome 124+ (older versions simply leave it out).

import { unsupported } from '../core/probe-error'
import type { UaClientHints } from '../../common/signals/shared'

interface UaData {
  brands: Array<{ brand: string; version: string }>
  mobile: boolean
  platform: string
  getHighEntropyValues(hints: string[]): Promise<Record<string, unknown>>
}

const HINTS = ['architecture', 'bitness', 'model', 'platformVersion', 'fullVersionList', 'wow64', 'formFactors', 'uaFullVersion'] as const

// Lengths are capped to what the server accepts, so an odd value cannot void the whole report.
const str = (v: unknown, max = 64) => (typeof v === 'string' ? v.slice(0, max) : null)
const brandList = (v: unknown) =>
  Array.isArray(v) ? v.slice(0, 16).map((b: { brand: unknown; version: unknown }) => ({ brand: String(b.brand).slice(0, 128), version: String(b.version).slice(0, 64) })) : null

export async function uaClientHints(): Promise<UaClientHints> {
  const d = (navigator as Navigator & { userAgentData?: UaData }).userAgentData
  if (!d) throw unsupported('no navigator.userAgentData (Chromium only, in secure contexts)')
  let high: Record<string, unknown> | null = null
  let highError: string | null = null
  try {
    high = await d.getHighEntropyValues([...HINTS])
  } catch (e) {
    // Rejected when a Permissions-Policy (ch-ua-*) forbids the hints.
    highError = String(e instanceof Error ? e.message : e).slice(0, 200)
  }
  return {
    brands: brandList(d.brands) ?? [],
    mobile: d.mobile,
    platform: String(d.platform).slice(0, 64),
    high: high && {
      architecture: str(high.architecture),
      bitness: str(high.bitness, 16),
      model: str(high.model, 128),
      platformVersion: str(high.platformVersion),
      uaFullVersion: str(high.uaFullVersion),
      fullVersionList: brandList(high.fullVersionList),
      wow64: typeof high.wow64 === 'boolean' ? high.wow64 : null,
      formFactors: Array.isArray(high.formFactors) ? high.formFactors.slice(0, 8).map((f) => String(f).slice(0, 32)) : null,
    },
    highError,
  }
}
