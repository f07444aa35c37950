// navigator.userAgentData in the page: its brand list and its agreement with
// navigator.userAgent. Both come from the browser build; Chromium exposes userAgentData in
// secure contexts only. https://wicg.github.io/ua-client-hints/#interface

import type { HttpHeadersSignals } from '../../common/signals/http-headers'
import { brandsClaim, parseUserAgent, uaHintMismatches } from '../../common/user-agent'
import { brandsText } from './client-hints'
import { ENGINE_NAME } from '../../common/engine-errors'
import { checkOn, na } from './define'
import { pageEngine } from './page-engine'
import { securePage } from './secure-page'

const check = checkOn<HttpHeadersSignals>()

export const brandsGrease = check({
  id: 'brands-grease',
  name: 'Brand list contains a GREASE brand',
  found: 'the brand list has no GREASE brand',
  source: 'client',
  why: 'Chromium adds a deliberately odd brand ("Not:A-Brand", "Not/A)Brand", …) to every brand list so servers cannot hard-code it. Hand-written brand lists in spoofing scripts usually lack it.',
  ref: 'https://wicg.github.io/ua-client-hints/#grease',
  expected: 'one GREASE brand such as "Not:A-Brand"',
  needs: ['uaData'],
  judge: ({ uaData }) => ({ verdict: brandsClaim(uaData.brands).grease ? 'pass' : 'fail', observed: uaData.brands.map((b) => b.brand).join(', ') }),
})

export const navigatorUaVsUaData = check({
  id: 'navigator-ua-vs-ua-data',
  name: 'navigator.userAgent agrees with navigator.userAgentData',
  found: 'navigator.userAgent contradicts navigator.userAgentData',
  source: 'client',
  why: 'Both come from the browser build. A Chrome User-Agent without userAgentData in a secure context is Firefox or Safari behind a UA switcher (the page\'s engine, told by its error messages, says which), or Chromium with userAgentData removed; a different version, platform or mobile flag is a partial spoof.',
  needs: ['navigator'],
  uses: ['uaData', 'context', 'engine'],
  judge: ({ navigator, uaData, context, engine }, { raw, missing }) => {
    if (uaData) {
      const m = uaHintMismatches(parseUserAgent(navigator.userAgent), uaData)
      return { verdict: m.length ? 'fail' : 'pass', observed: m.length ? m : `agree: ${brandsText(uaData.brands)}; ${uaData.platform}; ${uaData.mobile ? 'mobile' : 'desktop'}`, expected: 'the same family, major version, OS and mobile flag' }
    }
    if (raw.uaData?.ok !== false || raw.uaData.error.kind !== 'unsupported') return na(missing('uaData'))
    const c = parseUserAgent(navigator.userAgent)
    const shouldHave = c.engine === 'blink' && (c.version ?? 0) >= 90 && securePage({ context, uaData })
    const page = pageEngine(engine)
    // What the page's engine makes of a Chrome claim without userAgentData.
    const runs =
      shouldHave && page.engine !== 'unknown'
        ? page.engine === 'blink'
          ? ': the page runs on V8 (Blink), so userAgentData was removed'
          : `: the page runs on ${ENGINE_NAME[page.engine]}, which has none, behind a User-Agent switched to Chrome`
        : ''
    return {
      verdict: shouldHave ? 'fail' : 'pass',
      observed: `no userAgentData; User-Agent claims ${c.family} ${c.version ?? ''}`.trim() + runs,
      expected: shouldHave ? `navigator.userAgentData, which every Chromium 90+ has in secure contexts (${page.basis})` : 'no userAgentData outside Chromium or secure contexts',
    }
  },
})
