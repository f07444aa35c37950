// navigator.userAgent, navigator.platform and navigator.userAgentData come from one build;
// overriding the user agent alone leaves the others telling another story.
// https://wicg.github.io/ua-client-hints/#interface

import type { BotDetectorSignals } from '../../common/signals/bot-detector'
import { uaHintMismatches, type Os } from '../../common/user-agent'
import { claimedBrowser } from './claimed-browser'
import { checkOn } from './define'
import { brandText } from './headless-markers'

/** navigator.platform values each claimed OS produces. iPadOS says MacIntel; Android says Linux armv8l/aarch64. */
const PLATFORMS: Partial<Record<Os, RegExp>> = {
  windows: /^Win/,
  mac: /^Mac/,
  linux: /^Linux|^X11|BSD/,
  android: /^Linux|^Android|^$/,
  ios: /^iP(?:hone|ad|od)|^MacIntel$/,
  chromeos: /^Linux|CrOS/,
}

export const uaConsistency = checkOn<BotDetectorSignals>()({
  id: 'ua-consistency',
  name: 'navigator.userAgent agrees with platform and userAgentData',
  found: 'navigator.userAgent contradicts platform or userAgentData',
  source: 'client',
  why: 'userAgent, platform and userAgentData come from the same build. Overriding the user agent (Puppeteer setUserAgent, UA switchers) without the rest leaves another OS in navigator.platform or another version/platform in the brands.',
  ref: 'https://wicg.github.io/ua-client-hints/#interface',
  expected: 'the OS, version and brand of the user agent in platform and userAgentData',
  needs: ['navigator'],
  judge: ({ navigator: nav }, { server }) => {
    const claimed = claimedBrowser(nav, server)
    const problems: string[] = []
    const re = PLATFORMS[claimed.os]
    if (re && !re.test(nav.platform)) problems.push(`the user agent claims ${claimed.os}, navigator.platform is "${nav.platform}"`)
    if (nav.uaData) problems.push(...uaHintMismatches(claimed, { brands: nav.uaData.brands, platform: nav.uaData.platform, mobile: nav.uaData.mobile }))
    return {
      verdict: problems.length ? 'fail' : 'pass',
      observed: problems.length ? problems : `platform "${nav.platform}"${nav.uaData ? `, userAgentData ${nav.uaData.platform} ${brandText(nav.uaData.brands)}` : ''}`,
    }
  },
})
