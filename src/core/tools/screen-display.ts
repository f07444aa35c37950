// screen-display: screen, viewport, pixel ratio and media queries, and the headless tells among
// them. Headless Chromium reports a window with no browser chrome (outer == inner), default
// sizes (800×600 in old headless, 1280×720 under Playwright/Puppeteer defaults) and a screen
// with no taskbar; a spoofed screen is caught by CSS media queries that still see the real one.

import { Type, type Static } from '@sinclair/typebox'
import { check, type Check, type CheckDef } from '../scoring'
import { Signal, valueOf, whyMissing } from '../../../common/signal'
import { header, type ServerObservation } from './observation'
import { legacyTool } from './types'

const Num = Type.Number()
const Bool = Type.Boolean()
const NullableStr = Type.Union([Type.String({ maxLength: 64 }), Type.Null()])

export const ScreenDisplaySignals = Type.Object({
  screen: Signal(
    Type.Object({
      width: Num, height: Num, availWidth: Num, availHeight: Num, colorDepth: Num, pixelDepth: Num,
      orientation: NullableStr,
    }),
  ),
  window: Signal(
    Type.Object({
      innerWidth: Num, innerHeight: Num, outerWidth: Num, outerHeight: Num, screenX: Num, screenY: Num, devicePixelRatio: Num,
    }),
  ),
  visualViewport: Signal(Type.Object({ width: Num, height: Num, scale: Num })),
  media: Signal(
    Type.Object({
      deviceWidthMatches: Bool, deviceHeightMatches: Bool, resolutionMatches: Bool,
      colorGamut: NullableStr, dynamicRange: NullableStr, pointer: NullableStr, hover: NullableStr,
      colorScheme: NullableStr, reducedMotion: Bool, forcedColors: Bool,
    }),
  ),
  touch: Signal(Type.Object({ maxTouchPoints: Num, touchEvent: Bool })),
})
export type ScreenDisplaySignals = Static<typeof ScreenDisplaySignals>

const DEFS = {
  size: { id: 'screen-size', name: 'Screen has a real size', source: 'client', weight: 30, why: 'A screen of 0×0 or a viewport larger than the screen only happens in broken or emulated environments.' },
  defaultViewport: { id: 'default-viewport', name: 'Viewport is not an automation default', source: 'client', weight: 20, why: 'Headless Chromium opens 800×600 windows and Playwright/Puppeteer default to 1280×720 (Puppeteer 800×600). Real windows rarely have exactly these sizes; a person can, so it is only a warning alone.' },
  outerInner: { id: 'outer-equals-inner', name: 'Window has browser chrome', source: 'client', weight: 20, why: 'A visible browser window is taller than its page (tabs, address bar): outer == inner, or outer of 0, is typical of headless mode. Kiosk and full-screen mode are the known false positives.' },
  taskbar: { id: 'screen-taskbar', name: 'Screen has a taskbar or dock', source: 'client', weight: 4, why: 'availHeight == height means nothing reserves screen space; normal for auto-hidden docks, typical for headless and virtual displays.' },
  deviceWidth: { id: 'device-width-media', name: 'screen.width agrees with CSS device-width', source: 'client', weight: 40, why: 'Spoofing screen.width in JavaScript does not change what CSS media queries see; a mismatch means the value was overridden.' },
  resolution: { id: 'resolution-media', name: 'devicePixelRatio agrees with CSS resolution', source: 'client', weight: 30, why: 'Like device-width: a patched devicePixelRatio disagrees with the resolution media query.' },
  colorDepth: { id: 'color-depth', name: 'Colour depth is ordinary', source: 'client', weight: 6, why: 'Real displays report 24 or 30 bits (48 on some HDR setups); other values suggest emulation.' },
  touch: { id: 'touch-consistency', name: 'Touch support is consistent', source: 'client', weight: 10, why: 'maxTouchPoints > 0 with a fine, hovering primary pointer and no touch events is a common emulation mistake; convertible laptops are the known false positive, so it only warns.' },
  position: { id: 'window-position', name: 'Window position is plausible', source: 'client', weight: 4, why: 'Headless windows sit at (0, 0); so do maximised windows, so this only adds a little weight.' },
  hintsViewport: { id: 'client-hint-viewport', name: 'Viewport-Width hint agrees with the page', source: 'server', weight: 25, why: 'The browser sends Sec-CH-Viewport-Width itself, outside page JavaScript; disagreement with innerWidth shows a patched window size.' },
  hintsDpr: { id: 'client-hint-dpr', name: 'DPR hint agrees with the page', source: 'server', weight: 25, why: 'Sec-CH-DPR is sent by the browser; a different devicePixelRatio in the page means it was overridden.' },
} as const satisfies Record<string, CheckDef>

const DEFAULT_VIEWPORTS = ['800x600', '1280x720', '1024x768']

