// The high-entropy client hints the tool page asks for with Accept-CH, as they arrived, against
// navigator.userAgentData.getHighEntropyValues() in the page.
// https://wicg.github.io/ua-client-hints/#getHighEntropyValues

import type { HttpHeadersSignals } from '../../common/signals/http-headers'
import { brandsClaim, parseBrandList, parseSfBoolean, parseSfString } from '../../common/user-agent'
import { header, type ServerObservation } from '../core/tools/observation'
import { sameBrands } from './client-hints'
import { checkOn, na } from './define'
import { securePage } from './secure-page'

/** Client hints the tool page requests with Accept-CH and this check compares. */
export const HIGH_ENTROPY_HEADERS = ['sec-ch-ua-arch', 'sec-ch-ua-bitness', 'sec-ch-ua-model', 'sec-ch-ua-platform-version', 'sec-ch-ua-full-version-list', 'sec-ch-ua-wow64'] as const

/** The requested hints that arrived, by header name. */
export function receivedHints(server: Pick<ServerObservation, 'headers'>): Record<string, string> {
  const received: Record<string, string> = {}
  for (const n of HIGH_ENTROPY_HEADERS) {
    const v = header(server, n)
    if (v !== undefined) received[n] = v
  }
  return received
}

export const highEntropyHints = checkOn<HttpHeadersSignals>()({
  id: 'high-entropy-hints',
  name: 'Requested client hints arrived and agree with getHighEntropyValues',
  found: 'requested client hints are missing or contradict getHighEntropyValues',
  source: 'server',
  why: 'The tool page asks for Sec-CH-UA-Arch, -Bitness, -Model, -Platform-Version, -Full-Version-List and -WoW64 with Accept-CH; Chromium then sends them on the page\'s requests, equal to navigator.userAgentData.getHighEntropyValues(). Disagreement is a patched page or header. Absence only warns: Brave and some enterprise policies withhold them.',
  ref: 'https://wicg.github.io/ua-client-hints/#http-ua-hints',
  needs: [],
  uses: ['uaData', 'context'],
  judge: ({ uaData, context }, { server, missing }) => {
    const received = receivedHints(server)
    const secure = securePage({ context, uaData })
    if (!uaData) return na(`${missing('uaData')}; only Chromium sends these hints`)
    const high = uaData.high
    if (!high) return na(`getHighEntropyValues failed: ${uaData.highError ?? 'no values'}`)
    if (brandsClaim(uaData.brands).family === 'brave') return { verdict: 'na', observed: received, expected: 'Brave withholds high-entropy client hints by design' }
    if (!Object.keys(received).length) {
      return { verdict: secure ? 'warn' : 'na', observed: 'none of the requested hints arrived', expected: secure ? `${HIGH_ENTROPY_HEADERS.join(', ')} after the page's Accept-CH` : 'hints are only sent in secure contexts' }
    }
    const diffs: string[] = []
    const cmp = (name: string, js: string | boolean | null) => {
      const v = received[name]
      if (v === undefined || js === null) return
      const hv = typeof js === 'boolean' ? parseSfBoolean(v) : parseSfString(v)
      if (hv !== js) diffs.push(`${name}: ${v} vs ${JSON.stringify(js)}`)
    }
    cmp('sec-ch-ua-arch', high.architecture)
    cmp('sec-ch-ua-bitness', high.bitness)
    cmp('sec-ch-ua-model', high.model)
    cmp('sec-ch-ua-platform-version', high.platformVersion)
    cmp('sec-ch-ua-wow64', high.wow64)
    const fvl = received['sec-ch-ua-full-version-list']
    if (fvl !== undefined && high.fullVersionList) {
      const list = parseBrandList(fvl)
      if (!list || !sameBrands(list, high.fullVersionList)) diffs.push('sec-ch-ua-full-version-list differs from fullVersionList')
    }
    const list = Object.keys(received).map((n) => n.replace('sec-ch-ua-', '')).join(', ')
    return { verdict: diffs.length ? 'fail' : 'pass', observed: diffs.length ? diffs : `${Object.keys(received).length} received, all equal: ${list}`, expected: 'each received hint equal to the getHighEntropyValues() value' }
  },
})
