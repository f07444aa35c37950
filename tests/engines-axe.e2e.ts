// The home page, /run and bot-detector in the two engines besides Chromium (issue 58): Debian's
// Firefox ESR (headless, over WebDriver BiDi) and GNOME Web (WebKitGTK, through WebKitWebDriver
// on Xvfb), driven by tests/support/engines.ts, at a phone's width (390×844) and a desktop's
// (1280×900). In each: the page's tests ran and were stored, axe-core finds no serious or
// critical accessibility violation, and the page is no wider than the screen. Playwright only
// runs the tests; the browsers are the engines' own.
//
// One browser per engine, each page opened once: its report awaited at one size, then the same
// page judged again after the window is set to the other, as a person widening or narrowing a
// window sees it (the layout follows the width; nothing reloads). The
// gallery (tests/gallery/run.ts) opens every page at each size in all three engines.

import { existsSync } from 'node:fs'
import { expect, test } from '@playwright/test'
import { BROWSER_PATHS } from './matrix/clients'
import { axeViolations, launchEngine, REPORT_READY, RUN_READY, widths, type EngineName } from './support/engines'
import { requirePrerequisite } from './support/prerequisites'
import { startServer, type RunningServer } from './support/server'

const SIZES = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 900 },
] as const
const PAGES = [
  { path: '/', ready: 'main' },
  { path: '/run', ready: RUN_READY },
  { path: '/tools/bot-detector', ready: REPORT_READY },
] as const

let server: RunningServer
test.beforeAll(async () => {
  server = await startServer()
})
test.afterAll(async () => server?.stop())

const PREREQUISITES: Record<Exclude<EngineName, 'chromium'>, () => string | false> = {
  firefox: () => !existsSync(BROWSER_PATHS.firefox) && `Firefox ESR at ${BROWSER_PATHS.firefox} (tests/gate.sh installs firefox-esr; FIREFOX_PATH points elsewhere)`,
  webkit: () =>
    (!existsSync(BROWSER_PATHS.epiphany) && `GNOME Web at ${BROWSER_PATHS.epiphany} (tests/gate.sh installs epiphany-browser; EPIPHANY_PATH points elsewhere)`) ||
    (!existsSync('/usr/bin/WebKitWebDriver') && !process.env.WEBKIT_WEBDRIVER_PATH && 'WebKitWebDriver (tests/gate.sh installs webkit2gtk-driver)'),
}

for (const name of ['firefox', 'webkit'] as const) {
  test(`${name === 'firefox' ? 'Firefox ESR' : 'GNOME Web (WebKitGTK)'}: home, /run and bot-detector stored, axe-clean and no wider than a phone or a desktop`, async () => {
    test.setTimeout(180_000)
    requirePrerequisite(PREREQUISITES[name]())
    const engine = await launchEngine(name)
    try {
      for (const [i, page] of PAGES.entries()) {
        // Phone then desktop, desktop then phone, …: the window changes size once per page.
        const sizes = i % 2 ? [...SIZES].reverse() : SIZES
        if (i === 0) await engine.setViewport(sizes[0]!)
        await engine.goto(`${server.baseUrl}${page.path}`, page.ready, 120_000)
        expect(await engine.run<string | null>('return document.body.dataset.error ?? null'), `${page.path}: the page's tests were stored`).toBeNull()
        for (const [j, size] of sizes.entries()) {
          if (j > 0) await engine.setViewport(size)
          const what = `${page.path} in ${engine.label} at ${size.width}×${size.height}`
          expect(await axeViolations(engine), `${what}: serious or critical accessibility violations`).toEqual([])
          const w = await widths(engine)
          expect(w.innerWidth, `${what}: the viewport's width`).toBe(size.width)
          expect(w.scrollWidth, `${what}: no sideways overflow`).toBeLessThanOrEqual(w.innerWidth)
        }
      }
    } finally {
      await engine.close()
    }
  })
}
