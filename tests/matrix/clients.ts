// The automated clients of the detection matrix. Each opens /tools/bot-detector the way that
// tool is normally used and returns the task id the page put in <body data-task>; run.ts
// fetches the task through the API. All use Debian's Chromium (CHROMIUM_PATH overrides).

import { spawn } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import { createServer, type AddressInfo } from 'node:net'
import { newInjectedContext } from 'fingerprint-injector'
import { chromium as patchright } from 'patchright-core'
import { chromium as playwright } from 'playwright-core'
import puppeteerCore, { type Page as PuppeteerPage } from 'puppeteer-core'
import { addExtra } from 'puppeteer-extra'
import StealthPlugin from 'puppeteer-extra-plugin-stealth'
import { Builder, By, Capabilities, until, type WebDriver } from 'selenium-webdriver'
import chrome from 'selenium-webdriver/chrome.js'
import type { Expected } from './report'
import { sleep, startXvfb, stopGroup, type Display } from './xvfb'
import { exitedWithOutput } from '../support/exited'

export interface MatrixContext {
  /** http://127.0.0.1:<port>/tools/bot-detector on the server run.ts started. */
  pageUrl: string
  /** The service's plain-HTTP address, for the operator API and the keyed fetches. */
  baseUrl: string
  /**
   * Where pages are opened when it is not baseUrl: the HTTPS origin (https://localhost:<TLS_PORT>)
   * when the matrix runs its visitors over TLS. pageUrl is on it too.
   */
  pageOrigin?: string
  adminToken: string
  /** What the matrix's servers start with (their certificate), for a client that starts an instance of its own. */
  serverEnv?: Record<string, string>
  chromium: string
  chromedriver: string
  /** A fresh directory for this client (profiles, logs); run.ts removes it. */
  dir: string
  /** How long to wait for data-task. */
  timeoutMs: number
}

export interface Client {
  name: string
  expected: Expected
  /** Frameworks the results must name (the point of the client). */
  mustName?: string[]
  /** Not run unless named on the command line: a class the service is known not to catch yet (docs/matrix.md says which and why). */
  optIn?: boolean
  /** Checks that must fail or warn on its task (the point of the client, e.g. the proxy's tls-interception warning). */
  mustFind?: string[]
  /** The transports mustFind holds on (default: both). */
  mustFindOver?: ReadonlyArray<'https' | 'http'>
  /** Opens the page and returns its task id. */
  run(ctx: MatrixContext): Promise<string>
  /**
   * Caught only by what its pointer input shows (input-pacing): a run in which its moves did not
   * reach the page steadily enough to judge (the check `na`, as on a loaded machine) tried the
   * scenario, not the detection, and is run again (run.ts, at most three attempts).
   */
  judgedOnInput?: boolean
}

/** Flags for the browsers the matrix controls: quiet (loopback only), no sandbox as root. */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
]

/** Where the other engines' browsers are (FIREFOX_PATH, EPIPHANY_PATH, MINIBROWSER_PATH override). */
export const BROWSER_PATHS = {
  firefox: process.env.FIREFOX_PATH || '/usr/bin/firefox-esr',
  epiphany: process.env.EPIPHANY_PATH || '/usr/bin/epiphany-browser',
  minibrowser: process.env.MINIBROWSER_PATH || '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser',
}

/**
 * WebKitGTK's web process runs in a bubblewrap sandbox, which cannot start as root in this
 * container (the web process crashes at once); WEBKIT_DISABLE_SANDBOX_THIS_IS_DANGEROUS is the
 * WebKitGTK equivalent of Chromium's --no-sandbox and, like it, changes nothing a page can read.
 * https://webkitgtk.org/reference/webkit2gtk/stable/enum.SandboxMode.html
 */
export const WEBKIT_ENV: Record<string, string> = process.getuid?.() === 0 ? { WEBKIT_DISABLE_SANDBOX_THIS_IS_DANGEROUS: '1' } : {}

