// The people of the detection matrix: a headful browser on a virtual X display (Debian's Xvfb),
// started with the page's URL and nothing that automates it — no --remote-debugging-*, no
// --enable-automation, no Marionette, no driver, a fresh profile. Nothing touches the page,
// before or after it submits: the page does not tell us its task id, so the task is found
// through the operator API (GET /api/admin/tasks), as the newest bot-detector task that was
// not there before. Each person is one set-up for the one launcher below.
//
// Chromium flags, and why each is here: --no-sandbox only when running as root (Chromium
// refuses to start otherwise; the page cannot see it: the sandbox restricts the renderer's
// system calls, not what the web platform exposes), --user-data-dir for a fresh profile,
// --no-first-run so no welcome tab opens next to ours, and the three that keep a fresh profile
// from calling Google (background networking, component updates, sync), since the matrix makes
// loopback traffic only. None of them changes what the page sees.
// Firefox ESR: a fresh profile directory (--profile, --no-remote so it never hands the URL to
// another running Firefox) whose user.js only keeps it off the network and quiet (FIREFOX_PREFS).
// What stays as it is on this machine and must not cost a person the `human` verdict:
// SwiftShader or llvmpipe instead of a GPU, no window manager or taskbar (the screen's available
// area is all of it), a UTC time zone, no audio or video devices.

import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { BROWSER_PATHS, chromiumLaunchArgs, WEBKIT_ENV, type Client, type MatrixContext } from './clients'
import { TOOLS } from '../../common/tools'
import { startHand } from './hand'
import { reload, typeAddress, windowTitles } from './keyboard'
import { sleep, startXvfb, stopGroup } from './xvfb'

export { BROWSER_PATHS }

/** What a person needs besides the automation clients' context: the other engines' browsers. */
export interface PersonContext extends MatrixContext {
  firefox: string
  /** WebKit browsers: GNOME Web (Debian's epiphany-browser) and WebKitGTK's MiniBrowser. */
  epiphany: string
  minibrowser: string
}

/** A person of the matrix, and the browser it needs (run.ts checks that it is installed). */
export interface Person extends Omit<Client, 'run'> {
  browser: 'chromium' | 'firefox' | 'webkit'
  /** How this person's browser starts on `url`, with a fresh profile in `profile`. */
  launch(ctx: PersonContext, url: string, profile: string): Launch
  run(ctx: PersonContext): Promise<string>
  /**
   * What this person's machine has beside the browser (an intercepting proxy, proxy-people.ts):
   * runs `use` with it set up, on a context that carries it, and takes it down after. `run` does
   * it itself; the tools matrix wraps each walk in it.
   */
  around?<T>(ctx: PersonContext, use: (ctx: PersonContext) => Promise<T>): Promise<T>
}

async function listTaskIds(ctx: MatrixContext, tool: string): Promise<string[]> {
  const res = await fetch(`${ctx.baseUrl}/api/admin/tasks?tool=${tool}&limit=100`, { headers: { authorization: `Bearer ${ctx.adminToken}` } })
  if (res.status !== 200) throw new Error(`GET /api/admin/tasks answered ${res.status}: ${await res.text()}`)
  return ((await res.json()) as Array<{ task_id: string }>).map((t) => t.task_id)
}

/** How one person's browser starts: the program, its arguments, extra environment. */
export interface Launch {
  program: string
  args: string[]
  env?: Record<string, string>
  /** Moves the system pointer and scrolls while the page runs, as a person's hand would (./hand.ts). */
  hand?: boolean
}

/** Starts the browser on a fresh Xvfb display and returns the bot-detector task it submitted. */
export async function runPerson(ctx: MatrixContext, what: string, launch: Launch): Promise<string> {
  const xvfb = await startXvfb()
  try {
    return await visit(ctx, what, launch, 'bot-detector', xvfb.display)
  } finally {
    await xvfb.stop()
  }
}

/** The browser ended before its page submitted a task: it never ran the page, so nothing was judged. */
class BrowserExited extends Error {}