export const screenDisplay = legacyTool({
  id: 'screen-display',
  signals: ScreenDisplaySignals,
  sections: Type.Object({ display: Type.Unknown() }),
  judge(s: ScreenDisplaySignals, server: ServerObservation) {
    const checks: Check[] = []
    const scr = valueOf(s.screen)
    const win = valueOf(s.window)
    const media = valueOf(s.media)
    const touch = valueOf(s.touch)
    const na = (def: CheckDef, why: string) => check(def, { verdict: 'na', observed: null, expected: why })

    if (scr && win) {
      const ok = scr.width > 0 && scr.height > 0 && scr.availWidth <= scr.width && scr.availHeight <= scr.height
      checks.push(check(DEFS.size, { verdict: ok ? 'pass' : 'fail', observed: `${scr.width}×${scr.height} (available ${scr.availWidth}×${scr.availHeight})`, expected: 'a positive size, available area within it' }))
      const inner = `${win.innerWidth}x${win.innerHeight}`
      const isDefault = DEFAULT_VIEWPORTS.includes(inner) || DEFAULT_VIEWPORTS.includes(`${scr.width}x${scr.height}`)
      checks.push(check(DEFS.defaultViewport, { verdict: isDefault ? 'warn' : 'pass', observed: `viewport ${win.innerWidth}×${win.innerHeight}, screen ${scr.width}×${scr.height}`, expected: `not ${DEFAULT_VIEWPORTS.join(', ')}` }))
      const noChrome = win.outerWidth === 0 || win.outerHeight === 0 || (win.outerWidth === win.innerWidth && win.outerHeight === win.innerHeight)
      checks.push(check(DEFS.outerInner, { verdict: noChrome ? 'fail' : 'pass', observed: `outer ${win.outerWidth}×${win.outerHeight}, inner ${win.innerWidth}×${win.innerHeight}`, expected: 'outer height greater than inner height' }))
      checks.push(check(DEFS.taskbar, { verdict: scr.availHeight === scr.height && scr.availWidth === scr.width ? 'warn' : 'pass', observed: `available ${scr.availWidth}×${scr.availHeight} of ${scr.width}×${scr.height}`, expected: 'some space reserved by the desktop' }))
      checks.push(check(DEFS.colorDepth, { verdict: [24, 30, 48].includes(scr.colorDepth) ? 'pass' : 'warn', observed: scr.colorDepth, expected: '24, 30 or 48' }))
      checks.push(check(DEFS.position, { verdict: win.screenX === 0 && win.screenY === 0 && noChrome ? 'warn' : 'pass', observed: `(${win.screenX}, ${win.screenY})`, expected: 'a window placed by a window manager' }))
    } else {
      const why = whyMissing(s.screen) || whyMissing(s.window)
      for (const d of [DEFS.size, DEFS.defaultViewport, DEFS.outerInner, DEFS.taskbar, DEFS.colorDepth, DEFS.position]) checks.push(na(d, why))
    }

    if (media && scr && win) {
      checks.push(check(DEFS.deviceWidth, { verdict: media.deviceWidthMatches && media.deviceHeightMatches ? 'pass' : 'fail', observed: { deviceWidthMatches: media.deviceWidthMatches, deviceHeightMatches: media.deviceHeightMatches }, expected: `(device-width: ${scr.width}px) and (device-height: ${scr.height}px) match` }))
      checks.push(check(DEFS.resolution, { verdict: media.resolutionMatches ? 'pass' : 'fail', observed: { devicePixelRatio: win.devicePixelRatio, resolutionMatches: media.resolutionMatches }, expected: `(resolution: ${win.devicePixelRatio}dppx) matches` }))
    } else {
      checks.push(na(DEFS.deviceWidth, whyMissing(s.media) || 'screen unavailable'), na(DEFS.resolution, whyMissing(s.media) || 'screen unavailable'))
    }

    if (touch && media) {
      const suspicious = touch.maxTouchPoints > 0 && !touch.touchEvent && media.pointer === 'fine' && media.hover === 'hover'
      checks.push(check(DEFS.touch, { verdict: suspicious ? 'warn' : 'pass', observed: { ...touch, pointer: media.pointer, hover: media.hover }, expected: 'touch points only with touch events or a coarse pointer' }))
    } else checks.push(na(DEFS.touch, whyMissing(s.touch) || whyMissing(s.media)))

    const vw = header(server, 'sec-ch-viewport-width')
    const dpr = header(server, 'sec-ch-dpr')
    if (vw !== undefined && win) {
      const agrees = Math.abs(Number(vw) - win.innerWidth) <= 1
      checks.push(check(DEFS.hintsViewport, { verdict: agrees ? 'pass' : 'fail', observed: { 'sec-ch-viewport-width': vw, innerWidth: win.innerWidth }, expected: 'equal' }))
    } else checks.push(na(DEFS.hintsViewport, 'the browser sent no Sec-CH-Viewport-Width (only Chromium sends it, and only after Accept-CH)'))
    if (dpr !== undefined && win) {
      const agrees = Math.abs(Number(dpr) - win.devicePixelRatio) < 0.01
      checks.push(check(DEFS.hintsDpr, { verdict: agrees ? 'pass' : 'fail', observed: { 'sec-ch-dpr': dpr, devicePixelRatio: win.devicePixelRatio }, expected: 'equal' }))
    } else checks.push(na(DEFS.hintsDpr, 'the browser sent no Sec-CH-DPR (only Chromium sends it, and only after Accept-CH)'))

    return {
      checks,
      sections: {
        display: {
          screen: scr ?? null,
          viewport: win ? { width: win.innerWidth, height: win.innerHeight, outerWidth: win.outerWidth, outerHeight: win.outerHeight } : null,
          devicePixelRatio: win?.devicePixelRatio ?? null,
          colorGamut: media?.colorGamut ?? null,
          hdr: media ? media.dynamicRange === 'high' : null,
          maxTouchPoints: touch?.maxTouchPoints ?? null,
        },
      },
    }
  },
})
