// font-detection: installed fonts by metrics (in an iframe), by FontFace local() and by the
// CSS system fonts, the operating system they imply, and whether that OS is the one the
// User-Agent header claims. Fonts are hard to fake consistently: a UA switched to Windows on a
// Linux box still renders DejaVu and has no Segoe UI; noise injected into text metrics is caught
// by a random family that cannot exist. The checks are in src/checks (font-list,
// claimed-os-fonts, font-witnesses).

import { Type } from '@sinclair/typebox'
import { signalValue } from '../../../common/signal'
import { FontDetectionSignals } from '../../../common/signals/font-detection'
import { osFromUserAgent } from '../../../common/user-agent'
import { fontOsInference, fontsMatchOs, systemFontOs } from '../../checks/claimed-os-fonts'
import { fontMetricsHonest, fontSetDesktop, fontsDetected, metricsNoised, trustedFonts } from '../../checks/font-list'
import { fontsCheckApi, localFontsAgree } from '../../checks/font-witnesses'
import { defineTool } from './types'

export const fontDetection = defineTool({
  id: 'font-detection',
  signals: FontDetectionSignals,
  sections: Type.Object({ fonts: Type.Unknown() }),
  checks: [
    [fontMetricsHonest, 30],
    [fontsDetected, 20],
    [fontSetDesktop, 12],
    [fontsMatchOs, 40],
    [systemFontOs, 20],
    [localFontsAgree, 20],
    [fontsCheckApi, 10],
  ],
  addSections(s, _judged, server) {
    const metrics = signalValue(s.metrics)
    const detected = trustedFonts(metrics)
    const inference = fontOsInference(metrics, signalValue(s.fontFace))
    return {
      fonts: {
        detected: detected ?? [],
        count: detected?.length ?? 0,
        tested: metrics?.tested ?? 0,
        noised: !!metrics && metricsNoised(metrics),
        inferredOs: inference?.os ?? null,
        confidence: inference?.confidence ?? 'none',
        evidence: inference ? Object.fromEntries(Object.entries(inference.evidence).map(([k, v]) => [k, { strong: v.strong, weak: v.weak }])) : null,
        apps: inference?.apps ?? null,
        systemFonts: signalValue(s.systemFonts) ?? null,
        claimedOs: osFromUserAgent(server.userAgent),
      },
    }
  },
})