/** How a person reaches a page after the first: typing its address, or reloading the one shown. */
export type Step = { tool: string; how: 'type' } | { tool: string; how: 'reload' }

/** A step's `tool` that means the run page (/run): every tool in one visit. */
export const RUN_PAGE = 'run'
/** The tool the run page stores last (probes/entries/run.ts: bot-detector first, then the tools' order). */
const RUN_LAST = TOOLS.at(-1)!.id

/** What browsing /run gave: each tool's task id (a tool missing: it stored none). */
export interface RunTasks {
  run: Record<string, string>
}

/**
 * Starts the browser on `display` as `launch` says (on one tool's page), waits for the task of
 * `tool` it submits, stops the browser and returns the task id. A browser that exits before
 * its page submits is started once more: that is the machine failing it, not the page judging
 * it (seen once in a full tools matrix: GTK's "cannot open display" from a MiniBrowser on an
 * Xvfb that served its next pages; cause not found), and a person would simply open it again.
 * A second exit, or no task in time, is reported as it is.
 */
export async function visit(ctx: MatrixContext, what: string, launch: Launch, tool: string, display: string): Promise<string> {
  const [first] = await browse(ctx, what, launch, tool, [], display)
  if (first instanceof Error) throw first
  if (typeof first !== 'string') throw new Error(`${what}: a run where a page was expected`)
  return first
}

/**
 * A person browsing: the browser starts on `tool`'s page (as `visit`), then each step in turn in
 * the same browser — the next page's address typed into the address bar, or a reload (F5), by
 * the keyboard (./keyboard.ts) — each waited for until its page has submitted its task. Returns
 * one task id per page in order; a step whose task did not come is its Error, and the steps
 * after it are not taken (the browser is in no known state). The browser is stopped at the end.
 * A step to RUN_PAGE types the run page's address and gives every tool's task of that run.
 */
export async function browse(
  ctx: MatrixContext,
  what: string,
  launch: Launch,
  tool: string,
  steps: readonly Step[],
  display: string,
  hooks: { beforeStep?(step: Step): Promise<Step> } = {},
): Promise<Array<string | Error | RunTasks>> {
  const before = new Set(await listTaskIds(ctx, tool))
  let session: BrowserSession
  try {
    session = await openBrowser(ctx, what, launch, tool, display, before)
  } catch (e) {
    if (!(e instanceof BrowserExited)) return [errorOf(e)]
    console.error(`matrix: ${what} on ${tool}: ${e.message}; starting it once more`)
    try {
      session = await openBrowser(ctx, what, launch, tool, display, before)
    } catch (e2) {
      return [errorOf(e2)]
    }
  }
  const tasks: Array<string | Error | RunTasks> = [session.task]
  try {
    for (const planned of steps) {
      const step = hooks.beforeStep ? await hooks.beforeStep(planned) : planned
      const label = `${what}, ${step.how === 'type' ? 'typed' : 'reloaded'} ${step.tool}`
      if (step.tool === RUN_PAGE) {
        try {
          tasks.push(await runPage(ctx, session, display, label))
        } catch (e) {
          tasks.push(new Error(`${errorOf(e).message} (windows: ${(await windowTitles(display)).map((t) => JSON.stringify(t)).join(', ') || 'none'})`))
          break
        }
        continue
      }
      const seen = new Set(await listTaskIds(ctx, step.tool))
      const address = `${ctx.pageOrigin ?? ctx.baseUrl}/tools/${step.tool}`
      try {
        if (step.how === 'type') await typeAddress(display, address)
        else await reload(display)
        tasks.push(await session.next(step.tool, seen, label).catch(async (e: unknown) => {
          // Typed, and the browser never showed the page (its window's title names the page it
          // is on): the keys did not make that address, so the person types it again, once. A
          // page that was shown and did not submit is the page's failure, reported as it is.
          if (step.how !== 'type' || (await showing(display, step.tool)) || e instanceof BrowserExited) throw e
          console.error(`matrix: ${label}: the browser did not go there (windows: ${(await windowTitles(display)).join(' | ')}); typing it again`)
          await typeAddress(display, address)
          return await session.next(step.tool, seen, `${label} (typed again)`)
        }))
      } catch (e) {
        // What the browser showed then: its window's title names the page it was on.
        const titles = await windowTitles(display)
        tasks.push(new Error(`${errorOf(e).message} (windows: ${titles.map((t) => JSON.stringify(t)).join(', ') || 'none'})`))
        break
      }
    }
  } finally {
    await session.stop()
  }
  return tasks
}

