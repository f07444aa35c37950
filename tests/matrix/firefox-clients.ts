// Firefox automation in the detection matrix (issue 25): Firefox ESR driven by puppeteer-core
// over WebDriver BiDi, Puppeteer's Firefox protocol since version 23. Headless as Puppeteer
// starts it, and headful on Xvfb with navigator.webdriver hidden the way scraper authors do:
// a preload script (WebDriver BiDi's script.addPreloadScript, Puppeteer's
// evaluateOnNewDocument) that redefines the getter on Navigator.prototype to answer false,
// beside the `dom.webdriver.enabled` preference, which Firefox ESR 153 no longer honours.
// https://pptr.dev/guides/firefox-support

import puppeteerCore from 'puppeteer-core'
import { BROWSER_PATHS, type Client, type MatrixContext } from './clients'
import { startXvfb } from './xvfb'

const READY = 'body[data-task], body[data-error]'

async function firefoxBidi(ctx: MatrixContext, headless: boolean): Promise<string> {
  const xvfb = headless ? null : await startXvfb()
  try {
    const browser = await puppeteerCore.launch({
      browser: 'firefox',
      executablePath: BROWSER_PATHS.firefox,
      headless,
      defaultViewport: headless ? undefined : null,
      extraPrefsFirefox: headless ? {} : { 'dom.webdriver.enabled': false },
      env: { ...process.env, ...(xvfb ? { DISPLAY: xvfb.display } : {}) },
    })
    try {
      const page = await browser.newPage()
      if (!headless) await page.evaluateOnNewDocument(() => Object.defineProperty(Navigator.prototype, 'webdriver', { get: () => false, configurable: true }))
      await page.goto(ctx.pageUrl)
      const body = await page.waitForSelector(READY, { timeout: ctx.timeoutMs })
      const [task, status] = await body!.evaluate((b) => [(b as HTMLElement).dataset.task, document.getElementById('status')?.textContent] as const)
      if (!task) throw new Error(`the page reported an error: ${status?.trim() || 'no status'}`)
      return task
    } finally {
      await browser.close()
    }
  } finally {
    await xvfb?.stop()
  }
}

export const firefoxBidiClient: Client = {
  name: 'Puppeteer (puppeteer-core) driving Firefox ESR over WebDriver BiDi, headless',
  expected: 'bot',
  run: (ctx) => firefoxBidi(ctx, true),
}

export const firefoxBidiHeadfulClient: Client = {
  name: 'Puppeteer driving Firefox ESR over WebDriver BiDi, headful on Xvfb, navigator.webdriver redefined by a preload script',
  expected: 'bot',
  run: (ctx) => firefoxBidi(ctx, false),
}
