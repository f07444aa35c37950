// navigator.webdriver and how it is defined. WebDriver and CDP automation (--enable-automation,
// chromedriver, Playwright, Puppeteer) set it to true: https://w3c.github.io/webdriver/#interface
// Stealth tools hide it in one of three ways, each visible here: a getter redefined on
// Navigator.prototype (no longer native code), an own property on the navigator instance
// (`Object.defineProperty(navigator, 'webdriver', …)`, where engines define none), or the
// property deleted from the prototype (puppeteer-extra-plugin-stealth before 2.7). Chromium's
// --disable-blink-features=AutomationControlled leaves a native getter returning false, which
// only the other checks (CDP, iframe, worker) can catch.

import type { WebdriverFlag } from '../../common/signals/bot-detector'
import { isNativeFunction } from './native'

export function webdriverFlag(): WebdriverFlag {
  const d = Object.getOwnPropertyDescriptor(Navigator.prototype, 'webdriver')
  const v = (navigator as Navigator & { webdriver?: unknown }).webdriver
  return {
    value: typeof v === 'boolean' ? v : null,
    present: 'webdriver' in navigator,
    ownProperties: Object.getOwnPropertyNames(navigator).slice(0, 20),
    proto: !d ? 'missing' : d.get ? 'getter' : 'value',
    getterNative: d?.get ? isNativeFunction(d.get, 'webdriver') : null,
  }
}
