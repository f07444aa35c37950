// docs/gallery.md and its screenshots (docs/gallery/): every tool page, and the docs page, as a
// visitor sees it in headless Chromium on a phone (390×844, touch) and on a desktop (1280×900),
// scrolled to the report so that the headline and the picture show. JPEG at modest quality,
// the phone at device scale 1, to keep the files small in git. `npm run docs:gallery`.

import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { chromium } from 'playwright-core'
import { TOOLS } from '../../common/tools'
import { startServer } from '../support/server'

const DIR = new URL('../../docs/gallery/', import.meta.url).pathname
const SIZES = {
  phone: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 1, isMobile: true, hasTouch: true },
  desktop: { viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1, isMobile: false, hasTouch: false },
} as const
const QUALITY = 60

mkdirSync(DIR, { recursive: true })
for (const f of readdirSync(DIR)) if (f.endsWith('.jpg')) rmSync(DIR + f)

const server = await startServer()
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
})
const pages = [...TOOLS.map((t) => ({ id: t.id, title: t.title, path: `/tools/${t.id}` })), { id: 'docs', title: 'API docs', path: '/docs' }]
try {
  for (const [size, options] of Object.entries(SIZES)) {
    const context = await browser.newContext({ ...options })
    for (const p of pages) {
      const page = await context.newPage()
      await page.goto(`${server.baseUrl}${p.path}`)
      if (p.path.startsWith('/tools/')) {
        const report = page.getByRole('region', { name: 'Results' })
        await report.waitFor({ timeout: 30_000 })
        // The top of the report at the top of the screen, the page's title just above it on a desktop.
        await report.evaluate((el, size) => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - (size === 'phone' ? 8 : 120)), size)
      }
      await page.screenshot({ path: `${DIR}${p.id}-${size}.jpg`, type: 'jpeg', quality: QUALITY })
      await page.close()
    }
    await context.close()
  }
} finally {
  await browser.close()
  await server.stop()
}

const lines = [
  '# Gallery',
  '',
  'Every tool page as a visitor sees it in headless Chromium, scrolled to its report: on a phone',
  '(390×844) and on a desktop (1280×900). Made by `npm run docs:gallery` (tests/gallery/run.ts) on',
  'a test server (plain HTTP, so tls-fingerprint says its handshake was not tested; no STUN or DNS',
  'listener). The browser is headless Chromium, so bot-detector and several tells fire as they',
  'should.',
  '',
  '| page | phone | desktop |',
  '|---|---|---|',
  ...pages.map((p) => `| ${p.title} \`${p.path}\` | ![${p.title} on a phone](gallery/${p.id}-phone.jpg) | ![${p.title} on a desktop](gallery/${p.id}-desktop.jpg) |`),
  '',
]
writeFileSync(new URL('../../docs/gallery.md', import.meta.url), lines.join('\n'))
const total = readdirSync(DIR).reduce((n, f) => n + statSync(DIR + f).size, 0)
console.log(`docs/gallery.md and ${pages.length * 2} screenshots written (${(total / 1024).toFixed(0)} KB)`)
