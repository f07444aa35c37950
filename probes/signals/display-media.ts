// CSS media queries see the real screen even when screen.* or devicePixelRatio are patched in
// JavaScript, which makes them the cross-check for those values.
// device-width/height are deprecated but still evaluated by every engine.

import type { DisplayMedia } from '../../common/signals/screen-display'

const matches = (q: string) => matchMedia(q).matches

function firstMatch(feature: string, values: readonly string[]): string | null {
  return values.find((v) => matches(`(${feature}: ${v})`)) ?? null
}

export function displayMedia(): DisplayMedia {
  return {
    deviceWidthMatches: matches(`(device-width: ${screen.width}px)`),
    deviceHeightMatches: matches(`(device-height: ${screen.height}px)`),
    // Resolution is compared in dppx; round to the 2 decimals browsers report.
    resolutionMatches:
      matches(`(resolution: ${devicePixelRatio}dppx)`) ||
      (matches(`(min-resolution: ${devicePixelRatio - 0.01}dppx)`) && matches(`(max-resolution: ${devicePixelRatio + 0.01}dppx)`)),
    colorGamut: firstMatch('color-gamut', ['rec2020', 'p3', 'srgb']),
    dynamicRange: firstMatch('dynamic-range', ['high', 'standard']),
    pointer: firstMatch('pointer', ['fine', 'coarse', 'none']),
    hover: firstMatch('hover', ['hover', 'none']),
    colorScheme: firstMatch('prefers-color-scheme', ['dark', 'light']),
    reducedMotion: matches('(prefers-reduced-motion: reduce)'),
    forcedColors: matches('(forced-colors: active)'),
  }
}
