// docs/gallery.md and its screenshots (docs/gallery/): the home page, /run, every tool page, the
// docs and the dashboard with a key, as a visitor sees them in three engines — Debian's Chromium
// (headless, through Playwright), Firefox ESR (headless, over WebDriver BiDi) and GNOME Web
// (WebKitGTK, through WebKitWebDriver on Xvfb): tests/support/engines.ts — on a phone (390×844)
// and on a desktop (1280×900). Each page's first screen once its report is in, a tool page
// scrolled to its report so that the headline and the picture show. JPEG at modest quality,
// device scale 1, to keep the files small in git.
//
// axe-core runs on every page in every engine at both sizes; the run prints each serious or
// critical violation, every page wider than its screen and every word of a heading, table
// header, button or badge split across lines, and exits non-zero if there was one.
// `npm run docs:gallery`; GALLERY_ENGINES=firefox,webkit shoots only those (the rest of
// docs/gallery/ is kept), GALLERY_PAGES=home,dashboard only those pages (by their file names'
// first part); GALLERY_PNG=<dir> also writes each shot there as PNG.

import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { chromium } from 'playwright-core'
import { TOOLS } from '../../common/tools'
import { axeViolations, launchEngine, REPORT_READY, RUN_READY, splitWords, widths, type Engine, type EngineName } from '../support/engines'
import { startServer } from '../support/server'
import { uniqueEmail } from '../support/unique'

const DIR = new URL('../../docs/gallery/', import.meta.url).pathname
const SIZES = {
  phone: { width: 390, height: 844 },
  desktop: { width: 1280, height: 900 },
} as const
type Size = keyof typeof SIZES
const QUALITY = 50
const ALL_ENGINES: EngineName[] = ['chromium', 'firefox', 'webkit']
const ENGINES = (process.env.GALLERY_ENGINES?.split(',') as EngineName[] | undefined) ?? ALL_ENGINES
const ENGINE_WORDS: Record<EngineName, string> = { chromium: 'Chromium', firefox: 'Firefox ESR', webkit: 'GNOME Web' }
const SIZE_WORDS: Record<Size, string> = { phone: 'on a phone (390×844)', desktop: 'on a desktop (1280×900)' }

interface Shot {
  id: string
  title: string
  path: string
  /** What shows the page is ready: its report, the run's overview, the keys. */
  ready: string
  /** What to scroll to the top of the screen (a tool's report, the dashboard's keys). */
  scrollTo?: string
}

const SHOTS: Shot[] = [
  { id: 'home', title: 'Home', path: '/', ready: 'main' },
  { id: 'run', title: 'All tools in one visit', path: '/run', ready: RUN_READY },
  ...TOOLS.map((t) => ({ id: t.id, title: t.title, path: `/tools/${t.id}`, ready: REPORT_READY, scrollTo: 'section[aria-label="Results"]' })),
  { id: 'docs', title: 'API docs', path: '/docs', ready: 'main' },
  { id: 'dashboard', title: 'Dashboard with a key', path: '/dashboard', ready: '#keys-panel', scrollTo: '#keys-panel' },
]

const ONLY = process.env.GALLERY_PAGES?.split(',')
const TAKEN = ONLY ? SHOTS.filter((s) => ONLY.includes(s.id)) : SHOTS

const server = await startServer()
const problems: string[] = []
const written: string[] = []
const pngs: Array<{ file: string; data: Buffer }> = []

/** Signs up, logs in and makes a key, through the pages' own forms; the session cookie stays in the browser. */
async function signUpAndMakeKey(engine: Engine): Promise<void> {
  const email = uniqueEmail(`gallery-${engine.name}`)
  const password = 'a long enough password'
  const fill = (form: string, values: Record<string, string>) =>
    engine.run(
      `const form = document.querySelector(arg.form)
       for (const [id, value] of Object.entries(arg.values)) document.getElementById(id).value = value
       setTimeout(() => form.requestSubmit(), 0)
       return true`,
      { form, values },
    )
  await engine.goto(`${server.baseUrl}/signup`, 'form[action="/signup"]')
  await fill('form[action="/signup"]', { email, password })
  await engine.waitFor('form[action="/login"] #password:not([aria-invalid])')
  await fill('form[action="/login"]', { password })
  await engine.waitFor('#keys-panel')
  await fill('form.create-key', { 'key-name': 'a key with a rather long name to wrap' })
  await engine.waitFor('#new-key-secret')
}

