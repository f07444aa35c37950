// The fonts against the operating system the User-Agent header claims. Fonts ship with the OS
// (Segoe UI with Windows, Helvetica Neue with Apple systems, DejaVu with Linux, the fonts.xml
// aliases with Android) and the CSS system fonts resolve to the platform's UI font: a UA string
// switched to another OS changes neither. The font tables are in common/font-os.ts.

import type { FontDetectionSignals, FontFaceLocal, FontMetrics } from '../../common/signals/font-detection'
import { familyOfClaimedOs, inferOsFromFonts, osFromSystemFont, type FontOsInference, type OsFamily } from '../../common/font-os'
import { osFromPlatformHint, osFromUserAgent, type Engine } from '../../common/user-agent'
import { header } from '../core/tools/observation'
import { checkOn, na } from './define'
import { trustedFonts } from './font-list'
import { pageEngine } from './page-engine'

const onFonts = checkOn<FontDetectionSignals>()

export const OS_LABEL: Record<OsFamily, string> = { windows: 'Windows', apple: 'macOS/iOS', linux: 'Linux/ChromeOS', android: 'Android' }

/**
 * The OS the trusted font list implies, with the fonts local() loaded when its random control
 * did not (null when the metrics are missing or noised).
 */
export function fontOsInference(metrics: FontMetrics | undefined, face: FontFaceLocal | undefined): FontOsInference | null {
  const detected = trustedFonts(metrics)
  return detected ? inferOsFromFonts([...detected, ...(face?.control === false ? face.loaded : [])]) : null
}

/** How the inferred OS compares with the OS family a client claims. */
export function compareFontOs(inference: FontOsInference, claimed: OsFamily): { verdict: 'pass' | 'warn' | 'fail'; contradicting: OsFamily[] } {
  const ev = inference.evidence
  const contradicting = (Object.keys(ev) as OsFamily[]).filter((f) => f !== claimed && ev[f].strong.length >= 2)
  if (ev[claimed].strong.length >= 2) return { verdict: 'pass', contradicting }
  if (contradicting.length) return { verdict: 'fail', contradicting }
  if (inference.os !== null && inference.os !== claimed && ev[claimed].score === 0) return { verdict: 'warn', contradicting }
  return { verdict: 'pass', contradicting }
}

/** Arial as the family of every system-font keyword is Blink's hard-coded choice on Linux, ChromeOS and Android. */
const isArial = (family: string) => family.replace(/["']/g, '').split(',')[0]!.trim().toLowerCase() === 'arial'

/**
 * What the system-font families say compared with the claimed OS family. `engine` is the one
 * the page runs on: Arial says Linux or Android only from Blink (elsewhere it says nothing).
 */
export function compareSystemFonts(families: readonly string[], claimed: OsFamily, engine: Engine = 'blink'): { verdict: 'pass' | 'warn' | 'fail'; implied: OsFamily[] } {
  const implied = new Set<OsFamily>()
  let onlyGeneric = true
  for (const f of families) {
    const os = engine !== 'blink' && isArial(f) ? null : osFromSystemFont(f)
    if (!os) continue
    for (const o of os) implied.add(o)
    if (!/^["']?system-ui/i.test(f.trim())) onlyGeneric = false
  }
  if (implied.size === 0 || implied.has(claimed)) return { verdict: 'pass', implied: [...implied] }
  return { verdict: onlyGeneric ? 'warn' : 'fail', implied: [...implied] }
}

export const fontsMatchOs = onFonts({
  id: 'fonts-match-os',
  name: 'Fonts belong to the OS in the User-Agent',
  found: 'fonts belong to another OS than the User-Agent\'s',
  source: 'server',
  why: 'Fonts ship with the operating system: Segoe UI and Marlett with Windows, Helvetica Neue, Menlo and Geneva with macOS/iOS, DejaVu and Liberation with Linux, the fonts.xml aliases with Android. A User-Agent header claiming one OS while the fonts of another are installed and none of its own is the classic spoofed UA. Designers and developers install extra fonts, so the check only fails when the claimed OS has no strong markers at all and another OS has several.',
  needs: [],
  uses: ['metrics', 'fontFace', 'platform'],
  judge: ({ metrics, fontFace, platform }, { server, missing }) => {
    const uaOs = osFromUserAgent(server.userAgent)
    const claimed = familyOfClaimedOs(uaOs)
    const inference = fontOsInference(metrics, fontFace)
    if (!claimed) return na(`the User-Agent header names no known OS (${server.userAgent.slice(0, 80) || 'empty'})`)
    if (!inference?.os) return na(inference ? 'no OS-specific font was found' : metrics ? 'the metrics are noised' : missing('metrics'))
    const cmp = compareFontOs(inference, claimed)
    const ev = inference.evidence
    const hintOs = osFromPlatformHint(header(server, 'sec-ch-ua-platform'))
    return {
      verdict: cmp.verdict,
      observed: {
        fontsSay: `${OS_LABEL[inference.os]} (${inference.confidence})`,
        userAgentSays: uaOs,
        ...(hintOs && hintOs !== uaOs ? { secChUaPlatformSays: hintOs } : {}),
        ...(platform ? { navigatorPlatform: platform.platform } : {}),
        markers: Object.fromEntries((Object.keys(ev) as OsFamily[]).filter((f) => ev[f].score > 0).map((f) => [f, [...ev[f].strong, ...ev[f].weak.map((w) => `${w} (weak)`)].slice(0, 8)])),
      },
      expected: `fonts of ${OS_LABEL[claimed]}${cmp.contradicting.length ? `, not of ${cmp.contradicting.map((f) => OS_LABEL[f]).join(' and ')}` : ''}`,
    }
  },
})

export const systemFontOs = onFonts({
  id: 'system-font-os',
  name: 'System UI font fits the claimed OS',
  found: 'the system UI font does not fit the claimed OS',
  source: 'client',
  why: '`font: caption` and the other system-font keywords resolve to the platform UI font: Segoe UI (or Tahoma/Microsoft Sans Serif on older or CJK setups) on Windows, the Apple system font on macOS/iOS, and a hard-coded Arial in Blink on Linux, ChromeOS and Android. Arial counts only when the page runs on V8 (Blink), told by its error messages rather than the user agent; Firefox on Linux reports the desktop\'s font (often just "Sans"). Spoofers change the UA string, not this. Browsers report "system-ui" on some platforms, which only warns.',
  ref: 'https://source.chromium.org/chromium/chromium/src/+/main:third_party/blink/renderer/core/layout/layout_theme_font_provider_default.cc',
  needs: ['systemFonts'],
  uses: ['engine'],
  judge: ({ systemFonts, engine }, { server }) => {
    const claimed = familyOfClaimedOs(osFromUserAgent(server.userAgent))
    if (!claimed) return na('the User-Agent header names no known OS')
    const families = Object.values(systemFonts)
    const page = pageEngine(engine)
    const cmp = compareSystemFonts(families, claimed, page.engine)
    const arial = families.some(isArial)
    return {
      verdict: cmp.verdict,
      observed: { families: [...new Set(families)], implies: cmp.implied.map((f) => OS_LABEL[f]) },
      // Only Arial's meaning depends on the engine: say which engine it was read by.
      expected: `the ${OS_LABEL[claimed]} UI font${arial ? ` (Arial means Linux or Android from Blink only; ${page.basis})` : ''}`,
    }
  },
})