const errorOf = (e: unknown) => (e instanceof Error ? e : new Error(String(e)))

/**
 * The person types the run page's address and waits until it has stored its last tool's task;
 * every task the server did not have before is the run's (a lane's server has one visitor at
 * a time). Typed again, once, when the browser never showed the page.
 */
async function runPage(ctx: MatrixContext, session: BrowserSession, display: string, label: string): Promise<RunTasks> {
  const seen = new Map(await Promise.all(TOOLS.map(async (t) => [t.id, new Set(await listTaskIds(ctx, t.id))] as const)))
  const address = `${ctx.pageOrigin ?? ctx.baseUrl}/${RUN_PAGE}`
  await typeAddress(display, address)
  await session.next(RUN_LAST, seen.get(RUN_LAST)!, label).catch(async (e: unknown) => {
    if (e instanceof BrowserExited || (await windowTitles(display)).some((t) => t.includes(`${RUN_TITLE} · Antibot`))) throw e
    console.error(`matrix: ${label}: the browser did not go there (windows: ${(await windowTitles(display)).join(' | ')}); typing it again`)
    await typeAddress(display, address)
    return await session.next(RUN_LAST, seen.get(RUN_LAST)!, `${label} (typed again)`)
  })
  const run: Record<string, string> = {}
  for (const t of TOOLS) {
    const fresh = (await listTaskIds(ctx, t.id)).find((id) => !seen.get(t.id)!.has(id))
    if (fresh) run[t.id] = fresh
  }
  return { run }
}

/** The run page's title (src/pages/run.tsx). */
const RUN_TITLE = 'Every test in one run'

/** Whether a window of the display shows `tool`'s page (its title, `<tool title> · Antibot`). */
async function showing(display: string, tool: string): Promise<boolean> {
  const title = TOOLS.find((t) => t.id === tool)?.title
  return title !== undefined && (await windowTitles(display)).some((t) => t.includes(`${title} · Antibot`))
}

interface BrowserSession {
  /** The first page's task. */
  task: string
  /** Waits for a task of `tool` not in `before`. */
  next(tool: string, before: ReadonlySet<string>, what: string): Promise<string>
  stop(): Promise<void>
}

async function openBrowser(ctx: MatrixContext, what: string, launch: Launch, tool: string, display: string, before: ReadonlySet<string>): Promise<BrowserSession> {
  let browser: ChildProcess | undefined
  let hand: ChildProcess | undefined
  const stop = async () => {
    if (hand) await stopGroup(hand)
    if (browser) await stopGroup(browser)
  }
  try {
    let log = ''
    browser = spawn(launch.program, launch.args, { env: { ...process.env, ...launch.env, DISPLAY: display }, stdio: ['ignore', 'ignore', 'pipe'], detached: true })
    if (launch.hand) hand = startHand(display)
    browser.stderr!.on('data', (d: Buffer) => (log = (log + d.toString()).slice(-4000)))
    const b = browser
    const next = async (tool: string, seen: ReadonlySet<string>, label: string): Promise<string> => {
      const started = Date.now()
      // Browser start-up on a loaded 2-core machine takes a few seconds on top of the page's run.
      while (Date.now() - started < ctx.timeoutMs + 20_000) {
        // The task first: a browser that submitted and then exited did run its page.
        const fresh = (await listTaskIds(ctx, tool)).find((id) => !seen.has(id))
        if (fresh) return fresh
        if (b.exitCode !== null) throw new BrowserExited(`${label} exited with ${b.exitCode}: ${log.trim().split('\n').slice(-3).join(' | ')}`)
        await sleep(250)
      }
      throw new Error(`no new ${tool} task from ${label} within ${Math.round((Date.now() - started) / 1000)} s`)
    }
    const task = await next(tool, before, what)
    return { task, next, stop }
  } catch (e) {
    await stop()
    throw e
  }
}

