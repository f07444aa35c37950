// The screen and window sizes a visible browser window has. Headless Chromium reports a window
// with no browser chrome (outer == inner, or outer of 0) and a screen with no taskbar; a broken
// or emulated environment reports a screen of 0×0 or an available area larger than the screen.
// Gecko's resistFingerprinting reports the page's size for the window and screen and the window
// at (0, 0) (screen-anti-fingerprinting.ts): the checks of those values are `na` under it.
// https://developer.mozilla.org/docs/Web/API/Window/outerHeight

import type { ScreenDisplaySignals } from '../../common/signals/screen-display'
import { checkOn, na, type SignalValues } from './define'
import { maskedReason, screenMasking } from './screen-anti-fingerprinting'

const geometryCheck = checkOn<ScreenDisplaySignals>()
type Window = SignalValues<ScreenDisplaySignals>['window']

/** A window with no browser chrome around the page: outer == inner, or an outer size of 0. */
export function hasNoChrome(win: Window): boolean {
  return win.outerWidth === 0 || win.outerHeight === 0 || (win.outerWidth === win.innerWidth && win.outerHeight === win.innerHeight)
}

export const screenSize = geometryCheck({
  id: 'screen-size',
  name: 'Screen has a real size',
  found: 'the screen has no real size',
  source: 'client',
  why: 'A screen of 0×0 or a viewport larger than the screen only happens in broken or emulated environments.',
  expected: 'a positive size, available area within it',
  needs: ['screen', 'window'],
  judge: ({ screen: scr }) => ({
    verdict: scr.width > 0 && scr.height > 0 && scr.availWidth <= scr.width && scr.availHeight <= scr.height ? 'pass' : 'fail',
    observed: `${scr.width}×${scr.height} (available ${scr.availWidth}×${scr.availHeight})`,
  }),
})

export const outerEqualsInner = geometryCheck({
  id: 'outer-equals-inner',
  name: 'Window has browser chrome',
  found: 'the window has no browser chrome',
  source: 'client',
  why: "A visible browser window is taller than its page (tabs, address bar): outer == inner, or outer of 0, is typical of headless mode. Kiosk and full-screen mode are the known false positives. Gecko's resistFingerprinting reports the page's size as the window's; on a SpiderMonkey engine (told by its error messages) whose screen is the page's size too, this is not judged (screen-anti-fingerprinting).",
  needs: ['screen', 'window'],
  uses: ['engine'],
  judge: ({ window: win, screen: scr, engine }) => {
    const m = screenMasking(engine, scr, win)
    if (m.resisting) return na(maskedReason(`reports the page's size as the window's (${win.innerWidth}×${win.innerHeight})`, m))
    return {
      verdict: hasNoChrome(win) ? 'fail' : 'pass',
      observed: `outer ${win.outerWidth}×${win.outerHeight}, inner ${win.innerWidth}×${win.innerHeight}`,
      expected: `outer height greater than inner height; ${m.basis}`,
    }
  },
})

export const screenTaskbar = geometryCheck({
  id: 'screen-taskbar',
  name: 'Screen has a taskbar or dock',
  found: 'the screen has no taskbar or dock',
  source: 'client',
  why: "availHeight == height means nothing reserves screen space; normal for auto-hidden docks, typical for headless and virtual displays. Gecko's resistFingerprinting reports the page's size as the whole screen and its available area, so this is not judged under it (screen-anti-fingerprinting).",
  needs: ['screen', 'window'],
  uses: ['engine'],
  judge: ({ screen: scr, window: win, engine }) => {
    const m = screenMasking(engine, scr, win)
    if (m.resisting) return na(maskedReason(`reports the page's size as the screen and its available area (${scr.width}×${scr.height})`, m))
    return {
      verdict: scr.availHeight === scr.height && scr.availWidth === scr.width ? 'warn' : 'pass',
      observed: `available ${scr.availWidth}×${scr.availHeight} of ${scr.width}×${scr.height}`,
      expected: `some space reserved by the desktop; ${m.basis}`,
    }
  },
})

export const colorDepth = geometryCheck({
  id: 'color-depth',
  name: 'Colour depth is ordinary',
  found: 'the colour depth is unusual',
  source: 'client',
  why: 'Real displays report 24 or 30 bits (48 on some HDR setups); other values suggest emulation.',
  ref: 'https://developer.mozilla.org/docs/Web/API/Screen/colorDepth',
  expected: '24, 30 or 48',
  needs: ['screen', 'window'],
  judge: ({ screen: scr }) => ({ verdict: [24, 30, 48].includes(scr.colorDepth) ? 'pass' : 'warn', observed: scr.colorDepth }),
})

export const windowPosition = geometryCheck({
  id: 'window-position',
  name: 'Window position is plausible',
  found: 'the window sits at a headless position',
  source: 'client',
  why: "Headless windows sit at (0, 0); so do maximised windows, so this only adds a little weight. Gecko's resistFingerprinting puts every window at (0, 0), so this is not judged under it (screen-anti-fingerprinting).",
  needs: ['screen', 'window'],
  uses: ['engine'],
  judge: ({ window: win, screen: scr, engine }) => {
    const m = screenMasking(engine, scr, win)
    if (m.resisting) return na(maskedReason('puts every window at (0, 0)', m))
    return {
      verdict: win.screenX === 0 && win.screenY === 0 && hasNoChrome(win) ? 'warn' : 'pass',
      observed: `(${win.screenX}, ${win.screenY})`,
      expected: `a window placed by a window manager; ${m.basis}`,
    }
  },
})

export const pageInWindow = geometryCheck({
  id: 'page-in-window',
  name: 'The page fits in its window',
  found: 'the page is larger than its window',
  source: 'client',
  why: "A window holds its page: outerWidth and outerHeight are at least innerWidth and innerHeight. Fingerprint injectors (Apify's fingerprint-injector on Playwright) emulate a viewport the size of the spoofed screen and report the fingerprint's smaller window around it, so the page is exactly the whole screen yet larger than its window. Chromium and Safari measure the page in CSS pixels and the window in screen pixels, so a page zoomed out can be larger than its window, but not exactly the screen's size in both directions while the window is smaller (that would take a window resized to the zoom's exact fraction of the screen); Firefox scales both. Judged on a fine pointer only (desktops): phones report their window differently.",
  expected: 'a window at least as large as its page (a page the size of the whole screen in a window no smaller)',
  needs: ['screen', 'window'],
  uses: ['media'],
  judge: ({ screen: scr, window: win, media }) => {
    if (media && media.pointer !== 'fine') return na(`the primary pointer is ${media.pointer ?? 'unknown'}, not a desktop mouse: phones and tablets report their window differently`)
    const wholeScreen = win.innerWidth === scr.width && win.innerHeight === scr.height
    const smaller = win.outerWidth < win.innerWidth || win.outerHeight < win.innerHeight
    return {
      verdict: wholeScreen && smaller ? 'fail' : 'pass',
      observed: `page ${win.innerWidth}×${win.innerHeight}${wholeScreen ? ' (the whole screen)' : ''} in a ${win.outerWidth}×${win.outerHeight} window, screen ${scr.width}×${scr.height}`,
    }
  },
})
