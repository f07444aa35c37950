// Browsers cap history.replaceState floods (Chromium's NavigationRateLimiter, Firefox and
// Safari throw); Playwright's and Puppeteer's default --disable-ipc-flooding-protection lifts
// Chromium's cap.
// https://source.chromium.org/chromium/chromium/src/+/main:third_party/blink/renderer/core/frame/navigation_rate_limiter.cc

import type { BotDetectorSignals } from '../../common/signals/bot-detector'
import { checkOn, na } from './define'

export const navigationRateLimit = checkOn<BotDetectorSignals>()({
  id: 'navigation-rate-limit',
  name: 'The browser caps history floods',
  source: 'client',
  why: 'Browsers stop applying history.replaceState after 200 calls in 10 s (Chromium, Firefox) or 100 in 30 s (Safari). Chromium lifts the cap only when started with --disable-ipc-flooding-protection, one of the default launch arguments of Playwright and Puppeteer, so a 400th call that sticks means a browser they launched, headful or headless, whatever else was patched. A person who starts Chromium with that flag by hand is the known false positive.',
  ref: 'https://source.chromium.org/chromium/chromium/src/+/main:third_party/blink/renderer/core/frame/navigation_rate_limiter.cc',
  needs: ['navRate'],
  judge: ({ navRate: nr }) => {
    if (nr.calls < 250) return na(`only ${nr.calls} calls made; the caps start at 100–200`)
    const uncapped = nr.error === null && nr.accepted === nr.calls && nr.lastApplied === nr.calls
    return {
      verdict: uncapped ? 'fail' : 'pass',
      observed: `${nr.accepted} of ${nr.calls} replaceState calls returned; history.state is call ${nr.lastApplied ?? 'none'}'s${nr.error ? `; stopped by ${nr.error}` : ''}`,
      expected: 'the browser stops applying them after its cap (100–200 calls)',
      labels: uncapped ? ['automation-flags'] : [],
    }
  },
})