export function chromiumArgs(url: string, profile: string, extra: string[] = []): string[] {
  return [...chromiumLaunchArgs(profile), ...extra, url]
}

/**
 * user.js of the Firefox people: no first-run or what's-new pages, no telemetry, studies, update,
 * remote settings, Safe Browsing, captive-portal or add-on traffic. None changes what a page can
 * read (no fingerprinting, language, media or network-stack prefs).
 * https://searchfox.org/mozilla-esr140/source/remote/shared/RecommendedPreferences.sys.mjs lists the same kind.
 */
export const FIREFOX_PREFS: Record<string, string | number | boolean> = {
  'browser.shell.checkDefaultBrowser': false,
  'browser.startup.homepage_override.mstone': 'ignore',
  'startup.homepage_welcome_url': '',
  'startup.homepage_welcome_url.additional': '',
  'browser.aboutwelcome.enabled': false,
  'trailhead.firstrun.didSeeAboutWelcome': true,
  'datareporting.policy.dataSubmissionEnabled': false,
  'datareporting.policy.dataSubmissionPolicyBypassNotification': true,
  'datareporting.healthreport.uploadEnabled': false,
  'toolkit.telemetry.enabled': false,
  'toolkit.telemetry.unified': false,
  'toolkit.telemetry.server': '',
  'toolkit.telemetry.reportingpolicy.firstRun': false,
  'app.update.auto': false,
  'app.update.checkInstallTime': false,
  'app.normandy.enabled': false,
  'app.normandy.api_url': '',
  'app.shield.optoutstudies.enabled': false,
  'services.settings.server': 'data:,#remote-settings-dummy/v1',
  'browser.safebrowsing.malware.enabled': false,
  'browser.safebrowsing.phishing.enabled': false,
  'browser.safebrowsing.downloads.enabled': false,
  'browser.safebrowsing.blockedURIs.enabled': false,
  'browser.safebrowsing.provider.mozilla.updateURL': '',
  'browser.safebrowsing.provider.google4.updateURL': '',
  'network.captive-portal-service.enabled': false,
  'network.connectivity-service.enabled': false,
  'captivedetect.canonicalURL': '',
  'extensions.update.enabled': false,
  'extensions.getAddons.cache.enabled': false,
  'extensions.systemAddon.update.enabled': false,
  'media.gmp-manager.updateEnabled': false,
  'browser.newtabpage.activity-stream.feeds.topsites': false,
  'browser.newtabpage.activity-stream.feeds.section.topstories': false,
  'browser.newtabpage.activity-stream.feeds.system.topstories': false,
  'browser.topsites.contile.enabled': false,
  'browser.region.update.enabled': false,
  'browser.region.network.url': '',
  'browser.search.update': false,
  'browser.discovery.enabled': false,
  'extensions.pocket.enabled': false,
  'browser.ping-centre.telemetry': false,
  'browser.translations.automaticallyPopup': false,
}

/**
 * Firefox enterprise policies of the machine the people run on, beside the test CA
 * (tests/matrix/transports.ts installs both): Debian's Privacy Badger, installed system-wide by the
 * gate for the content-blocker person and so active in every Firefox profile here, opens its
 * welcome tab a few seconds after a fresh profile's first start, in front of the page; the
 * address a person typed next then loaded in a tab that was no longer shown, where its page
 * never ran (seen in the tools matrix). Its documented managed setting turns the tab off, as an
 * administrator would; nothing a page can read changes.
 */
export const FIREFOX_POLICIES: Record<string, unknown> = {
  '3rdparty': { Extensions: { 'jid1-MnnxcxisBPnSXQ@jetpack': { showIntroPage: false } } },
}

