// font-detection: installed fonts by metrics (in an iframe), by FontFace local() and by the
// CSS system fonts, the operating system they imply, and whether that OS is the one the
// User-Agent header claims. Fonts are hard to fake consistently: a UA switched to Windows on a
// Linux box still renders DejaVu and has no Segoe UI; noise injected into text metrics is caught
// by a random family that cannot exist.

import { Type, type Static } from '@sinclair/typebox'
import { check, type Check, type CheckDef } from '../scoring'
import { Signal, valueOf, whyMissing } from '../../../common/signal'
import { osFromPlatformHint, osFromUserAgent } from '../../../common/user-agent'
import { familyOfClaimedOs, FONT_LIST, inferOsFromFonts, osFromSystemFont, SERVER_LINUX_FONTS, type FontOsInference, type OsFamily } from '../../../common/font-os'
import { header, type ServerObservation } from './observation'
import { legacyTool } from './types'

const Bool = Type.Boolean()
const Int = Type.Integer({ minimum: 0 })
const FontNames = Type.Array(Type.String({ maxLength: 64 }), { maxItems: 256 })
const Size = Type.Tuple([Type.Number(), Type.Number()])
const Family = Type.String({ maxLength: 100 })

export const FontDetectionSignals = Type.Object({
  metrics: Signal(
    Type.Object({
      detected: FontNames,
      tested: Int,
      bases: Type.Object({ monospace: Size, 'sans-serif': Size, serif: Size }),
      controlDetected: Bool,
      stable: Bool,
      offsetAgrees: Bool,
      mainFrameAgrees: Type.Union([Bool, Type.Null()]),
      frame: Type.Union([Type.Literal('iframe'), Type.Literal('main')]),
    }),
  ),
  fontsCheck: Signal(Type.Object({ control: Bool, absent: FontNames, tested: Int })),
  fontFace: Signal(Type.Object({ loaded: FontNames, failed: FontNames, control: Bool })),
  systemFonts: Signal(
    Type.Object({
      caption: Family, icon: Family, menu: Family, 'message-box': Family, 'small-caption': Family, 'status-bar': Family,
    }),
  ),
  platform: Signal(Type.Object({ platform: Type.String({ maxLength: 128 }), uaDataPlatform: Type.Union([Type.String({ maxLength: 64 }), Type.Null()]) })),
})
export type FontDetectionSignals = Static<typeof FontDetectionSignals>

const DEFS = {
  metricsHonest: {
    id: 'font-metrics-honest', name: 'Text metrics are not noised', source: 'client', weight: 30,
    why: 'A random font name that cannot exist must measure exactly like its fallback, and a span measured twice must not change. When they do, an extension or anti-detect browser adds noise to offsetWidth/getBoundingClientRect, so the font list is invented. Privacy extensions do this too, hence a warning; a patch seen in the page but not in a fresh iframe (or offsetWidth disagreeing with getBoundingClientRect) is a targeted lie and fails.',
  },
  fontsFound: {
    id: 'fonts-detected', name: 'Installed fonts are visible', source: 'client', weight: 20,
    why: 'Every real system has some of the ~140 families tested (DejaVu on Linux, Segoe UI on Windows, Helvetica Neue on Apple systems, Android font aliases). None at all means text is rendered without system fonts, as in stripped containers, or that font access is blocked; Firefox resistFingerprinting and Tor still expose their bundled fonts.',
  },
  desktopSet: {
    id: 'font-set-desktop', name: 'Font set looks like a desktop', source: 'client', weight: 12,
    why: 'Only DejaVu, Liberation and their metric twins is what Debian/Ubuntu server and container images ship (fonts-dejavu-core, fonts-liberation, pulled in by Chromium), i.e. headless browsers in CI or scraping farms. A minimal Linux desktop can look the same, so this is a warning.',
  },
  osMatchesUa: {
    id: 'fonts-match-os', name: 'Fonts belong to the OS in the User-Agent', source: 'server', weight: 40,
    why: 'Fonts ship with the operating system: Segoe UI and Marlett with Windows, Helvetica Neue, Menlo and Geneva with macOS/iOS, DejaVu and Liberation with Linux, the fonts.xml aliases with Android. A User-Agent header claiming one OS while the fonts of another are installed and none of its own is the classic spoofed UA. Designers and developers install extra fonts, so the check only fails when the claimed OS has no strong markers at all and another OS has several.',
  },
  systemFont: {
    id: 'system-font-os', name: 'System UI font fits the claimed OS', source: 'client', weight: 20,
    why: '`font: caption` and the other system-font keywords resolve to the platform UI font: Segoe UI (or Tahoma/Microsoft Sans Serif on older or CJK setups) on Windows, the Apple system font on macOS/iOS, and a hard-coded Arial in Chromium on Linux, ChromeOS and Android. Spoofers change the UA string, not this. Browsers report "system-ui" on some platforms, which only warns.',
  },
  fontFace: {
    id: 'font-face-local', name: 'FontFace local() agrees with the metrics', source: 'client', weight: 20,
    why: 'local() finds fonts by full name without layout, so it is a second witness: a random name must never load, and a font that loads through local() must also change the text metrics. Metrics may find more (Linux fontconfig aliases, family vs full names), so only the other direction counts.',
  },
  fontsCheck: {
    id: 'fonts-check-api', name: 'document.fonts.check behaves like the engine', source: 'client', weight: 10,
    why: 'Per the CSS Font Loading spec, check() is true for any family that is not an unloaded web font, so today a random name is true in every engine. If check() says false for the random name it discriminates (old Chromium) and must then agree with the metrics; answers that contradict the metrics point to a patched API.',
  },
} as const satisfies Record<string, CheckDef>

