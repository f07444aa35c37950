// screen-display signals captured on this machine (issue 12, the tools matrix): Debian Chromium 156
// and Firefox ESR 153 headful on a 1920×1080 Xvfb screen without a window manager (nothing
// reserves a taskbar), Firefox once more with privacy.resistFingerprinting, and the two
// fingerprint-injector spoofers (a Windows and a macOS Chrome fingerprint on headless Chromium 156).

import type { ScreenDisplaySignals } from '../../../common/signals/screen-display'
import { ok } from '../../../tests/support/signals'
import { SPIDERMONKEY_153, V8_156 } from './permissions-api.fixture'
import type { ServerObservation } from './observation'

export { SPIDERMONKEY_153, V8_156 }

/** The request as the server saw it: the User-Agent and the client hints Chromium sent. */
export const observed = (userAgent: string, headers: Array<[string, string]> = []): ServerObservation => ({ ip: '127.0.0.1', userAgent, headers: [['user-agent', userAgent], ...headers], receivedAt: 0 })

export function chromium156(): ScreenDisplaySignals {
  return {
    screen: ok({ width: 1920, height: 1080, availWidth: 1920, colorDepth: 24, pixelDepth: 24, availHeight: 1080, orientation: 'landscape-primary' }),
    window: ok({ screenX: 10, screenY: 10, innerWidth: 945, outerWidth: 945, innerHeight: 917, outerHeight: 1060, devicePixelRatio: 1 }),
    visualViewport: ok({ scale: 1, width: 945, height: 917 }),
    media: ok({ hover: 'hover', pointer: 'fine', colorGamut: 'srgb', colorScheme: 'light', dynamicRange: 'standard', forcedColors: false, reducedMotion: false, resolutionMatches: true, deviceWidthMatches: true, deviceHeightMatches: true }),
    touch: ok({ touchEvent: false, maxTouchPoints: 0 }),
    engine: ok(V8_156),
  }
}
export const CHROMIUM_156_SERVER = observed('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36', [['sec-ch-dpr', '1'], ['sec-ch-viewport-width', '945']])

export function firefox153(): ScreenDisplaySignals {
  return {
    screen: ok({ width: 1920, height: 1080, availWidth: 1920, colorDepth: 24, pixelDepth: 24, availHeight: 1080, orientation: 'landscape-primary' }),
    window: ok({ screenX: 0, screenY: 0, innerWidth: 1280, outerWidth: 1280, innerHeight: 887, outerHeight: 972, devicePixelRatio: 1 }),
    visualViewport: ok({ scale: 1, width: 1280, height: 887 }),
    media: ok({ hover: 'hover', pointer: 'fine', colorGamut: 'srgb', colorScheme: 'light', dynamicRange: 'standard', forcedColors: false, reducedMotion: false, resolutionMatches: true, deviceWidthMatches: true, deviceHeightMatches: true }),
    touch: ok({ touchEvent: false, maxTouchPoints: 0 }),
    engine: ok(SPIDERMONKEY_153),
  }
}
export const FIREFOX_153_SERVER = observed('Mozilla/5.0 (X11; Linux x86_64; rv:153.0) Gecko/20100101 Firefox/153.0')

/** resistFingerprinting: screen, available area, window and page all 1400×900 at (0, 0), devicePixelRatio 2, 5 touch points. */
export function firefox153Rfp(): ScreenDisplaySignals {
  return {
    screen: ok({ width: 1400, height: 900, availWidth: 1400, colorDepth: 24, pixelDepth: 24, availHeight: 900, orientation: 'landscape-primary' }),
    window: ok({ screenX: 0, screenY: 0, innerWidth: 1400, outerWidth: 1400, innerHeight: 900, outerHeight: 900, devicePixelRatio: 2 }),
    visualViewport: ok({ scale: 1, width: 1400, height: 900 }),
    media: ok({ hover: 'hover', pointer: 'fine', colorGamut: 'srgb', colorScheme: 'light', dynamicRange: 'standard', forcedColors: false, reducedMotion: false, resolutionMatches: true, deviceWidthMatches: true, deviceHeightMatches: true }),
    touch: ok({ touchEvent: false, maxTouchPoints: 5 }),
    engine: ok(SPIDERMONKEY_153),
  }
}

