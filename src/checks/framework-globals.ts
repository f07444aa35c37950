// Globals and attributes automation frameworks leave in the page's main world
// (BotD src/detectors: distinctiveProperties, documentElementKeys).
// https://github.com/fingerprintjs/BotD/blob/main/src/sources/distinctive_properties.ts

import type { BotDetectorSignals } from '../../common/signals/bot-detector'
import { pageUserAgent } from './claimed-browser'
import { checkOn, type CheckEnv, type Outcome, type SignalValues } from './define'

type V = SignalValues<BotDetectorSignals>
const botCheck = checkOn<BotDetectorSignals>()
const REF = 'https://github.com/fingerprintjs/BotD/blob/main/src/sources/distinctive_properties.ts'

/** Which framework a global or document property name belongs to, or null. */
export function frameworkOfGlobal(name: string): string | null {
  if (/^__playwright|^__pwInitScripts$|^__pw_/.test(name)) return 'playwright'
  if (/^\$?cdc_|^\$?[a-zA-Z]{3}_[a-zA-Z0-9]{22}_|^__(?:webdriver|selenium|fxdriver|driver)|^_(?:selenium|Selenium_IDE_Recorder|WEBDRIVER_ELEM_CACHE)|^(?:callSelenium|calledSelenium|webdriver)$|^__lastWatir/.test(name)) return 'selenium'
  if (/^(?:callPhantom|_phantom|phantom|__phantomas)$/.test(name)) return 'phantomjs'
  if (/^__puppeteer|^puppeteer_/.test(name)) return 'puppeteer'
  if (name === '__nightmare') return 'nightmare'
  if (name === 'Cypress') return 'cypress'
  if (/^domAutomation/.test(name)) return 'chrome-automation'
  if (/^(?:awesomium|cefsharp|geb)$/.test(name)) return name
  return null
}

/** The traces found, by framework: globals, document properties, <html> attributes, PhantomJS in the user agent. */
export function tracesByFramework(globals: V['globals'] | undefined, userAgent: string): Map<string, string[]> {
  const by = new Map<string, string[]>()
  const add = (f: string, trace: string) => by.set(f, [...(by.get(f) ?? []), trace])
  if (globals) {
    for (const n of globals.window) {
      const f = frameworkOfGlobal(n)
      if (f) add(f, `window.${n}`)
    }
    for (const n of globals.document) {
      const f = frameworkOfGlobal(n)
      if (f) add(f, `document.${n}`)
    }
    for (const a of globals.attributes) add('selenium', `<html ${a}>`)
  }
  if (/PhantomJS/.test(userAgent)) add('phantomjs', 'PhantomJS in the user agent')
  return by
}

/** A check failing on the traces of the frameworks named. */
function tracesOf(frameworks: readonly string[], expected: string) {
  return ({ globals, navigator }: Partial<Pick<V, 'globals' | 'navigator'>>, { server, missing }: CheckEnv<BotDetectorSignals>): Outcome => {
    const by = tracesByFramework(globals, pageUserAgent(navigator, server))
    if (!globals && !by.size) return { verdict: 'na', observed: null, expected: missing('globals') }
    const found = frameworks.flatMap((n) => by.get(n) ?? [])
    const labels = frameworks.filter((n) => by.has(n)).map((n) => (n === 'chrome-automation' ? 'cdp' : n))
    return { verdict: found.length ? 'fail' : 'pass', observed: found.length ? found : 'none', expected, labels }
  }
}

export const playwrightGlobals = botCheck({
  id: 'playwright-globals',
  name: 'No Playwright globals',
  found: 'Playwright globals are present',
  source: 'client',
  why: "Playwright adds __playwright__binding__ for exposeFunction/exposeBinding and __pwInitScripts (and older __playwright_* names) to the page's main world. Nothing else defines them.",
  ref: REF,
  needs: [],
  uses: ['globals', 'navigator'],
  judge: tracesOf(['playwright'], 'no __playwright*, __pw* globals'),
})

export const seleniumGlobals = botCheck({
  id: 'selenium-globals',
  name: 'No Selenium or chromedriver traces',
  found: 'Selenium or chromedriver traces are present',
  source: 'client',
  why: 'chromedriver leaves cdc_…_Array/Promise/Symbol on window and $cdc_… on document (undetected-chromedriver renames the prefix, same length); Selenium IDE and the old drivers leave __webdriver_*, __selenium_*, __fxdriver_* and webdriver/selenium/driver attributes on <html>.',
  ref: REF,
  needs: [],
  uses: ['globals', 'navigator'],
  judge: tracesOf(['selenium'], 'no cdc_/$cdc_, __webdriver*, __selenium*, __fxdriver* names or driver attributes'),
})

export const phantomjsTraces = botCheck({
  id: 'phantomjs',
  name: 'No PhantomJS traces',
  found: 'PhantomJS traces are present',
  source: 'client',
  why: 'PhantomJS defines callPhantom, _phantom and phantom in every page and names itself in the User-Agent. Elements with id="phantom" are not counted: only own properties of window are.',
  ref: REF,
  needs: [],
  uses: ['globals', 'navigator'],
  judge: tracesOf(['phantomjs'], 'no callPhantom, _phantom, phantom'),
})

export const automationGlobals = botCheck({
  id: 'automation-globals',
  name: 'No other automation globals',
  found: 'globals of another automation tool are present',
  source: 'client',
  why: "Nightmare (__nightmare), Cypress (Cypress), Puppeteer bindings (__puppeteer_*, puppeteer_*), Chrome's domAutomation controller and embedded-browser kits (Awesomium, CefSharp, Geb) leave globals that browsers never define.",
  ref: REF,
  needs: [],
  uses: ['globals', 'navigator'],
  judge: tracesOf(['puppeteer', 'nightmare', 'cypress', 'chrome-automation', 'awesomium', 'cefsharp', 'geb'], 'no framework globals'),
})
