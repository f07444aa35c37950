// screen-display: screen, viewport, pixel ratio and media queries, and the headless tells among
// them. Headless Chromium reports a window with no browser chrome (outer == inner), default
// sizes (800×600 in old headless, 1280×720 under Playwright/Puppeteer defaults) and a screen
// with no taskbar; a spoofed screen is caught by CSS media queries that still see the real one.
// Gecko's resistFingerprinting reports the page's size for all of those: told by the engine the
// page runs on and those values, it is one warning (screen-anti-fingerprinting) and the checks it
// would trip are not judged. Fingerprint injectors emulate a page the size of the spoofed screen
// inside a smaller spoofed window (page-in-window).

import { Type } from '@sinclair/typebox'
import { signalValue } from '../../../common/signal'
import { ScreenDisplaySignals } from '../../../common/signals/screen-display'
import { defaultViewport } from '../../checks/default-viewport'
import { colorDepth, outerEqualsInner, pageInWindow, screenSize, screenTaskbar, windowPosition } from '../../checks/screen-geometry'
import { screenAntiFingerprinting } from '../../checks/screen-anti-fingerprinting'
import { deviceWidthMedia, resolutionMedia } from '../../checks/screen-media-queries'
import { touchConsistency } from '../../checks/touch-consistency'
import { clientHintDpr, clientHintViewport } from '../../checks/viewport-hints'
import { defineTool } from './types'

export const screenDisplay = defineTool({
  id: 'screen-display',
  signals: ScreenDisplaySignals,
  sections: Type.Object({ display: Type.Unknown() }),
  checks: [
    [screenSize, 30],
    [defaultViewport, 20],
    [outerEqualsInner, 20],
    [pageInWindow, 30],
    [screenTaskbar, 4],
    [colorDepth, 6],
    [windowPosition, 4],
    [screenAntiFingerprinting, 10],
    [deviceWidthMedia, 40],
    [resolutionMedia, 30],
    [touchConsistency, 10],
    [clientHintViewport, 25],
    [clientHintDpr, 25],
  ],
  addSections(s) {
    const scr = signalValue(s.screen)
    const win = signalValue(s.window)
    const media = signalValue(s.media)
    return {
      display: {
        screen: scr ?? null,
        viewport: win ? { width: win.innerWidth, height: win.innerHeight, outerWidth: win.outerWidth, outerHeight: win.outerHeight } : null,
        devicePixelRatio: win?.devicePixelRatio ?? null,
        colorGamut: media?.colorGamut ?? null,
        hdr: media ? media.dynamicRange === 'high' : null,
        maxTouchPoints: signalValue(s.touch)?.maxTouchPoints ?? null,
      },
    }
  },
})
