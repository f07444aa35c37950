// iframe.contentWindow: puppeteer-extra-plugin-stealth's iframe.contentWindow evasion returns
// a Proxy for srcdoc iframes, which differs from window[i].
// https://github.com/berstend/puppeteer-extra/tree/master/packages/puppeteer-extra-plugin-stealth/evasions/iframe.contentWindow

import type { BotDetectorSignals } from '../../common/signals/bot-detector'
import { checkOn } from './define'

export const iframeProxy = checkOn<BotDetectorSignals>()({
  id: 'iframe-proxy',
  name: 'iframe.contentWindow is the real window',
  found: 'iframe.contentWindow is a stand-in for the real window',
  source: 'client',
  why: "puppeteer-extra-plugin-stealth returns a Proxy for srcdoc iframes' contentWindow: it differs from window[i], its self is another object and the getter is JavaScript. Old headless also had no window.chrome inside iframes.",
  ref: 'https://github.com/berstend/puppeteer-extra/tree/master/packages/puppeteer-extra-plugin-stealth/evasions/iframe.contentWindow',
  expected: 'the same WindowProxy as window[i], with a native getter',
  needs: ['iframeProxy'],
  uses: ['chrome'],
  judge: ({ iframeProxy: ip, chrome }) => {
    const problems: string[] = []
    if (!ip.sameAsFrames) problems.push('contentWindow is not window[i]')
    if (!ip.selfIsWindow) problems.push('contentWindow.self is another object')
    if (!ip.getterNative) problems.push('the contentWindow getter is not native code')
    if (chrome?.present && ip.chrome === 'undefined') problems.push('window.chrome exists in the page but not in the iframe')
    return {
      verdict: problems.length ? 'fail' : 'pass',
      observed: problems.length ? problems : `the real window (chrome: ${ip.chrome})`,
      labels: problems.length ? ['stealth'] : [],
    }
  },
})
