// Browsers cap history.replaceState floods (Chromium's NavigationRateLimiter; Safari throws);
// Playwright's and Puppeteer's default --disable-ipc-flooding-protection lifts Chromium's cap.
// Only Blink's cap convicts, judged by the engine that really runs the page (its error
// messages, common/engine-errors.ts), not by the user agent: Firefox ESR 153 applies all 210
// calls of the probe with no flag at all (issue 11: a Firefox person came out `suspicious`).
// https://source.chromium.org/chromium/chromium/src/+/main:third_party/blink/renderer/core/frame/navigation_rate_limiter.cc

import type { BotDetectorSignals } from '../../common/signals/bot-detector'
import { ENGINE_NAME } from '../../common/engine-errors'
import { checkOn, na } from './define'
import { pageEngine } from './page-engine'

export const navigationRateLimit = checkOn<BotDetectorSignals>()({
  id: 'navigation-rate-limit',
  name: 'The browser caps history floods',
  found: 'the browser lets history floods through',
  source: 'client',
  why: 'Chromium stops applying history.replaceState after 200 calls in 10 s and Safari throws after 100 in 30 s. Chromium lifts the cap only when started with --disable-ipc-flooding-protection, one of the default launch arguments of Playwright and Puppeteer, so a call past the 200th that sticks on a V8 (Blink) engine means a browser they launched, headful or headless, whatever else was patched. The engine is told by its error messages, not by the user agent. Firefox (SpiderMonkey) lets every call stick as shipped (Firefox ESR 153), so on other engines an uncapped flood is not applicable. A person who starts Chromium with that flag by hand is the known false positive.',
  ref: 'https://source.chromium.org/chromium/chromium/src/+/main:third_party/blink/renderer/core/frame/navigation_rate_limiter.cc',
  needs: ['navRate'],
  uses: ['engine'],
  judge: ({ navRate: nr, engine: e }) => {
    if (nr.calls <= 200) return na(`only ${nr.calls} calls made; Chromium's cap is 200`)
    const uncapped = nr.error === null && nr.accepted === nr.calls && nr.lastApplied === nr.calls
    const { engine, basis } = pageEngine(e)
    const observed = `${nr.accepted} of ${nr.calls} replaceState calls returned; history.state is call ${nr.lastApplied ?? 'none'}'s${nr.error ? `; stopped by ${nr.error}` : ''}`
    if (uncapped && engine !== 'blink') return na(`all ${nr.calls} calls stuck on ${ENGINE_NAME[engine]}; only Blink's cap is lifted by a launch flag (Firefox applies every call as shipped); ${basis}`)
    return {
      verdict: uncapped ? 'fail' : 'pass',
      observed,
      expected: `the browser stops applying them after its cap (200 calls in Chromium); ${basis}`,
      labels: uncapped ? ['automation-flags'] : [],
    }
  },
})
