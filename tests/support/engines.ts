// Firefox ESR and WebKitGTK driven for the gallery and the engines' accessibility test (issue
// 58): one browser per engine, its viewport set to a phone's or a desktop's size, pages opened
// and their report awaited, axe-core run in the page, the screen captured.
//
// Firefox ESR (Debian's) through puppeteer-core over WebDriver BiDi, headless, as the detection
// matrix drives it (tests/matrix/firefox-clients.ts): browsingContext.setViewport sets the
// viewport, browsingContext.captureScreenshot shoots it. GNOME Web (WebKitGTK) through
// WebKitWebDriver on Xvfb, as seleniumWebKitClient drives MiniBrowser (tests/matrix/clients.ts):
// WebDriver sets the window's size, so the window is sized until its web view is the size asked
// for; its screenshot is the web view's, as PNG.

import { spawn } from 'node:child_process'
import { chromium, type Browser as PlaywrightBrowser, type BrowserContext, type Page as PlaywrightPage } from 'playwright-core'
import puppeteerCore, { type Browser as PuppeteerBrowser, type Page as PuppeteerPage } from 'puppeteer-core'
import { Builder, Capabilities, type WebDriver } from 'selenium-webdriver'
import { BROWSER_PATHS, freePort, WEBKIT_ENV } from '../matrix/clients'
import { sleep, startXvfb, stopGroup, type Display } from '../matrix/xvfb'
import { AXE_OPTIONS, AXE_SOURCE } from './axe'

export type EngineName = 'chromium' | 'firefox' | 'webkit'
export interface Viewport {
  width: number
  height: number
}

/** A rule axe-core found broken, with up to three of the elements it found it on. */
export interface AxeViolation {
  id: string
  impact: string | null
  help: string
  targets: string[]
}

export interface Engine {
  name: EngineName
  /** The engine's own words for the gallery, e.g. "Firefox ESR 153". */
  label: string
  /** The viewport's size; `phone`: Chromium also emulates a phone (touch, mobile viewport). */
  setViewport(size: Viewport, phone?: boolean): Promise<void>
  /** Opens `url` and waits (up to `timeoutMs`) until `selector` matches, if one is given. */
  goto(url: string, selector?: string, timeoutMs?: number): Promise<void>
  /** Waits until `selector` matches, through navigations (a form sent, a redirect). */
  waitFor(selector: string, timeoutMs?: number): Promise<void>
  /** Runs `body`, a function body that may `return` (and await) a JSON value, with `arg` as `arg`. */
  run<T>(body: string, arg?: unknown): Promise<T>
  /** Runs a classic script's source in the page (the driver's own evaluation, which no CSP stops). */
  inject(source: string): Promise<void>
  /** The visible screen as PNG (WebKit) or JPEG (Firefox, at `quality`). */
  screenshot(quality: number): Promise<{ type: 'png' | 'jpeg'; data: Buffer }>
  close(): Promise<void>
}

/** A tool page is ready once its report is in (or it says its tests could not be stored). */
export const REPORT_READY = 'section[aria-label="Results"], body[data-error]'
/** /run is ready once its overview shows (or it says the run is incomplete). */
export const RUN_READY = '#overview:not([hidden]), body[data-error]'


/** axe-core's serious and critical violations on the engine's current page (axe injected first if needed). */
export async function axeViolations(engine: Engine): Promise<AxeViolation[]> {
  const present = await engine.run<boolean>('return typeof window.axe === "object"')
  if (!present) await engine.inject(AXE_SOURCE)
  return engine.run<AxeViolation[]>(`
    const result = await window.axe.run(document, ${JSON.stringify(AXE_OPTIONS)})
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }))
  `)
}

/** The document's width against the viewport's: wider means a sideways scroll. */
export function widths(engine: Engine): Promise<{ scrollWidth: number; innerWidth: number }> {
  return engine.run('return { scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }')
}

/** Polls `selector` through `run`, which fails while a navigation replaces the document. */
async function poll(run: Engine['run'], selector: string, timeoutMs: number, what: string): Promise<void> {
  const end = Date.now() + timeoutMs
  for (;;) {
    if (await run<boolean>('return document.readyState !== "loading" && document.querySelector(arg) !== null', selector).catch(() => false)) return
    if (Date.now() > end) throw new Error(`${what}: nothing matched ${selector} in ${timeoutMs / 1000} s`)
    await sleep(200)
  }
}

/**
 * Words (runs of letters and digits, 2 to 20 of them) of headings, table headers, buttons,
 * badges and check names whose letters land on more than one line: "Attribut / e".
 */