/**
 * How a person's Chromium starts here (person.ts says why each flag is harmless): a fresh profile,
 * no first-run tab, no calls to Google; --no-sandbox only as root.
 */
export function chromiumLaunchArgs(profile: string): string[] {
  const rootOnly = process.getuid?.() === 0 ? ['--no-sandbox'] : []
  return [...rootOnly, `--user-data-dir=${profile}`, '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync']
}

/** Turns off Blink's AutomationControlled feature: navigator.webdriver stays false. */
const NO_AUTOMATION_CONTROLLED = '--disable-blink-features=AutomationControlled'

const READY = 'body[data-task], body[data-error]'

function taskOrThrow(task: string | null | undefined, status: string | null | undefined): string {
  if (task) return task
  throw new Error(`the page reported an error: ${status?.trim() || 'no status'}`)
}

/** What playwrightTask uses of a page: Playwright's and patchright's pages both have it. */
export interface TaskPage {
  goto(url: string): Promise<unknown>
  waitForSelector(selector: string, options: { state: 'attached'; timeout: number }): Promise<unknown>
  locator(selector: string): { getAttribute(name: string): Promise<string | null>; textContent(): Promise<string | null> }
}

/** Runs `fn` with a fresh Xvfb display, stopped afterwards. */
async function onXvfb<T>(fn: (display: Display) => Promise<T>): Promise<T> {
  const xvfb = await startXvfb()
  try {
    return await fn(xvfb)
  } finally {
    await xvfb.stop()
  }
}

export async function playwrightTask(page: TaskPage, ctx: Pick<MatrixContext, 'pageUrl' | 'timeoutMs'>): Promise<string> {
  await page.goto(ctx.pageUrl)
  await page.waitForSelector(READY, { state: 'attached', timeout: ctx.timeoutMs })
  return taskOrThrow(await page.locator('body').getAttribute('data-task'), await page.locator('#status').textContent())
}

async function puppeteerTask(page: PuppeteerPage, ctx: MatrixContext): Promise<string> {
  await page.goto(ctx.pageUrl)
  const body = await page.waitForSelector(READY, { timeout: ctx.timeoutMs })
  const [task, status] = await body!.evaluate((b) => [b.dataset.task, document.getElementById('status')?.textContent] as const)
  return taskOrThrow(task, status)
}

/** Playwright with its default launch (headless), optionally with an init script in every page. */
async function withPlaywright(ctx: MatrixContext, initScript?: () => void): Promise<string> {
  const browser = await playwright.launch({ executablePath: ctx.chromium, headless: true, args: CHROMIUM_FLAGS })
  try {
    const context = await browser.newContext()
    if (initScript) await context.addInitScript(initScript)
    return await playwrightTask(await context.newPage(), ctx)
  } finally {
    await browser.close()
  }
}

export const playwrightClient: Client = {
  name: 'Playwright (playwright-core, headless)',
  expected: 'bot',
  run: (ctx) => withPlaywright(ctx),
}

export const puppeteerClient: Client = {
  name: 'Puppeteer (puppeteer-core, headless)',
  expected: 'bot',
  async run(ctx) {
    const browser = await puppeteerCore.launch({ executablePath: ctx.chromium, headless: true, args: CHROMIUM_FLAGS, userDataDir: `${ctx.dir}/profile` })
    try {
      return await puppeteerTask(await browser.newPage(), ctx)
    } finally {
      await browser.close()
    }
  },
}

export const stealthClient: Client = {
  name: 'puppeteer-extra + stealth plugin (headless)',
  expected: 'bot',
  async run(ctx) {
    const pptr = addExtra(puppeteerCore as unknown as Parameters<typeof addExtra>[0])
    pptr.use(StealthPlugin())
    const browser = await pptr.launch({ executablePath: ctx.chromium, headless: true, args: CHROMIUM_FLAGS, userDataDir: `${ctx.dir}/profile` })
    try {
      return await puppeteerTask((await browser.newPage()) as unknown as PuppeteerPage, ctx)
    } finally {
      await browser.close()
    }
  },
}

