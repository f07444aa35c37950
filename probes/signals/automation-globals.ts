// Names automation frameworks leave in the page's main world. The probe lists every candidate
// it finds; the judge says which framework each one belongs to.
// - chromedriver: `cdc_adoQpoasnfa76pfcZLmcfl_Array|Promise|Symbol|…` on window and
//   `$cdc_asdjflasutopfhvcZLmcfl_` on document (renamed to other 3-letter prefixes by
//   undetected-chromedriver, same length): https://source.chromium.org/chromium/chromium/src/+/main:chrome/test/chromedriver/js/call_function.js
// - Selenium and the old Firefox/IE drivers: `__webdriver_evaluate`, `__selenium_unwrapped`,
//   `__fxdriver_evaluate`, `__driver_evaluate`, `_Selenium_IDE_Recorder`, `calledSelenium`,
//   and `webdriver`/`selenium`/`driver` attributes on <html>.
// - Playwright: `__playwright__binding__` (exposeBinding/exposeFunction), `__pwInitScripts`,
//   `__playwright_*`. Puppeteer: `__puppeteer_*`, `puppeteer_*` bindings.
// - PhantomJS: `callPhantom`, `_phantom`, `phantom`; Nightmare `__nightmare`; Cypress
//   `Cypress`; Chrome's own automation `domAutomation`/`domAutomationController`; Watir.
// Own properties only: an element with id="phantom" would otherwise show up as a global.

import type { AutomationGlobals } from '../../common/signals/bot-detector'

const CANDIDATE =
  /^(?:\$?cdc_|\$?[a-zA-Z]{3}_[a-zA-Z0-9]{22}_|__(?:webdriver|selenium|fxdriver|driver|playwright|pw|puppeteer|nightmare|lastWatir|phantomas)|_(?:selenium|Selenium_IDE_Recorder|WEBDRIVER_ELEM_CACHE|phantom)|puppeteer_|(?:callPhantom|phantom|callSelenium|calledSelenium|domAutomation|domAutomationController|webdriver|Cypress|awesomium|cefsharp|geb)$)/

const names = (o: object) => Object.getOwnPropertyNames(o).filter((n) => CANDIDATE.test(n)).slice(0, 20)

export function automationGlobals(): AutomationGlobals {
  const root = document.documentElement
  return {
    window: names(window),
    document: names(document),
    attributes: ['webdriver', 'selenium', 'driver'].filter((a) => root?.hasAttribute(a)),
  }
}
