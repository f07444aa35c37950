// Whether the font list measured by text metrics can be trusted, and what it looks like. A
// random family that cannot exist must measure like its fallback, and a span measured twice
// must not change: when they do, offsetWidth/getBoundingClientRect are noised and the list is
// invented (noise extensions, anti-detect browsers). FingerprintJS and CreepJS measure fonts
// the same way (Lalit Patel's method).

import type { FontDetectionSignals, FontMetrics } from '../../common/signals/font-detection'
import { SERVER_LINUX_FONTS } from '../../common/font-os'
import { checkOn, na } from './define'

const onFonts = checkOn<FontDetectionSignals>()

/** The random control family was detected, or a re-measure changed: the metrics are noise. */
export const metricsNoised = (m: FontMetrics): boolean => m.controlDetected || !m.stable

/** The detected families, unless the metrics are noised (then null: the list is not evidence). */
export const trustedFonts = (m: FontMetrics | undefined): string[] | null => (m && !metricsNoised(m) ? m.detected : null)

const NOISED = 'the metrics are noised, so the font list cannot be trusted'

export const fontMetricsHonest = onFonts({
  id: 'font-metrics-honest',
  name: 'Text metrics are not noised',
  found: 'text metrics are noised',
  source: 'client',
  why: 'A random font name that cannot exist must measure exactly like its fallback, and a span measured twice must not change. When they do, an extension or anti-detect browser adds noise to offsetWidth/getBoundingClientRect, so the font list is invented. Privacy extensions do this too, hence a warning; a patch seen in the page but not in a fresh iframe (or offsetWidth disagreeing with getBoundingClientRect) is a targeted lie and fails.',
  ref: 'https://github.com/fingerprintjs/fingerprintjs/blob/master/src/sources/fonts.ts',
  needs: ['metrics'],
  judge: ({ metrics: m }) => ({
    verdict: !m.offsetAgrees || m.mainFrameAgrees === false ? 'fail' : metricsNoised(m) ? 'warn' : 'pass',
    observed: { randomFontDetected: m.controlDetected, stableRemeasure: m.stable, offsetMatchesRect: m.offsetAgrees, pageMatchesIframe: m.mainFrameAgrees, frame: m.frame },
    expected: 'random family measures like its fallback; same sizes on re-measure, through offsetWidth and getBoundingClientRect, in the page and in the iframe',
  }),
})

export const fontsDetected = onFonts({
  id: 'fonts-detected',
  name: 'Installed fonts are visible',
  found: 'no installed fonts are visible',
  source: 'client',
  why: 'Every real system has some of the ~140 families tested (DejaVu on Linux, Segoe UI on Windows, Helvetica Neue on Apple systems, Android font aliases). None at all means text is rendered without system fonts, as in stripped containers, or that font access is blocked; Firefox resistFingerprinting and Tor still expose their bundled fonts.',
  needs: ['metrics'],
  judge: ({ metrics }) => {
    const detected = trustedFonts(metrics)
    if (!detected) return na(NOISED)
    return { verdict: detected.length > 0 ? 'pass' : 'warn', observed: `${detected.length} of ${metrics.tested} families`, expected: 'at least one installed family' }
  },
})

export const fontSetDesktop = onFonts({
  id: 'font-set-desktop',
  name: 'Font set looks like a desktop',
  found: 'the font set is a server\'s or a container\'s',
  source: 'client',
  why: 'Only DejaVu, Liberation and their metric twins is what Debian/Ubuntu server and container images ship (fonts-dejavu-core, fonts-liberation, pulled in by Chromium), i.e. headless browsers in CI or scraping farms. A minimal Linux desktop can look the same, so this is a warning.',
  needs: ['metrics'],
  judge: ({ metrics }) => {
    const detected = trustedFonts(metrics)
    if (!detected) return na(NOISED)
    const serverOnly = detected.length > 0 && detected.every((f) => SERVER_LINUX_FONTS.has(f))
    return {
      verdict: detected.length > 0 && (serverOnly || detected.length <= 3) ? 'warn' : 'pass',
      observed: detected.length <= 20 ? detected : `${detected.length} families`,
      expected: 'fonts beyond DejaVu/Liberation (a desktop environment, office or UI fonts)',
    }
  },
})