/** fingerprint-injector's Windows Chrome fingerprint: devicePixelRatio 1.25 that neither CSS nor Sec-CH-DPR sees. */
export function spooferWindows(): ScreenDisplaySignals {
  return {
    screen: ok({ width: 1536, height: 864, availWidth: 1536, colorDepth: 32, pixelDepth: 32, availHeight: 816, orientation: 'landscape-primary' }),
    window: ok({ screenX: 10, screenY: 10, innerWidth: 1536, outerWidth: 1536, innerHeight: 864, outerHeight: 816, devicePixelRatio: 1.25 }),
    visualViewport: ok({ scale: 1, width: 1536, height: 864 }),
    media: ok({ hover: 'hover', pointer: 'fine', colorGamut: 'srgb', colorScheme: 'dark', dynamicRange: 'standard', forcedColors: false, reducedMotion: false, resolutionMatches: false, deviceWidthMatches: true, deviceHeightMatches: true }),
    touch: ok({ touchEvent: false, maxTouchPoints: 0 }),
    engine: ok(V8_156),
  }
}
export const SPOOFER_WINDOWS_SERVER = observed('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/147.0.0.0 Safari/537.36', [['sec-ch-dpr', '1'], ['sec-ch-viewport-width', '1536']])

/** fingerprint-injector's macOS Chrome fingerprint: devicePixelRatio 2 on a screen CSS sees at 1. */
export function spooferMacos(): ScreenDisplaySignals {
  return {
    screen: ok({ width: 1920, height: 1080, availWidth: 1920, colorDepth: 30, pixelDepth: 30, availHeight: 1080, orientation: 'landscape-primary' }),
    window: ok({ screenX: 6, screenY: 10, innerWidth: 1920, outerWidth: 1729, innerHeight: 1080, outerHeight: 865, devicePixelRatio: 2 }),
    visualViewport: ok({ scale: 1, width: 1920, height: 1080 }),
    media: ok({ hover: 'hover', pointer: 'fine', colorGamut: 'srgb', colorScheme: 'dark', dynamicRange: 'standard', forcedColors: false, reducedMotion: false, resolutionMatches: false, deviceWidthMatches: true, deviceHeightMatches: true }),
    touch: ok({ touchEvent: false, maxTouchPoints: 0 }),
    engine: ok(V8_156),
  }
}
export const SPOOFER_MACOS_SERVER = observed('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/145.0.0.0 Safari/537.36', [['sec-ch-dpr', '1'], ['sec-ch-viewport-width', '1920']])

/** Another run of the Windows fingerprint (they are drawn at random): devicePixelRatio 1 as real, the page the whole 1920×1080 screen in a 1920×1032 window. */
export function spooferWindowsFullHd(): ScreenDisplaySignals {
  return {
    screen: ok({ width: 1920, height: 1080, availWidth: 1920, colorDepth: 32, pixelDepth: 32, availHeight: 1032, orientation: 'landscape-primary' }),
    window: ok({ screenX: 10, screenY: 10, innerWidth: 1920, outerWidth: 1920, innerHeight: 1080, outerHeight: 1032, devicePixelRatio: 1 }),
    visualViewport: ok({ scale: 1, width: 1920, height: 1080 }),
    media: ok({ hover: 'hover', pointer: 'fine', colorGamut: 'srgb', colorScheme: 'dark', dynamicRange: 'standard', forcedColors: false, reducedMotion: false, resolutionMatches: true, deviceWidthMatches: true, deviceHeightMatches: true }),
    touch: ok({ touchEvent: false, maxTouchPoints: 0 }),
    engine: ok(V8_156),
  }
}
export const SPOOFER_WINDOWS_FULL_HD_SERVER = observed('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/147.0.0.0 Safari/537.36', [['sec-ch-dpr', '1'], ['sec-ch-viewport-width', '1920']])

/** fingerprint-injector's Windows Firefox fingerprint on headless Chromium 156: the page the whole 3840×1080 screen in a 1280×1040 window. */
export function spooferFirefox(): ScreenDisplaySignals {
  return {
    screen: ok({ width: 3840, height: 1080, availWidth: 3840, colorDepth: 24, pixelDepth: 24, availHeight: 1032, orientation: 'landscape-primary' }),
    window: ok({ screenX: 10, screenY: 10, innerWidth: 3840, outerWidth: 1280, innerHeight: 1080, outerHeight: 1040, devicePixelRatio: 1 }),
    visualViewport: ok({ scale: 1, width: 3840, height: 1080 }),
    media: ok({ hover: 'hover', pointer: 'fine', colorGamut: 'srgb', colorScheme: 'dark', dynamicRange: 'standard', forcedColors: false, reducedMotion: false, resolutionMatches: true, deviceWidthMatches: true, deviceHeightMatches: true }),
    touch: ok({ touchEvent: false, maxTouchPoints: 0 }),
    engine: ok(V8_156),
  }
}
export const SPOOFER_FIREFOX_SERVER = observed('Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:135.0) Gecko/20100101 Firefox/135.0', [['sec-ch-dpr', '1'], ['sec-ch-viewport-width', '3840']])