export function firefoxLaunch(ctx: PersonContext, url: string, profile: string, prefs: Record<string, string | number | boolean> = {}): Launch {
  mkdirSync(profile, { recursive: true })
  const userJs = Object.entries({ ...FIREFOX_PREFS, ...prefs }).map(([k, v]) => `user_pref(${JSON.stringify(k)}, ${JSON.stringify(v)});`)
  writeFileSync(`${profile}/user.js`, `${userJs.join('\n')}\n`)
  return { program: ctx.firefox, args: ['--profile', profile, '--no-remote', url] }
}

/**
 * GNOME Web with a fresh profile of its own, and fresh settings: its preferences (GSettings) go
 * to a key file in the profile instead of the desktop's dconf, so `settings` are what a person
 * would have chosen in Preferences, e.g. `{ 'org/gnome/epiphany/web': { language: "['fr-FR', 'fr']" } }`.
 */
function epiphanyLaunch(ctx: PersonContext, url: string, profile: string, settings: Record<string, Record<string, string>> = {}, env: Record<string, string> = {}): Launch {
  const config = `${profile}/config`
  mkdirSync(`${config}/glib-2.0/settings`, { recursive: true })
  const keyfile = Object.entries(settings).map(([group, keys]) => `[${group}]\n${Object.entries(keys).map(([k, v]) => `${k}=${v}\n`).join('')}`)
  writeFileSync(`${config}/glib-2.0/settings/keyfile`, keyfile.join('\n'))
  return {
    program: 'dbus-run-session',
    args: ['--', ctx.epiphany, '--private-instance', `--profile=${profile}/web`, url],
    env: { ...WEBKIT_ENV, GSETTINGS_BACKEND: 'keyfile', XDG_CONFIG_HOME: config, ...env },
  }
}

/**
 * The browsers' versions for a matrix's heading. MiniBrowser prints WebKitGTK's, but only once
 * GTK has a display, hence xvfb-run (Debian's xvfb package has it).
 */