async function shoot(engine: Engine, size: Size, shot: Shot): Promise<void> {
  await engine.goto(`${server.baseUrl}${shot.path}`, shot.ready, 120_000)
  const what = `${shot.path} in ${ENGINE_WORDS[engine.name]} ${size}`
  if (await engine.run<boolean>('return document.body.dataset.error !== undefined')) problems.push(`${what}: the page says its tests could not be stored`)
  for (const v of await axeViolations(engine)) problems.push(`${what}: axe ${v.id} (${v.impact}): ${v.help} — ${v.targets.join(' | ')}`)
  // Against the screen's width too: Chromium's emulated phone widens its layout viewport
  // (innerWidth) to content that overflows.
  const w = await widths(engine)
  const screen = Math.min(w.innerWidth, SIZES[size].width)
  if (w.scrollWidth > screen) problems.push(`${what}: ${w.scrollWidth} px wide on a ${screen} px screen`)
  for (const word of await splitWords(engine)) problems.push(`${what}: a word split across lines: ${word}`)
  // The top of the report (or the keys) at the top of the screen, the page's title just above
  // it on a desktop; other pages from their top.
  await engine.run(
    `const el = arg.selector && document.querySelector(arg.selector)
     window.scrollTo(0, el ? el.getBoundingClientRect().top + window.scrollY - arg.above : 0)
     await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))
     return true`,
    { selector: shot.scrollTo ?? null, above: size === 'phone' ? 8 : 120 },
  )
  const file = `${shot.id}-${engine.name}-${size}.jpg`
  const picture = await engine.screenshot(QUALITY)
  if (picture.type === 'jpeg') writeFileSync(DIR + file, picture.data)
  pngs.push({ file, data: picture.data })
  written.push(file)
}

/** PNG screenshots (GNOME Web's) to JPEG, and every shot to PNG for GALLERY_PNG, in a Chromium page's canvas. */
async function convert(): Promise<void> {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', args: ['--no-sandbox', '--disable-dev-shm-usage'] })
  try {
    const page = await browser.newPage()
    for (const { file, data } of pngs) {
      const png = data[0] === 0x89
      if (png || process.env.GALLERY_PNG) {
        const out = await page.evaluate(
          async ({ src, quality, wantPng }) => {
            const img = new Image()
            img.src = src
            await img.decode()
            const canvas = document.createElement('canvas')
            canvas.width = img.naturalWidth
            canvas.height = img.naturalHeight
            canvas.getContext('2d')!.drawImage(img, 0, 0)
            return { jpeg: canvas.toDataURL('image/jpeg', quality), png: wantPng ? canvas.toDataURL('image/png') : '' }
          },
          { src: `data:image/${png ? 'png' : 'jpeg'};base64,${data.toString('base64')}`, quality: QUALITY / 100, wantPng: !!process.env.GALLERY_PNG },
        )
        if (png) writeFileSync(DIR + file, Buffer.from(out.jpeg.split(',')[1]!, 'base64'))
        if (process.env.GALLERY_PNG) writeFileSync(`${process.env.GALLERY_PNG}/${file.replace(/\.jpg$/, '.png')}`, Buffer.from(out.png.split(',')[1]!, 'base64'))
      }
    }
  } finally {
    await browser.close()
  }
}

