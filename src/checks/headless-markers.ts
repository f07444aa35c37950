// Headless Chromium names itself: "HeadlessChrome" in the user agent (page, worker, header)
// and, in Chromium 112–131, among navigator.userAgentData.brands.
// https://developer.chrome.com/docs/chromium/headless

import type { Brand } from '../../common/user-agent'
import type { BotDetectorSignals } from '../../common/signals/bot-detector'
import { header } from '../core/tools/observation'
import { checkOn, na } from './define'

const botCheck = checkOn<BotDetectorSignals>()
const HEADLESS = /Headless/i
const REF = 'https://developer.chrome.com/docs/chromium/headless'

export const brandText = (b: readonly Brand[]) => b.map((x) => `${x.brand}/${x.version}`).join(', ')

export const headlessUa = botCheck({
  id: 'headless-ua',
  name: 'User agent does not say HeadlessChrome',
  found: 'the user agent says HeadlessChrome',
  source: 'client',
  why: 'Headless Chromium reports "HeadlessChrome/<version>" in navigator.userAgent unless the script overrides it. No headful browser does.',
  ref: REF,
  needs: ['navigator'],
  judge: ({ navigator: nav }) => {
    const hit = HEADLESS.test(nav.userAgent) || HEADLESS.test(nav.appVersion)
    return { verdict: hit ? 'fail' : 'pass', observed: nav.userAgent, expected: 'a user agent without "HeadlessChrome"', labels: hit ? ['headless'] : [] }
  },
})

export const headlessWorkerUa = botCheck({
  id: 'headless-worker-ua',
  name: 'Worker user agent does not say HeadlessChrome',
  found: 'a worker\'s user agent says HeadlessChrome',
  source: 'client',
  why: 'Overrides applied to the page (init scripts, older CDP overrides) often do not reach workers, whose navigator still says HeadlessChrome.',
  ref: REF,
  needs: ['worker'],
  judge: ({ worker }) => {
    const hit = HEADLESS.test(worker.userAgent)
    return { verdict: hit ? 'fail' : 'pass', observed: worker.userAgent, expected: 'a worker user agent without "HeadlessChrome"', labels: hit ? ['headless'] : [] }
  },
})

export const headlessBrands = botCheck({
  id: 'headless-brands',
  name: 'userAgentData brands do not name HeadlessChrome',
  found: 'userAgentData brands name HeadlessChrome',
  source: 'client',
  why: 'Headless Chromium 112–131 listed "HeadlessChrome" among navigator.userAgentData.brands; a patched userAgent string often leaves it there.',
  needs: [],
  uses: ['navigator', 'worker'],
  judge: ({ navigator: nav, worker }, { missing }) => {
    const lists = [nav?.uaData ? brandText(nav.uaData.brands) : null, worker?.uaBrands ?? null].filter((x): x is string => x !== null)
    if (!lists.length) return na(nav ? 'no navigator.userAgentData (not Chromium, or not a secure context)' : missing('navigator'))
    const hit = lists.some((b) => HEADLESS.test(b))
    return { verdict: hit ? 'fail' : 'pass', observed: lists[0], expected: 'brands without "HeadlessChrome"', labels: hit ? ['headless'] : [] }
  },
})

export const headlessUaHeader = botCheck({
  id: 'headless-ua-header',
  name: 'User-Agent and Sec-CH-UA headers do not say HeadlessChrome',
  found: 'the User-Agent or Sec-CH-UA header says HeadlessChrome',
  source: 'server',
  why: 'Observed by the server on the request that carried the results: headless Chromium sends HeadlessChrome in its User-Agent header (and formerly in Sec-CH-UA) unless overridden at the network level.',
  ref: REF,
  needs: [],
  judge: (_, { server }) => {
    const secChUa = header(server, 'sec-ch-ua') ?? ''
    const hit = HEADLESS.test(server.userAgent) || HEADLESS.test(secChUa)
    return {
      verdict: hit ? 'fail' : 'pass',
      observed: `User-Agent: ${server.userAgent}${secChUa ? `; Sec-CH-UA: ${secChUa}` : ''}`,
      expected: 'no "HeadlessChrome" in either header',
      labels: hit ? ['headless'] : [],
    }
  },
})