export function browserVersions(chromium: string, engines: ReadonlySet<Person['browser']>): string {
  const run = (program: string, args: string[]) => execFileSync(program, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()
  const versionOf = (program: string) => run(program, ['--version'])
  return [
    versionOf(chromium),
    ...(engines.has('firefox') ? [versionOf(BROWSER_PATHS.firefox)] : []),
    ...(engines.has('webkit') ? [`GNOME ${versionOf(BROWSER_PATHS.epiphany)} on ${run('xvfb-run', ['-a', BROWSER_PATHS.minibrowser, '--version'])}`] : []),
  ].join(', ')
}

/** A person: its launch, and its bot-detector run for the detection matrix. */
function person(name: string, browser: Person['browser'], launch: Person['launch']): Person {
  return { name, expected: 'human', browser, launch, run: (ctx) => runPerson(ctx, browser, launch(ctx, ctx.pageUrl, `${ctx.dir}/profile`)) }
}

/** The matrix's people, by id: run.ts lists them with the automation clients. */
export const PEOPLE: Record<string, Person> = {
  person: person('Person: headful Chromium on Xvfb, no automation', 'chromium', (ctx, url, profile) => ({ program: ctx.chromium, args: chromiumArgs(url, profile) })),
  'person-de': person('Person: headful Chromium on Xvfb, German (de-DE, Europe/Berlin), 1100×800 window at 40,60', 'chromium', (ctx, url, profile) => ({
    program: ctx.chromium,
    args: chromiumArgs(url, profile, ['--lang=de-DE', '--window-size=1100,800', '--window-position=40,60']),
    env: { LANG: 'de_DE.UTF-8', LANGUAGE: 'de_DE.UTF-8', TZ: 'Europe/Berlin' },
  })),
  // Beyond the issue's people: a high-density screen in dark mode, and Firefox in German.
  'person-hidpi': person('Person: headful Chromium on Xvfb, device scale factor 2 (a HiDPI laptop), dark mode', 'chromium', (ctx, url, profile) => ({
    program: ctx.chromium,
    args: chromiumArgs(url, profile, ['--force-device-scale-factor=2', '--force-dark-mode']),
  })),
  'person-firefox': person('Person: Firefox ESR on Xvfb, fresh default profile', 'firefox', (ctx, url, profile) => firefoxLaunch(ctx, url, profile)),
  'person-firefox-rfp': person('Person: Firefox ESR on Xvfb, fresh profile with privacy.resistFingerprinting', 'firefox', (ctx, url, profile) =>
    firefoxLaunch(ctx, url, profile, { 'privacy.resistFingerprinting': true }),
  ),
  'person-firefox-de': person('Person: Firefox ESR on Xvfb, German (de-DE first in its languages, Europe/Berlin)', 'firefox', (ctx, url, profile) => ({
    ...firefoxLaunch(ctx, url, profile, { 'intl.accept_languages': 'de-DE, de, en-US, en', 'intl.locale.requested': 'de-DE,en-US' }),
    env: { LANG: 'de_DE.UTF-8', LANGUAGE: 'de_DE.UTF-8', TZ: 'Europe/Berlin' },
  })),
  // People whose hand is on the mouse (issue 25): the system pointer moves along curves and the
  // wheel scrolls while the page runs (xdotool on the Xvfb display, ./hand.ts), the controls for
  // every check on input.
  'person-hand': person('Person: headful Chromium on Xvfb, moving the mouse and scrolling while the page runs', 'chromium', (ctx, url, profile) => ({
    program: ctx.chromium,
    args: chromiumArgs(url, profile),
    hand: true,
  })),
  'person-firefox-hand': person('Person: Firefox ESR on Xvfb, moving the mouse and scrolling while the page runs', 'firefox', (ctx, url, profile) => ({
    ...firefoxLaunch(ctx, url, profile),
    hand: true,
  })),
  // Content blockers (issue 25): Debian's uBlock Origin and Privacy Badger, installed system-wide
  // (webext-ublock-origin-firefox, webext-privacy-badger), enabled as the person would on first
  // start: Firefox loads the system scope and enables its add-ons without asking.
  'person-firefox-blockers': person('Person: Firefox ESR on Xvfb with uBlock Origin and Privacy Badger (Debian packages)', 'firefox', (ctx, url, profile) =>
    firefoxLaunch(ctx, url, profile, { 'extensions.enabledScopes': 15, 'extensions.autoDisableScopes': 0 }),
  ),
  // WebKit, the third engine (issue 28): GNOME Web as installed; GNOME Web with French, then
  // English, chosen in its preferences (the whole list goes into Accept-Language, only fr-FR into
  // navigator.languages: WebKit exposes the primary language alone) on Paris time; and WebKitGTK's own MiniBrowser in
  // dark mode with Intelligent Tracking Prevention on (Safari's default) and a cookie file of its own.
  'person-webkit': person('Person: GNOME Web (WebKitGTK) on Xvfb, fresh profile', 'webkit', (ctx, url, profile) => epiphanyLaunch(ctx, url, profile)),
  'person-webkit-fr': person('Person: GNOME Web (WebKitGTK) on Xvfb, French then English in its preferences (fr-FR, fr, en), Europe/Paris', 'webkit', (ctx, url, profile) =>
    epiphanyLaunch(ctx, url, profile, { 'org/gnome/epiphany/web': { language: "['fr-FR', 'fr', 'en']" } }, { TZ: 'Europe/Paris' }),
  ),
  'person-webkit-mini': person('Person: WebKitGTK MiniBrowser on Xvfb, dark mode, Intelligent Tracking Prevention on', 'webkit', (ctx, url, profile) => {
    mkdirSync(profile, { recursive: true })
    return {
      program: ctx.minibrowser,
      args: ['--enable-itp', '--dark-mode', `--cookies-file=${profile}/cookies.sqlite`, url],
      // A desktop session sets LANG; under the bare POSIX locale WebKitGTK reports the language "C".
      env: { ...WEBKIT_ENV, LANG: 'en_US.UTF-8', XDG_DATA_HOME: `${profile}/data`, XDG_CACHE_HOME: `${profile}/cache` },
    }
  }),
}