/** What a stealthy script does without the stealth plugin: a visible window, no automation flag. */
export const puppeteerHeadfulClient: Client = {
  name: 'Puppeteer headful on Xvfb, --enable-automation dropped, AutomationControlled off',
  expected: 'bot',
  run: (ctx) =>
    onXvfb(async (xvfb) => {
      const browser = await puppeteerCore.launch({
        executablePath: ctx.chromium,
        headless: false,
        defaultViewport: null,
        ignoreDefaultArgs: ['--enable-automation'],
        args: [...CHROMIUM_FLAGS, NO_AUTOMATION_CONTROLLED],
        userDataDir: `${ctx.dir}/profile`,
        env: { ...process.env, DISPLAY: xvfb.display },
      })
      try {
        return await puppeteerTask(await browser.newPage(), ctx)
      } finally {
        await browser.close()
      }
    }),
}

/** chromedriver driving Chromium with `args`; `display` runs it headful on that X display. */
async function withSelenium(ctx: MatrixContext, args: string[], display?: Display): Promise<string> {
  const options = new chrome.Options()
  options.setChromeBinaryPath(ctx.chromium)
  options.addArguments(...args, ...CHROMIUM_FLAGS, `--user-data-dir=${ctx.dir}/profile`)
  const service = new chrome.ServiceBuilder(ctx.chromedriver).setPort(0)
  if (display) {
    // What undetected set-ups do: no --enable-automation (the infobar, navigator.webdriver).
    options.excludeSwitches('enable-automation')
    service.setEnvironment({ ...(process.env as Record<string, string>), DISPLAY: display.display })
  }
  const driver = await new Builder().forBrowser('chrome').setChromeOptions(options).setChromeService(service).build()
  try {
    await driver.get(ctx.pageUrl)
    const body = await driver.wait(until.elementLocated(By.css(READY)), ctx.timeoutMs)
    return taskOrThrow(await body.getAttribute('data-task'), await driver.findElement(By.id('status')).getText())
  } finally {
    await driver.quit()
  }
}

export const seleniumClient: Client = {
  name: 'Selenium WebDriver + chromedriver (headless)',
  expected: 'bot',
  run: (ctx) => withSelenium(ctx, ['--headless']),
}

export const seleniumHeadfulClient: Client = {
  name: 'Selenium WebDriver headful on Xvfb, enable-automation excluded, AutomationControlled off',
  expected: 'bot',
  run: (ctx) => onXvfb((xvfb) => withSelenium(ctx, [NO_AUTOMATION_CONTROLLED], xvfb)),
}

/** A free loopback port for a driver that takes its port on the command line (also tests/support/engines.ts). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer()
    srv.once('error', reject)
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as AddressInfo
      srv.close(() => resolve(port))
    })
  })
}

/**
 * WebKitGTK driven as its WebDriver documentation says: Debian's WebKitWebDriver (package
 * webkit2gtk-driver) starts WebKitGTK's MiniBrowser with --automation and Selenium talks to the
 * driver; MiniBrowser has a window, so it runs on Xvfb. https://webkitgtk.org/reference/webkit2gtk/stable/class.WebView.html#automation
 */
