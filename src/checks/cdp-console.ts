// A DevTools protocol client with the Runtime domain enabled makes console calls serialise
// their arguments, which formats a logged Error's stack (and so calls Error.prepareStackTrace).
// https://chromedevtools.github.io/devtools-protocol/tot/Runtime/#method-enable

import type { BotDetectorSignals } from '../../common/signals/bot-detector'
import { checkOn, na } from './define'
import { pageEngine } from './page-engine'

export const cdpRuntime = checkOn<BotDetectorSignals>()({
  id: 'cdp-runtime',
  name: 'No DevTools protocol client listening',
  found: 'a DevTools protocol client is listening',
  source: 'client',
  why: "With the DevTools protocol's Runtime domain enabled (Puppeteer, Playwright, Selenium 4 CDP, undetected drivers), every console call is serialised for the client, which formats an Error's stack and calls Error.prepareStackTrace. Known false positive: a person with DevTools open on this page.",
  ref: 'https://chromedevtools.github.io/devtools-protocol/tot/Runtime/#method-enable',
  needs: ['cdp'],
  uses: ['engine'],
  judge: ({ cdp, engine: e }) => {
    // The DevTools protocol is Chromium's, and only V8 calls Error.prepareStackTrace; other
    // engines' consoles may read an error's own stack getter for their own logs.
    const { engine, basis } = pageEngine(e)
    if (engine !== 'blink') return na(`not applicable: only V8 (Blink) calls Error.prepareStackTrace (${basis})`)
    const fired = cdp.prepareStackTrace || cdp.stackGetter
    return {
      verdict: fired ? 'fail' : 'pass',
      observed: fired ? `console.debug(error) ${cdp.prepareStackTrace ? 'called Error.prepareStackTrace' : "read the error's stack getter"}` : "nothing read the logged error's stack",
      expected: `neither Error.prepareStackTrace nor the stack getter called by console.debug (${basis})`,
      labels: fired ? ['cdp'] : [],
    }
  },
})