mkdirSync(DIR, { recursive: true })
if (process.env.GALLERY_PNG) mkdirSync(process.env.GALLERY_PNG, { recursive: true })
if (!ONLY) for (const f of readdirSync(DIR)) if (f.endsWith('.jpg') && (ENGINES === ALL_ENGINES || ENGINES.some((e) => f.includes(`-${e}-`)))) rmSync(DIR + f)
const labels: Partial<Record<EngineName, string>> = {}
try {
  for (const name of ENGINES) {
    const started = Date.now()
    let engine = await launchEngine(name)
    labels[name] = engine.label
    try {
      let signedUp = false
      for (const size of Object.keys(SIZES) as Size[]) {
        await engine.setViewport(SIZES[size], size === 'phone')
        for (const shot of TAKEN) {
          try {
            if (shot.id === 'dashboard' && !signedUp) {
              signedUp = true
              await signUpAndMakeKey(engine)
            }
            await shoot(engine, size, shot)
          } catch (e) {
            const message = (e as Error).message.split('\n')[0] ?? ''
            problems.push(`${shot.path} in ${ENGINE_WORDS[name]} ${size}: ${message}`)
            // A browser whose page crashed or hung is started again for the next pages.
            if (/session deleted|invalid session|no such window|target closed/i.test(message)) {
              await engine.close().catch(() => {})
              engine = await launchEngine(name)
              await engine.setViewport(SIZES[size], size === 'phone')
              signedUp = false
            }
          }
        }
      }
    } finally {
      await engine.close()
    }
    console.log(`${engine.label}: ${TAKEN.length * 2} pages in ${((Date.now() - started) / 1000).toFixed(0)} s`)
  }
  await convert()
} finally {
  await server.stop()
}

const engineList = ALL_ENGINES.map((e) => ENGINE_WORDS[e]).join(', ')
const lines = [
  '# Gallery',
  '',
  'The home page, the run of all tools, every tool page, the API docs and the dashboard as a',
  `visitor sees them in three engines (${engineList}) on a phone (390×844) and on a`,
  'desktop (1280×900): the first screen once the report is in, a tool page scrolled to its report,',
  'the dashboard to its keys. Chromium is Debian’s, headless (a phone emulated: touch, mobile',
  'viewport); Firefox is Debian’s Firefox ESR, headless, over WebDriver BiDi; GNOME Web is Debian’s',
  'Epiphany (WebKitGTK) on a virtual display through WebKitWebDriver, its adaptive window narrowed',
  'to the phone’s width. axe-core checks each page in each engine at each size (no serious or',
  'critical violation), and each page is checked for sideways overflow. Made by',
  '`npm run docs:gallery` (tests/gallery/run.ts) on a test server (plain HTTP, so tls-fingerprint',
  'offers its HTTPS address instead of a handshake; no STUN or DNS listener). Every browser here is',
  'driven by automation, so bot-detector and several tells fire as they should.',
  '',
  ...SHOTS.flatMap((s) => [
    `## ${s.title} \`${s.path}\``,
    '',
    '| engine | phone | desktop |',
    '|---|---|---|',
    ...ALL_ENGINES.map((e) => `| ${ENGINE_WORDS[e]} | ![${s.title} in ${ENGINE_WORDS[e]} ${SIZE_WORDS.phone}](gallery/${s.id}-${e}-phone.jpg) | ![${s.title} in ${ENGINE_WORDS[e]} ${SIZE_WORDS.desktop}](gallery/${s.id}-${e}-desktop.jpg) |`),
    '',
  ]),
]
writeFileSync(new URL('../../docs/gallery.md', import.meta.url), lines.join('\n'))
const total = readdirSync(DIR).reduce((n, f) => n + statSync(DIR + f).size, 0)
console.log(`${Object.values(labels).join(', ')}`)
console.log(`docs/gallery.md and ${written.length} screenshots written (docs/gallery/ holds ${(total / 1024).toFixed(0)} KB)`)
if (problems.length) {
  console.log(`${problems.length} problems:`)
  for (const p of problems) console.log(`  ${p}`)
  process.exitCode = 1
}
