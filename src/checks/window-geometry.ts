// The window around the page: a visible browser window is taller than its page (tabs, address
// bar) and fits on its screen; headless windows have no chrome and keep an 800×600 screen.
// https://developer.mozilla.org/docs/Web/API/Window/outerHeight

import type { BotDetectorSignals } from '../../common/signals/bot-detector'
import { checkOn } from './define'
import { pageEngine } from './page-engine'
import { glRenderer, isSoftwareGl } from './software-gl'

const botCheck = checkOn<BotDetectorSignals>()

export const windowChrome = botCheck({
  id: 'window-chrome',
  name: 'Window has browser chrome around the page',
  found: 'the window has no browser chrome around the page',
  source: 'client',
  why: "A visible browser window is taller than its page (tabs, address bar); headless windows are not (outer == inner), and some report 0. Full-screen (F11) and kiosk windows are the known false positives, so equal sizes only warn; 0 fails. Firefox with privacy.resistFingerprinting reports the page's size as the window's and the screen's (RFPTarget WindowOuterSize and ScreenRect): on a SpiderMonkey engine (told by its error messages, not the user agent) a window, page and screen of one size pass. A headless Firefox whose screen is its window's size passes too, the known false negative.",
  needs: ['window'],
  uses: ['engine', 'screen'],
  judge: ({ window: win, engine, screen: scr }) => {
    const zero = win.outerWidth === 0 || win.outerHeight === 0
    const same = win.outerWidth === win.innerWidth && win.outerHeight === win.innerHeight
    // Firefox ESR 153 with resistFingerprinting, in the detection matrix: outer, inner and screen all 1400×900.
    // https://searchfox.org/mozilla-central/source/toolkit/components/resistfingerprinting/RFPTargets.inc
    const { engine: running, basis } = pageEngine(engine)
    const resisting = same && running === 'gecko' && scr?.width === win.innerWidth && scr.height === win.innerHeight
    const observed = `outer ${win.outerWidth}×${win.outerHeight}, inner ${win.innerWidth}×${win.innerHeight}${resisting ? ', the screen’s size too: Firefox resisting fingerprinting' : ''}`
    return { verdict: zero ? 'fail' : same && !resisting ? 'warn' : 'pass', observed, expected: `outer window larger than the page (on SpiderMonkey under resistFingerprinting: window, page and screen of one size); ${basis}` }
  },
})

export const windowFitsScreen = botCheck({
  id: 'window-fits-screen',
  name: 'Window fits on the screen',
  found: 'the window does not fit on the screen',
  source: 'client',
  why: 'Headless Chromium keeps an 800×600 screen whatever --window-size gives the window, and emulated viewports ignore the screen; a real window is at most a few pixels larger than the screen (Windows draws maximised borders just off-screen). People have windows larger than their screen too: stretched across two monitors (the screen is one of them), or a browser\'s default size on a small or scaled screen without a window manager to shrink it (GNOME Web opens at 1024×768 on a 960×540 scaled screen), so a larger window fails only on headless Chromium\'s 800×600 screen and warns elsewhere.',
  needs: ['window', 'screen'],
  uses: ['webgl'],
  judge: ({ window: win, screen: scr, webgl }) => {
    // Against the whole screen, not the available area: full-screen windows cover the taskbar.
    const over = Math.max(win.outerWidth - scr.width, win.outerHeight - scr.height)
    // Headless geometry: a window without chrome that exactly fills a screen without a taskbar,
    // drawn without a GPU. Each alone happens to people (full screen, auto-hidden docks, VMs),
    // so it names headless without costing anything here.
    const headlessGeometry =
      win.outerWidth === win.innerWidth && win.outerHeight === win.innerHeight && scr.width === win.innerWidth && scr.height === win.innerHeight && scr.availWidth === scr.width && scr.availHeight === scr.height
    const headlessScreen = scr.width === 800 && scr.height === 600
    return {
      verdict: over <= 32 ? 'pass' : headlessScreen ? 'fail' : 'warn',
      observed: `outer ${win.outerWidth}×${win.outerHeight}, screen ${scr.width}×${scr.height}`,
      expected: "the window within the screen (32 px of slack); larger fails only on headless Chromium's 800×600 screen",
      labels: headlessGeometry && webgl && isSoftwareGl(glRenderer(webgl)) ? ['headless'] : [],
    }
  },
})
