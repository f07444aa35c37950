// The CSS media features FingerprintJS reads (color gamut, inverted/forced colours,
// monochrome depth, contrast, reduced motion and transparency, HDR) plus colour scheme. They
// are user or display settings, stable for a device, and Chromium also sends some of them as
// client hints (Sec-CH-Prefers-Color-Scheme, Sec-CH-Prefers-Reduced-Motion), which lets the
// server see whether the page's answers were tampered with.
// https://developer.mozilla.org/docs/Web/CSS/@media#media_features
const m = (q: string) => matchMedia(q).matches
const first = (feature: string, values: readonly string[]) => values.find((v) => m(`(${feature}: ${v})`)) ?? null

export function mediaPreferences() {
  let monochrome = 0
  // Monochrome bit depth: 0 on colour displays; FingerprintJS probes up to 100.
  if (m('(min-monochrome: 1)')) while (monochrome < 100 && m(`(min-monochrome: ${monochrome + 1})`)) monochrome++
  return {
    colorGamut: first('color-gamut', ['rec2020', 'p3', 'srgb']),
    invertedColors: first('inverted-colors', ['inverted', 'none']),
    forcedColors: first('forced-colors', ['active', 'none']),
    monochrome,
    contrast: first('prefers-contrast', ['no-preference', 'more', 'less', 'custom']),
    reducedMotion: first('prefers-reduced-motion', ['reduce', 'no-preference']),
    reducedTransparency: first('prefers-reduced-transparency', ['reduce', 'no-preference']),
    hdr: first('dynamic-range', ['high', 'standard']),
    colorScheme: first('prefers-color-scheme', ['dark', 'light']),
  }
}