const na = (def: CheckDef, why: string) => check(def, { verdict: 'na', observed: null, expected: why })
const lowerSet = (xs: readonly string[]) => new Set(xs.map((x) => x.toLowerCase()))

const OS_LABEL: Record<OsFamily, string> = { windows: 'Windows', apple: 'macOS/iOS', linux: 'Linux/ChromeOS', android: 'Android' }

/** How the inferred OS compares with the OS family a client claims. */
export function compareFontOs(inference: FontOsInference, claimed: OsFamily): { verdict: 'pass' | 'warn' | 'fail'; contradicting: OsFamily[] } {
  const ev = inference.evidence
  const contradicting = (Object.keys(ev) as OsFamily[]).filter((f) => f !== claimed && ev[f].strong.length >= 2)
  if (ev[claimed].strong.length >= 2) return { verdict: 'pass', contradicting }
  if (contradicting.length) return { verdict: 'fail', contradicting }
  if (inference.os !== null && inference.os !== claimed && ev[claimed].score === 0) return { verdict: 'warn', contradicting }
  return { verdict: 'pass', contradicting }
}

/** What the system-font families say compared with the claimed OS family. */
export function compareSystemFonts(families: readonly string[], claimed: OsFamily): { verdict: 'pass' | 'warn' | 'fail'; implied: OsFamily[] } {
  const implied = new Set<OsFamily>()
  let onlyGeneric = true
  for (const f of families) {
    const os = osFromSystemFont(f)
    if (!os) continue
    os.forEach((o) => implied.add(o))
    if (!/^["']?system-ui/i.test(f.trim())) onlyGeneric = false
  }
  if (implied.size === 0 || implied.has(claimed)) return { verdict: 'pass', implied: [...implied] }
  return { verdict: onlyGeneric ? 'warn' : 'fail', implied: [...implied] }
}

export const fontDetection = legacyTool({
  id: 'font-detection',
  signals: FontDetectionSignals,
  sections: Type.Object({ fonts: Type.Unknown() }),
  judge(s: FontDetectionSignals, server: ServerObservation) {
    const checks: Check[] = []
    const metrics = valueOf(s.metrics)
    const face = valueOf(s.fontFace)
    const fcheck = valueOf(s.fontsCheck)
    const sys = valueOf(s.systemFonts)
    const platform = valueOf(s.platform)

    const uaOs = osFromUserAgent(server.userAgent)
    const claimed = familyOfClaimedOs(uaOs)
    const hintOs = osFromPlatformHint(header(server, 'sec-ch-ua-platform'))

    // 1. Are the metrics trustworthy at all?
    const noised = !!metrics && (metrics.controlDetected || !metrics.stable)
    const patched = !!metrics && (!metrics.offsetAgrees || metrics.mainFrameAgrees === false)
    if (metrics) {
      checks.push(
        check(DEFS.metricsHonest, {
          verdict: patched ? 'fail' : noised ? 'warn' : 'pass',
          observed: { randomFontDetected: metrics.controlDetected, stableRemeasure: metrics.stable, offsetMatchesRect: metrics.offsetAgrees, pageMatchesIframe: metrics.mainFrameAgrees, frame: metrics.frame },
          expected: 'random family measures like its fallback; same sizes on re-measure, through offsetWidth and getBoundingClientRect, in the page and in the iframe',
        }),
      )
    } else checks.push(na(DEFS.metricsHonest, whyMissing(s.metrics)))

    // The font list, unless it is noise.
    const detected = metrics && !noised ? metrics.detected : null
    const inference = detected ? inferOsFromFonts([...detected, ...(face?.control === false ? face.loaded : [])]) : null

    if (metrics && detected) {
      checks.push(check(DEFS.fontsFound, { verdict: detected.length > 0 ? 'pass' : 'warn', observed: `${detected.length} of ${metrics.tested} families`, expected: 'at least one installed family' }))
      const serverOnly = detected.length > 0 && detected.every((f) => SERVER_LINUX_FONTS.has(f))
      checks.push(
        check(DEFS.desktopSet, {
          verdict: detected.length > 0 && (serverOnly || detected.length <= 3) ? 'warn' : 'pass',
          observed: detected.length <= 20 ? detected : `${detected.length} families`,
          expected: 'fonts beyond DejaVu/Liberation (a desktop environment, office or UI fonts)',
        }),
      )
    } else {
      const why = metrics ? 'the metrics are noised, so the font list cannot be trusted' : whyMissing(s.metrics)
      checks.push(na(DEFS.fontsFound, why), na(DEFS.desktopSet, why))
    }

    // 2. The OS the fonts imply vs the OS the User-Agent header claims.
    if (inference && claimed && inference.os) {
      const cmp = compareFontOs(inference, claimed)
      const ev = inference.evidence
      checks.push(
        check(DEFS.osMatchesUa, {
          verdict: cmp.verdict,
          observed: {
            fontsSay: `${OS_LABEL[inference.os]} (${inference.confidence})`,
            userAgentSays: uaOs,
            ...(hintOs && hintOs !== uaOs ? { secChUaPlatformSays: hintOs } : {}),
            ...(platform ? { navigatorPlatform: platform.platform } : {}),
            markers: Object.fromEntries((Object.keys(ev) as OsFamily[]).filter((f) => ev[f].score > 0).map((f) => [f, [...ev[f].strong, ...ev[f].weak.map((w) => `${w} (weak)`)].slice(0, 8)])),
          },
          expected: `fonts of ${OS_LABEL[claimed]}${cmp.contradicting.length ? `, not of ${cmp.contradicting.map((f) => OS_LABEL[f]).join(' and ')}` : ''}`,
        }),
      )
    } else if (!claimed) checks.push(na(DEFS.osMatchesUa, `the User-Agent header names no known OS (${server.userAgent.slice(0, 80) || 'empty'})`))
    else checks.push(na(DEFS.osMatchesUa, inference ? 'no OS-specific font was found' : metrics ? 'the metrics are noised' : whyMissing(s.metrics)))

    // 3. System UI fonts.
    if (sys && claimed) {
      const families = Object.values(sys)
      const cmp = compareSystemFonts(families, claimed)
      checks.push(
        check(DEFS.systemFont, {
          verdict: cmp.verdict,
          observed: { families: [...new Set(families)], implies: cmp.implied.map((f) => OS_LABEL[f]) },
          expected: `the ${OS_LABEL[claimed]} UI font`,
        }),
      )
    } else checks.push(na(DEFS.systemFont, sys ? 'the User-Agent header names no known OS' : whyMissing(s.systemFonts)))

    // 4. FontFace local() as a second witness.
    if (face && metrics && !noised) {
      const seen = lowerSet(metrics.detected)
      const unseen = face.loaded.filter((f) => !seen.has(f.toLowerCase()))
      checks.push(
        check(DEFS.fontFace, {
          verdict: face.control ? 'fail' : unseen.length ? 'warn' : 'pass',
          observed: { loaded: face.loaded, randomNameLoaded: face.control, ...(unseen.length ? { loadedButNotInMetrics: unseen } : {}) },
          expected: 'random name fails; every font local() loads also changes the metrics',
        }),
      )
    } else if (face) {
      checks.push(check(DEFS.fontFace, { verdict: face.control ? 'fail' : 'na', observed: { loaded: face.loaded, randomNameLoaded: face.control }, expected: face.control ? 'random name fails to load' : 'metrics to compare with' }))
    } else checks.push(na(DEFS.fontFace, whyMissing(s.fontFace)))

    // 5. document.fonts.check.
    if (fcheck) {
      if (fcheck.control) {
        const contradictory = fcheck.absent.length > 0 && !!detected && fcheck.absent.some((f) => lowerSet(detected).has(f.toLowerCase()))
        checks.push(
          check(DEFS.fontsCheck, {
            verdict: contradictory ? 'warn' : 'pass',
            observed: { randomNameTrue: true, falseFor: fcheck.absent.slice(0, 10) },
            expected: 'true for every family, as the spec says (no font information), or answers consistent with the metrics',
          }),
        )
      } else if (detected) {
        const absent = lowerSet(fcheck.absent)
        const seen = lowerSet(detected)
        const disagree = FONT_LIST.filter((f) => absent.has(f.toLowerCase()) === seen.has(f.toLowerCase())).length
        const ratio = 1 - disagree / FONT_LIST.length
        checks.push(
          check(DEFS.fontsCheck, {
            verdict: ratio >= 0.9 ? 'pass' : 'warn',
            observed: { randomNameTrue: false, presentByCheck: fcheck.tested - fcheck.absent.length, presentByMetrics: detected.length, agreement: Math.round(ratio * 100) / 100 },
            expected: 'a discriminating check() agrees with the metrics on at least 90% of families',
          }),
        )
      } else checks.push(na(DEFS.fontsCheck, 'the metrics to compare with are missing or noised'))
    } else checks.push(na(DEFS.fontsCheck, whyMissing(s.fontsCheck)))

    return {
      checks,
      sections: {
        fonts: {
          detected: detected ?? [],
          count: detected?.length ?? 0,
          tested: metrics?.tested ?? 0,
          noised,
          inferredOs: inference?.os ?? null,
          confidence: inference?.confidence ?? 'none',
          evidence: inference ? Object.fromEntries(Object.entries(inference.evidence).map(([k, v]) => [k, { strong: v.strong, weak: v.weak }])) : null,
          apps: inference?.apps ?? null,
          systemFonts: sys ?? null,
          claimedOs: uaOs,
        },
      },
    }
  },
})
