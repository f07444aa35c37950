// Gecko's resistFingerprinting (Firefox's privacy.resistFingerprinting; Tor, Mullvad Browser and
// LibreWolf turn it on) reports the page's own size as the screen's and its available area
// (RFPTarget ScreenRect, ScreenAvailRect), the window's outer size as the page's
// (WindowOuterSize), the window at (0, 0) (WindowScreenXY) and a per-platform constant for
// navigator.maxTouchPoints (SPOOFED_MAX_TOUCH_POINTS: 10 on Windows, 5 on Linux, 0 on macOS); new
// windows open at a size rounded to 200×100 steps (letterboxing keeps them so). The checks that
// judge those values (no browser chrome, no taskbar, a window at the origin, touch points with a
// mouse) would call a privacy setting a lie, so they are `na` under it, and this check says once
// what was found. It is told by what the engine does: SpiderMonkey's error messages (not the
// user agent) and all those values at once.
// https://searchfox.org/mozilla-central/source/toolkit/components/resistfingerprinting/RFPTargets.inc
// https://searchfox.org/mozilla-central/source/toolkit/components/resistfingerprinting/nsRFPService.h

import type { JsEngine } from '../../common/signals/shared'
import type { ScreenDisplaySignals } from '../../common/signals/screen-display'
import type { Engine } from '../../common/user-agent'
import { checkOn, type SignalValues } from './define'
import { pageEngine } from './page-engine'

type Values = SignalValues<ScreenDisplaySignals>

/** What the screen and window signals show of resistFingerprinting, and the engine that told it. */
export interface ScreenMasking {
  engine: Engine
  /** How the engine was told, as the checks say it (page-engine.ts). */
  basis: string
  /** Gecko, and screen, available area, window and page all the page's size, at (0, 0). */
  resisting: boolean
}

/** Whether the page runs under Gecko's resistFingerprinting, from what it does to the sizes. */
export function screenMasking(engine: JsEngine | undefined, scr: Values['screen'], win: Values['window']): ScreenMasking {
  const { engine: running, basis } = pageEngine(engine)
  const page = (w: number, h: number) => w === win.innerWidth && h === win.innerHeight
  const resisting =
    running === 'gecko' && page(scr.width, scr.height) && page(scr.availWidth, scr.availHeight) && page(win.outerWidth, win.outerHeight) && win.screenX === 0 && win.screenY === 0
  return { engine: running, basis, resisting }
}

/** The `na` reason of a check whose value resistFingerprinting replaces. */
export function maskedReason(what: string, m: ScreenMasking): string {
  return `anti-fingerprinting (resistFingerprinting) ${what}, so this is not judged (see screen-anti-fingerprinting); ${m.basis}`
}

export const screenAntiFingerprinting = checkOn<ScreenDisplaySignals>()({
  id: 'screen-anti-fingerprinting',
  name: 'Screen and window sizes are reported as they are',
  found: 'screen and window sizes are disguised',
  source: 'client',
  why: "Firefox's privacy.resistFingerprinting (and Tor Browser, Mullvad Browser, LibreWolf) reports the page's size as the screen's and the window's, puts the window at (0, 0) and rounds new windows to 200×100 steps. It is a privacy setting, not automation: it only warns, once, and the checks it would trip (outer-equals-inner, screen-taskbar, window-position, touch-consistency) are not judged under it. It is told by SpiderMonkey's error messages together with all those sizes at once, never by the user agent; a headless Firefox with resistFingerprinting looks the same and is the known false negative.",
  ref: 'https://support.mozilla.org/kb/resist-fingerprinting',
  needs: ['screen', 'window'],
  uses: ['engine'],
  judge: ({ screen: scr, window: win, engine }) => {
    const m = screenMasking(engine, scr, win)
    return {
      verdict: m.resisting ? 'warn' : 'pass',
      observed: m.resisting
        ? `anti-fingerprinting detected: window and screen sizes are rounded/letterboxed (screen, available area, window and page all ${win.innerWidth}×${win.innerHeight}, at (0, 0))`
        : `screen ${scr.width}×${scr.height} (available ${scr.availWidth}×${scr.availHeight}), window ${win.outerWidth}×${win.outerHeight} at (${win.screenX}, ${win.screenY}), page ${win.innerWidth}×${win.innerHeight}`,
      expected: `the real screen and window sizes (only Gecko's resistFingerprinting reports the page's size for all of them); ${m.basis}`,
    }
  },
})
