// navigator.webdriver: the flag the WebDriver spec makes browsers raise under automation, and
// the shape stealth tools leave when they hide it.
// https://w3c.github.io/webdriver/#dom-navigatorautomationinformation-webdriver

import type { BotDetectorSignals } from '../../common/signals/bot-detector'
import { ENGINE_NAME } from '../../common/engine-errors'
import { checkOn } from './define'
import { pageEngine } from './page-engine'

const botCheck = checkOn<BotDetectorSignals>()

export const webdriverFlag = botCheck({
  id: 'webdriver-flag',
  name: 'navigator.webdriver is not true',
  found: 'navigator.webdriver is true',
  source: 'client',
  why: "Browsers set navigator.webdriver to true when a WebDriver or CDP client controls them (--enable-automation, chromedriver, geckodriver, Playwright, Puppeteer), as the WebDriver spec requires. A person's browser never shows true.",
  ref: 'https://w3c.github.io/webdriver/#dom-navigatorautomationinformation-webdriver',
  needs: ['webdriver'],
  uses: ['iframe', 'worker'],
  judge: ({ webdriver: wd, iframe, worker }) => {
    const contexts = [['page', wd.value], ['iframe', iframe?.webdriver], ['worker', worker?.webdriver]].filter(([, v]) => v === true).map(([k]) => k)
    return {
      verdict: contexts.length ? 'fail' : 'pass',
      observed: `navigator.webdriver = ${wd.value ?? 'absent'}${contexts.length ? ` (true in: ${contexts.join(', ')})` : ''}`,
      expected: 'false (or absent) in the page, an iframe and a worker',
      labels: contexts.length ? ['webdriver'] : [],
    }
  },
})

export const webdriverDescriptor = botCheck({
  id: 'webdriver-descriptor',
  name: 'navigator.webdriver is defined natively',
  found: 'navigator.webdriver is redefined, deleted or not native',
  source: 'client',
  why: 'The flag is a native getter on Navigator.prototype in Chromium, Firefox and Safari. Stealth tools hide it by redefining that getter, by adding an own property to navigator, or by deleting it; each leaves this shape behind. A getter missing altogether counts only on V8 and SpiderMonkey, told by the page\'s error messages rather than the user agent (older WebKit builds lack it). Extensions do not touch this flag, so false positives are unlikely.',
  needs: ['webdriver'],
  uses: ['engine'],
  judge: ({ webdriver: wd, engine: e }) => {
    const { engine, basis } = pageEngine(e)
    const problems: string[] = []
    if (wd.ownProperties.includes('webdriver')) problems.push('own property on the navigator instance')
    if (wd.proto === 'value') problems.push('a data property on Navigator.prototype instead of a getter')
    if (wd.proto === 'getter' && wd.getterNative === false) problems.push('the getter on Navigator.prototype is not native code')
    if (wd.proto === 'missing' && (engine === 'blink' || engine === 'gecko')) problems.push(`deleted from Navigator.prototype on ${ENGINE_NAME[engine]}, which defines it`)
    return {
      verdict: problems.length ? 'fail' : 'pass',
      observed: problems.length ? problems : wd.proto === 'getter' ? 'native getter on Navigator.prototype' : `not defined (${wd.proto})`,
      // Only a missing getter is judged by the engine: say which one it was.
      expected: `a native getter on Navigator.prototype, no own property on navigator${wd.proto === 'missing' ? ` (${engine === 'blink' || engine === 'gecko' ? `${ENGINE_NAME[engine]} defines it` : 'a missing getter is judged only on V8 and SpiderMonkey'}; ${basis})` : ''}`,
      labels: problems.length ? ['stealth'] : [],
    }
  },
})
