// A user agent set over the DevTools protocol (Emulation.setUserAgentOverride, per target:
// Playwright's and patchright's `userAgent` option, Puppeteer's setUserAgent) reaches the page
// and the dedicated workers the client attaches to, but not shared workers, which belong to
// no page. Headless Chromium with a borrowed Chrome user agent still says "HeadlessChrome"
// there (patchright-core 1.63 headless in this project's matrix, issue 11).

import type { BotDetectorSignals } from '../../common/signals/bot-detector'
import { checkOn } from './define'

export const headlessSharedWorkerUa = checkOn<BotDetectorSignals>()({
  id: 'headless-shared-worker-ua',
  name: 'Shared worker user agent does not say HeadlessChrome',
  found: 'a shared worker\'s user agent says HeadlessChrome',
  source: 'client',
  why: 'A user agent overridden over the DevTools protocol is set per target and never reaches a SharedWorker, whose navigator in headless Chromium still says "HeadlessChrome". No headful browser names itself so; a person has no way to get a headless shared worker. Not applicable where SharedWorker is missing (Chrome on Android, some private modes).',
  ref: 'https://chromedevtools.github.io/devtools-protocol/tot/Emulation/#method-setUserAgentOverride',
  expected: 'a shared worker user agent without "HeadlessChrome"',
  needs: ['sharedWorker'],
  judge: ({ sharedWorker }) => {
    const hit = /Headless/i.test(sharedWorker.userAgent)
    return { verdict: hit ? 'fail' : 'pass', observed: sharedWorker.userAgent, labels: hit ? ['headless'] : [] }
  },
})
