// What tools leave in the request itself: a User-Agent naming a headless browser or an HTTP
// library, and headers that only automation tools and proxies add.

import type { HttpHeadersSignals } from '../../common/signals/http-headers'
import { brandsClaim, parseUserAgent } from '../../common/user-agent'
import { hintsFromHeaders } from './client-hints'
import { checkOn } from './define'

const check = checkOn<HttpHeadersSignals>()

export const uaAutomation = check({
  id: 'ua-automation',
  name: 'User-Agent names a browser, not a headless one or a library',
  found: 'the User-Agent names a headless browser or an HTTP library',
  source: 'server',
  why: 'HeadlessChrome, PhantomJS, Electron, curl, python-requests, Go, Java and crawler names in the User-Agent header say outright that no person is browsing. Headless Chromium keeps "HeadlessChrome" unless the script overrides it. No false positives beyond deliberate testing.',
  needs: [],
  judge: (_, { server }) => {
    const claimed = parseUserAgent(server.userAgent)
    const brands = hintsFromHeaders(server).brands
    const automated = claimed.headless || claimed.family === 'tool' || (brands !== null && brandsClaim(brands).headless)
    return { verdict: automated ? 'fail' : 'pass', observed: server.userAgent || '(none)', expected: 'a browser User-Agent, without HeadlessChrome, PhantomJS, Electron or an HTTP library name' }
  },
})

const TOOL_HEADERS = [/^x-devtools-/, /^x-playwright/, /^x-puppeteer/, /^x-selenium/, /^postman-token$/, /^x-crawlera/, /^x-scrapy/, /^x-zyte/]

export const automationHeaders = check({
  id: 'automation-headers',
  name: 'No headers added by automation tools',
  found: 'headers added by an automation tool are present',
  source: 'server',
  why: 'Some tools add headers of their own: X-DevTools-Emulate-Network-Conditions-Client-Id (older Chrome under DevTools/Puppeteer network emulation), Postman-Token, scraping-proxy headers. No browser sends them on its own.',
  needs: [],
  judge: (_, { server }) => {
    const found = server.headers.map(([n]) => n).filter((n) => TOOL_HEADERS.some((re) => re.test(n)))
    return { verdict: found.length ? 'fail' : 'pass', observed: found.length ? found : 'none', expected: 'no tool-specific headers' }
  },
})
