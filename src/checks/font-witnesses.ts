// Two witnesses of the installed fonts besides the text metrics: FontFace local(), which finds
// a font by name without layout, and document.fonts.check(). Each must agree with the metrics
// where it can tell fonts apart, and neither may find a random family that cannot exist.

import type { FontDetectionSignals } from '../../common/signals/font-detection'
import { FONT_LIST } from '../../common/font-os'
import { checkOn, na } from './define'
import { metricsNoised, trustedFonts } from './font-list'

const onFonts = checkOn<FontDetectionSignals>()
const lowerSet = (xs: readonly string[]) => new Set(xs.map((x) => x.toLowerCase()))

export const localFontsAgree = onFonts({
  id: 'font-face-local',
  name: 'FontFace local() agrees with the metrics',
  found: 'FontFace local() contradicts the metrics',
  source: 'client',
  why: 'local() finds fonts by full name without layout, so it is a second witness: a random name must never load, and a font that loads through local() must also change the text metrics. Metrics may find more (Linux fontconfig aliases, family vs full names), so only the other direction counts.',
  ref: 'https://drafts.csswg.org/css-fonts/#local-font-fallback',
  needs: ['fontFace'],
  uses: ['metrics'],
  judge: ({ fontFace: face, metrics }) => {
    if (!metrics || metricsNoised(metrics)) {
      return { verdict: face.control ? 'fail' : 'na', observed: { loaded: face.loaded, randomNameLoaded: face.control }, expected: face.control ? 'random name fails to load' : 'metrics to compare with' }
    }
    const seen = lowerSet(metrics.detected)
    const unseen = face.loaded.filter((f) => !seen.has(f.toLowerCase()))
    return {
      verdict: face.control ? 'fail' : unseen.length ? 'warn' : 'pass',
      observed: { loaded: face.loaded, randomNameLoaded: face.control, ...(unseen.length ? { loadedButNotInMetrics: unseen } : {}) },
      expected: 'random name fails; every font local() loads also changes the metrics',
    }
  },
})

export const fontsCheckApi = onFonts({
  id: 'fonts-check-api',
  name: 'document.fonts.check behaves like the engine',
  found: 'document.fonts.check does not behave like the engine',
  source: 'client',
  why: 'Per the CSS Font Loading spec, check() is true for any family that is not an unloaded web font, so today a random name is true in every engine. If check() says false for the random name it discriminates (old Chromium) and must then agree with the metrics; answers that contradict the metrics point to a patched API.',
  ref: 'https://drafts.csswg.org/css-font-loading/#font-face-set-check',
  needs: ['fontsCheck'],
  uses: ['metrics'],
  judge: ({ fontsCheck: fc, metrics }) => {
    const detected = trustedFonts(metrics)
    if (fc.control) {
      const contradictory = fc.absent.length > 0 && !!detected && fc.absent.some((f) => lowerSet(detected).has(f.toLowerCase()))
      return {
        verdict: contradictory ? 'warn' : 'pass',
        observed: { randomNameTrue: true, falseFor: fc.absent.slice(0, 10) },
        expected: 'true for every family, as the spec says (no font information), or answers consistent with the metrics',
      }
    }
    if (!detected) return na('the metrics to compare with are missing or noised')
    const absent = lowerSet(fc.absent)
    const seen = lowerSet(detected)
    const disagree = FONT_LIST.filter((f) => absent.has(f.toLowerCase()) === seen.has(f.toLowerCase())).length
    const ratio = 1 - disagree / FONT_LIST.length
    return {
      verdict: ratio >= 0.9 ? 'pass' : 'warn',
      observed: { randomNameTrue: false, presentByCheck: fc.tested - fc.absent.length, presentByMetrics: detected.length, agreement: Math.round(ratio * 100) / 100 },
      expected: 'a discriminating check() agrees with the metrics on at least 90% of families',
    }
  },
})
