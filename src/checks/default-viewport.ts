// The viewport sizes automation opens pages at. Playwright defaults to 1280×720 and Puppeteer
// (and old headless Chromium) to 800×600, on a screen of the same size with nothing reserved
// for a taskbar. A person can have either size, so a hit only warns.
// https://playwright.dev/docs/api/class-browser#browser-new-context-option-viewport
// https://pptr.dev/api/puppeteer.viewport

import type { SignalResult } from '../../common/signal'
import { checkOn, type SignalValues } from './define'

/**
 * The part of the `screen` and `window` signals this check reads: bot-detector and
 * screen-display both collect these members (screen-display collects more).
 */
export interface ViewportSignals {
  screen: SignalResult<{ width: number; height: number; availWidth: number; availHeight: number }>
  window: SignalResult<{ innerWidth: number; innerHeight: number }>
}

/** Inner or screen sizes automation defaults to. */
const DEFAULT_SIZES = ['800x600', '1280x720'] as const

/** True when the viewport, or a screen with no taskbar, has an automation default size. */
function isDefaultViewport(scr: SignalValues<ViewportSignals>['screen'], win: SignalValues<ViewportSignals>['window']): boolean {
  const sizes: readonly string[] = DEFAULT_SIZES
  const fullScreen = scr.availWidth === scr.width && scr.availHeight === scr.height
  return sizes.includes(`${win.innerWidth}x${win.innerHeight}`) || (fullScreen && sizes.includes(`${scr.width}x${scr.height}`))
}

export const defaultViewport = checkOn<ViewportSignals>()({
  id: 'default-viewport',
  name: 'Viewport and screen are not automation defaults',
  found: 'viewport and screen have automation\'s default sizes',
  source: 'client',
  // A screen size alone is not judged: Windows laptops at 150 % scaling report a 1280×720
  // screen (with a taskbar), and iPads a 1024×768 one.
  why: 'Playwright and Puppeteer open 1280×720 and 800×600 pages on screens of the same size with no taskbar. A person rarely has exactly these sizes; it can happen (a virtual machine without display drivers, Firefox letterboxing under resistFingerprinting rounds windows to 200×100 steps), so it only warns. A screen of such a size with a taskbar is an ordinary scaled laptop display and passes.',
  ref: 'https://playwright.dev/docs/api/class-browser#browser-new-context-option-viewport',
  expected: `not ${DEFAULT_SIZES.join(' or ')} with a full screen`,
  needs: ['window', 'screen'],
  judge: ({ screen: scr, window: win }) => ({
    verdict: isDefaultViewport(scr, win) ? 'warn' : 'pass',
    observed: `viewport ${win.innerWidth}×${win.innerHeight}, screen ${scr.width}×${scr.height} (available ${scr.availWidth}×${scr.availHeight})`,
  }),
})