export function splitWords(engine: Engine): Promise<string[]> {
  return engine.run(`
    const out = []
    for (const el of document.querySelectorAll('h1, h2, h3, th, button, .badge, .check-name, label')) {
      if (el.getClientRects().length === 0) continue
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT)
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (node.parentElement && node.parentElement.closest('code, pre')) continue
        for (const m of (node.textContent || '').matchAll(/[\\p{L}\\p{N}]{2,20}/gu)) {
          // One box per line the word's letters are on.
          const range = document.createRange()
          range.setStart(node, m.index)
          range.setEnd(node, m.index + m[0].length)
          const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)))
          if (lines.size > 1 && out.length < 10) out.push('"' + m[0] + '" in ' + el.tagName.toLowerCase() + [...el.classList].map((c) => '.' + c).join(''))
        }
      }
    }
    return out
  `)
}

export async function launchFirefox(): Promise<Engine> {
  const browser: PuppeteerBrowser = await puppeteerCore.launch({
    browser: 'firefox',
    executablePath: BROWSER_PATHS.firefox,
    headless: true,
    // No update checks, telemetry or first-run pages while shooting.
    // Scroll bars over the page, as GNOME's and a phone's are, not a strip taken from its width.
    extraPrefsFirefox: { 'browser.shell.checkDefaultBrowser': false, 'app.update.enabled': false, 'datareporting.policy.dataSubmissionEnabled': false, 'widget.gtk.overlay-scrollbars.enabled': true, 'ui.useOverlayScrollbars': 1 },
  })
  let page: PuppeteerPage
  try {
    page = await browser.newPage()
  } catch (e) {
    await browser.close()
    throw e
  }
  const version = (await browser.version()).replace(/^firefox\//i, '')
  const run = <T>(body: string, arg?: unknown) => page.evaluate(`(async (arg) => { ${body} })(${JSON.stringify(arg ?? null)})`) as Promise<T>
  return {
    name: 'firefox',
    label: `Firefox ESR ${version.split('.')[0]}`,
    // Firefox over BiDi has no phone emulation (no touch, no meta viewport): a phone is its width.
    setViewport: (size) => page.setViewport({ ...size, deviceScaleFactor: 1 }),
    async goto(url, selector, timeoutMs = 60_000) {
      await page.goto(url, { timeout: timeoutMs })
      if (selector) await poll(run, selector, timeoutMs, `Firefox on ${url}`)
    },
    waitFor: (selector, timeoutMs = 60_000) => poll(run, selector, timeoutMs, 'Firefox'),
    run,
    async inject(source) {
      await page.evaluate(`${source}\n;true`)
    },
    async screenshot(quality) {
      return { type: 'jpeg', data: Buffer.from(await page.screenshot({ type: 'jpeg', quality })) }
    },
    close: () => browser.close(),
  }
}

/**
 * GNOME Web (Epiphany) in its automation mode through WebKitWebDriver, in a D-Bus session of
 * its own on Xvfb. Not MiniBrowser: its toolbar keeps its window at least 447 px wide, while
 * GNOME Web's adaptive window narrows to a phone's width, as it does on one.
 */
export async function launchWebKit(): Promise<Engine> {
  const xvfb: Display = await startXvfb()
  const port = await freePort()
  const driver = spawn('dbus-run-session', ['--', process.env.WEBKIT_WEBDRIVER_PATH || 'WebKitWebDriver', `--port=${port}`], {
    env: { ...process.env, ...WEBKIT_ENV, LANG: 'en_US.UTF-8', GSETTINGS_BACKEND: 'memory', DISPLAY: xvfb.display },
    stdio: 'ignore',
    detached: true,
  })
  let session: WebDriver | undefined
  try {
    const capabilities = new Capabilities({ browserName: 'Epiphany', 'webkitgtk:browserOptions': { binary: BROWSER_PATHS.epiphany, args: ['--automation-mode'] } })
    for (let i = 0; !session; i++) {
      session = await new Builder()
        .usingServer(`http://127.0.0.1:${port}`)
        .withCapabilities(capabilities)
        .build()
        .catch(async (e) => {
          if (i >= 80) throw e
          await sleep(250)
          return undefined
        })
    }
  } catch (e) {
    await stopGroup(driver)
    await xvfb.stop()
    throw e
  }
  const s = session
  await s.manage().setTimeouts({ script: 120_000, pageLoad: 120_000 })
  const run = async <T>(body: string, arg?: unknown): Promise<T> => {
    // executeAsyncScript: the last argument is the callback; errors come back as { error }.
    const out = (await s.executeAsyncScript(
      `const done = arguments[arguments.length - 1]; (async (arg) => { ${body} })(arguments[0]).then((value) => done({ value }), (e) => done({ error: String(e && e.stack || e) }))`,
      arg ?? null,
    )) as { value?: T; error?: string }
    if (out.error) throw new Error(`in WebKitGTK: ${out.error}`)
    return out.value as T
  }
  const windowFor = new Map<string, { width: number; height: number }>()
  const inner = () => run<Viewport>('return { width: window.innerWidth, height: window.innerHeight }')
  return {
    name: 'webkit',
    label: 'GNOME Web (WebKitGTK)',
    async setViewport(size) {
      // GNOME Web has no phone emulation: a phone is its narrow window (GNOME Web's adaptive
      // layout, as on a Linux phone). The window holds the web view and GNOME Web's bars, which change as the window narrows:
      // size it, measure the web view, make up the difference, until the width is exact and the
      // height within a few pixels.
      // The window's size found for a web view's size is kept for the next time it is asked for.
      const key = `${size.width}x${size.height}`
      let rect = windowFor.get(key) ?? { width: size.width, height: size.height }
      let got = { width: 0, height: 0 }
      for (let i = 0; i < 8; i++) {
        await s.manage().window().setRect(rect)
        await sleep(100)
        got = await inner()
        if (got.width === size.width && Math.abs(got.height - size.height) <= 2) {
          windowFor.set(key, rect)
          return
        }
        rect = { width: rect.width + size.width - got.width, height: rect.height + size.height - got.height }
      }
      if (got.width !== size.width) throw new Error(`GNOME Web's web view is ${got.width}×${got.height}, not ${size.width}×${size.height}`)
    },
    async goto(url, selector, timeoutMs = 60_000) {
      await s.get(url)
      if (selector) await poll(run, selector, timeoutMs, `GNOME Web on ${url}`)
    },
    waitFor: (selector, timeoutMs = 60_000) => poll(run, selector, timeoutMs, 'GNOME Web'),
    run,
    async inject(source) {
      // WebDriver's Execute Script runs its text as a function body, outside the page's CSP
      // (an eval from run() is refused by the page's script-src).
      await s.executeScript(`${source}\n;return true`)
    },
    async screenshot() {
      return { type: 'png', data: Buffer.from(await s.takeScreenshot(), 'base64') }
    },
    async close() {
      // Quitting closes GNOME Web's last window, which WebKitWebDriver may then report as gone.
      await s.quit().catch(() => {})
      await stopGroup(driver)
      await xvfb.stop()
    },
  }
}

/** Debian's Chromium through Playwright, headless as the browser tests start it; a phone is emulated (touch, mobile viewport). */
export async function launchChromium(): Promise<Engine> {
  const browser: PlaywrightBrowser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
  })
  let context: BrowserContext | undefined
  let page: PlaywrightPage | undefined
  const current = () => {
    if (!page) throw new Error('Chromium: setViewport first')
    return page
  }
  const run = <T>(body: string, arg?: unknown) => current().evaluate(`(async (arg) => { ${body} })(${JSON.stringify(arg ?? null)})`) as Promise<T>
  return {
    name: 'chromium',
    label: `Chromium ${browser.version().split('.')[0]}`,
    async setViewport(size, phone = false) {
      // A new context per size: a phone's touch and mobile viewport are the context's. Its
      // cookies are carried over, so a session started at one size goes on at the next.
      const cookies = context ? await context.cookies() : []
      await context?.close()
      context = await browser.newContext({ viewport: size, deviceScaleFactor: 1, isMobile: phone, hasTouch: phone })
      if (cookies.length) await context.addCookies(cookies)
      page = await context.newPage()
    },
    async goto(url, selector, timeoutMs = 60_000) {
      await current().goto(url, { timeout: timeoutMs })
      if (selector) await poll(run, selector, timeoutMs, `Chromium on ${url}`)
    },
    waitFor: (selector, timeoutMs = 60_000) => poll(run, selector, timeoutMs, 'Chromium'),
    run,
    async inject(source) {
      await current().evaluate(`${source}\n;true`)
    },
    async screenshot(quality) {
      return { type: 'jpeg', data: await current().screenshot({ type: 'jpeg', quality }) }
    },
    close: () => browser.close(),
  }
}

export const launchEngine = (name: EngineName): Promise<Engine> => (name === 'chromium' ? launchChromium() : name === 'firefox' ? launchFirefox() : launchWebKit())