export const seleniumWebKitClient: Client = {
  name: 'Selenium WebDriver + WebKitWebDriver driving WebKitGTK MiniBrowser on Xvfb',
  expected: 'bot',
  run: (ctx) =>
    onXvfb(async (xvfb) => {
      const port = await freePort()
      const driver = spawn(process.env.WEBKIT_WEBDRIVER_PATH || 'WebKitWebDriver', [`--port=${port}`], {
        env: { ...process.env, ...WEBKIT_ENV, DISPLAY: xvfb.display },
        stdio: 'ignore',
        detached: true,
      })
      try {
        const capabilities = new Capabilities({ browserName: 'MiniBrowser', 'webkitgtk:browserOptions': { binary: BROWSER_PATHS.minibrowser, args: ['--automation'] } })
        let session: WebDriver | undefined
        for (let i = 0; !session; i++) {
          session = await new Builder().usingServer(`http://127.0.0.1:${port}`).withCapabilities(capabilities).build().catch(async (e) => {
            if (i >= 40) throw e
            await sleep(250)
            return undefined
          })
        }
        try {
          await session.get(ctx.pageUrl)
          const body = await session.wait(until.elementLocated(By.css(READY)), ctx.timeoutMs)
          return taskOrThrow(await body.getAttribute('data-task'), await session.findElement(By.id('status')).getText())
        } finally {
          await session.quit()
        }
      } finally {
        await stopGroup(driver)
      }
    }),
}

/** patchright (Playwright patched not to enable Runtime, no automation switches) headless, with a Chrome user agent. */
export const patchrightClient: Client = {
  name: 'patchright-core headless, AutomationControlled off, Chrome user agent on the context',
  expected: 'bot',
  async run(ctx) {
    const browser = await patchright.launch({ executablePath: ctx.chromium, headless: true, args: [...CHROMIUM_FLAGS, NO_AUTOMATION_CONTROLLED] })
    try {
      const context = await browser.newContext({ userAgent: HEADFUL_UA })
      return await playwrightTask(await context.newPage(), ctx)
    } finally {
      await browser.close()
    }
  },
}

/** patchright as its README recommends: a persistent profile, a real window, no viewport emulation. */
export const patchrightHeadfulClient: Client = {
  name: 'patchright-core headful on Xvfb (persistent profile, no viewport), AutomationControlled off',
  expected: 'bot',
  // No Runtime.enable, scripts in isolated worlds, no webdriver flag, a real window: caught by
  // Playwright's --disable-features=ThirdPartyStoragePartitioning (storage-partitioning).
  run: (ctx) =>
    onXvfb(async (xvfb) => {
      const context = await patchright.launchPersistentContext(`${ctx.dir}/profile`, {
        executablePath: ctx.chromium,
        headless: false,
        viewport: null,
        args: [...CHROMIUM_FLAGS, NO_AUTOMATION_CONTROLLED],
        env: { ...process.env, DISPLAY: xvfb.display },
      })
      try {
        return await playwrightTask(context.pages()[0] ?? (await context.newPage()), ctx)
      } finally {
        await context.close()
      }
    }),
}

/**
 * puppeteer-real-browser: chrome-launcher's default switches plus AutomationControlled off,
 * rebrowser-puppeteer-core (no Runtime.enable) connected over the debugging port, on the
 * Xvfb display it starts itself (the xvfb package; Debian's Xvfb binary).
 */
export const realBrowserClient: Client = {
  name: 'puppeteer-real-browser connect() (chrome-launcher + rebrowser patches), headful on its own Xvfb',
  expected: 'bot',
  async run(ctx) {
    const { connect } = await import('puppeteer-real-browser')
    // chrome-launcher writes its logs into the profile directory and expects it to exist.
    mkdirSync(`${ctx.dir}/profile`, { recursive: true })
    const { browser, page } = await connect({
      headless: false,
      customConfig: { chromePath: ctx.chromium, userDataDir: `${ctx.dir}/profile` },
      connectOption: { defaultViewport: null },
    })
    try {
      return await puppeteerTask(page as unknown as PuppeteerPage, ctx)
    } finally {
      await browser.close()
    }
  },
}

