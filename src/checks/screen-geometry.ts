// The screen and window sizes a visible browser window has. Headless Chromium reports a window
// with no browser chrome (outer == inner, or outer of 0) and a screen with no taskbar; a broken
// or emulated environment reports a screen of 0×0 or an available area larger than the screen.
// https://developer.mozilla.org/docs/Web/API/Window/outerHeight

import type { ScreenDisplaySignals } from '../../common/signals/screen-display'
import { checkOn, type SignalValues } from './define'

const geometryCheck = checkOn<ScreenDisplaySignals>()
type Window = SignalValues<ScreenDisplaySignals>['window']

/** A window with no browser chrome around the page: outer == inner, or an outer size of 0. */
export function hasNoChrome(win: Window): boolean {
  return win.outerWidth === 0 || win.outerHeight === 0 || (win.outerWidth === win.innerWidth && win.outerHeight === win.innerHeight)
}

export const screenSize = geometryCheck({
  id: 'screen-size',
  name: 'Screen has a real size',
  source: 'client',
  why: 'A screen of 0×0 or a viewport larger than the screen only happens in broken or emulated environments.',
  needs: ['screen', 'window'],
  judge: ({ screen: scr }) => ({
    verdict: scr.width > 0 && scr.height > 0 && scr.availWidth <= scr.width && scr.availHeight <= scr.height ? 'pass' : 'fail',
    observed: `${scr.width}×${scr.height} (available ${scr.availWidth}×${scr.availHeight})`,
    expected: 'a positive size, available area within it',
  }),
})

export const outerEqualsInner = geometryCheck({
  id: 'outer-equals-inner',
  name: 'Window has browser chrome',
  source: 'client',
  why: 'A visible browser window is taller than its page (tabs, address bar): outer == inner, or outer of 0, is typical of headless mode. Kiosk and full-screen mode are the known false positives.',
  needs: ['screen', 'window'],
  judge: ({ window: win }) => ({
    verdict: hasNoChrome(win) ? 'fail' : 'pass',
    observed: `outer ${win.outerWidth}×${win.outerHeight}, inner ${win.innerWidth}×${win.innerHeight}`,
    expected: 'outer height greater than inner height',
  }),
})

export const screenTaskbar = geometryCheck({
  id: 'screen-taskbar',
  name: 'Screen has a taskbar or dock',
  source: 'client',
  why: 'availHeight == height means nothing reserves screen space; normal for auto-hidden docks, typical for headless and virtual displays.',
  needs: ['screen', 'window'],
  judge: ({ screen: scr }) => ({
    verdict: scr.availHeight === scr.height && scr.availWidth === scr.width ? 'warn' : 'pass',
    observed: `available ${scr.availWidth}×${scr.availHeight} of ${scr.width}×${scr.height}`,
    expected: 'some space reserved by the desktop',
  }),
})

export const colorDepth = geometryCheck({
  id: 'color-depth',
  name: 'Colour depth is ordinary',
  source: 'client',
  why: 'Real displays report 24 or 30 bits (48 on some HDR setups); other values suggest emulation.',
  ref: 'https://developer.mozilla.org/docs/Web/API/Screen/colorDepth',
  needs: ['screen', 'window'],
  judge: ({ screen: scr }) => ({ verdict: [24, 30, 48].includes(scr.colorDepth) ? 'pass' : 'warn', observed: scr.colorDepth, expected: '24, 30 or 48' }),
})

export const windowPosition = geometryCheck({
  id: 'window-position',
  name: 'Window position is plausible',
  source: 'client',
  why: 'Headless windows sit at (0, 0); so do maximised windows, so this only adds a little weight.',
  needs: ['screen', 'window'],
  judge: ({ window: win }) => ({
    verdict: win.screenX === 0 && win.screenY === 0 && hasNoChrome(win) ? 'warn' : 'pass',
    observed: `(${win.screenX}, ${win.screenY})`,
    expected: 'a window placed by a window manager',
  }),
})