/** Apify's fingerprint-injector: a generated fingerprint of `browser` on `os` injected into a Playwright context on Chromium. */
export async function injectedFingerprint<T>(
  ctx: Pick<MatrixContext, 'chromium'>,
  os: 'windows' | 'macos',
  use: (page: () => Promise<TaskPage & { close(): Promise<void> }>) => Promise<T>,
  browserName: 'chrome' | 'firefox' = 'chrome',
): Promise<T> {
  const browser = await playwright.launch({ executablePath: ctx.chromium, headless: true, args: CHROMIUM_FLAGS })
  try {
    const context = await newInjectedContext(browser as unknown as Parameters<typeof newInjectedContext>[0], {
      fingerprintOptions: { devices: ['desktop'], operatingSystems: [os], browsers: [browserName] },
    })
    return await use(() => context.newPage())
  } finally {
    await browser.close()
  }
}

export const fingerprintInjectorClient: Client = {
  name: 'Playwright + fingerprint-injector (Windows Chrome fingerprint, newInjectedContext), headless',
  expected: 'bot',
  run: (ctx) => injectedFingerprint(ctx, 'windows', async (newPage) => playwrightTask(await newPage(), ctx)),
}

export const phantomClient: Client = {
  name: 'PhantomJS globals (Playwright page with callPhantom/_phantom)',
  expected: 'bot',
  mustName: ['phantomjs'],
  // PhantomJS itself is not packaged any more; what a page sees of it is these globals.
  run: (ctx) =>
    withPlaywright(ctx, () => {
      const phantom = { version: { major: 2, minor: 1, patch: 1 } }
      Object.assign(window, { callPhantom: function callPhantom() {}, _phantom: phantom, phantom })
    }),
}

/** Runs a program, returns its stdout; kills its process group after `ms`. */
function runProgram(cmd: string, args: string[], ms: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true })
    let out = ''
    let err = ''
    child.stdout.on('data', (d: Buffer) => (out += d.toString()))
    child.stderr.on('data', (d: Buffer) => (err += d.toString()))
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL')
      } catch {}
      reject(new Error(`${cmd} did not finish in ${ms} ms`))
    }, ms)
    child.on('error', (e) => {
      clearTimeout(timer)
      reject(e)
    })
    void exitedWithOutput(child).then(({ code }) => {
      clearTimeout(timer)
      if (code === 0) resolve(out)
      else reject(new Error(`${cmd} exited with ${code}: ${err.split('\n').filter(Boolean).slice(-3).join(' | ')}`))
    })
  })
}

/** Debian's Chromium 156 as a person's browser sends it. */
const HEADFUL_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36'

function dumpDom(ctx: MatrixContext, extra: string[]): Promise<string> {
  // No DevTools client at all: Chromium loads the page, lets it run for up to 20 s of virtual
  // time (fast-forwarded while the page is idle), and prints the DOM, with data-task in it.
  return runProgram(
    ctx.chromium,
    ['--headless', ...CHROMIUM_FLAGS, `--user-data-dir=${ctx.dir}/profile`, ...extra, '--virtual-time-budget=20000', '--dump-dom', ctx.pageUrl],
    ctx.timeoutMs + 30_000,
  ).then((dom) => {
    const body = /<body\b[^>]*>/.exec(dom)?.[0] ?? ''
    const task = /\sdata-task="([^"]+)"/.exec(body)?.[1]
    return taskOrThrow(task, /id="status"[^>]*>([^<]*)/.exec(dom)?.[1] ?? 'no data-task in the dumped DOM')
  })
}

export const dumpDomClient: Client = {
  name: 'chromium --headless --dump-dom (no driver)',
  expected: 'bot',
  run: (ctx) => dumpDom(ctx, []),
}

/** The same with the HeadlessChrome token replaced: only what headless is, not what it says. */
export const dumpDomUaClient: Client = {
  name: 'chromium --headless --dump-dom with a Chrome user agent (no driver)',
  expected: 'bot',
  run: (ctx) => dumpDom(ctx, [`--user-agent=${HEADFUL_UA}`]),
}
