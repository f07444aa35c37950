// The fonts the font-detection page looks for, what each says about the operating system, and
// the pure inference from a set of detected fonts to an OS family. Shared by the probe (which
// only needs the names) and the judge.
//
// Markers are "strong" when the font ships with one OS and is rarely installed elsewhere, and
// "weak" when other OSes get it too (Office for Mac installs Calibri, designers buy Futura,
// Linux distributions alias Calibri to Carlito). Deliberately absent as markers: Arial, Times
// New Roman, Courier New, Helvetica, MS Gothic, SimSun and friends, because Chromium on Linux
// accepts fontconfig's metric-compatible substitutes for them (Liberation, Arimo, IPAGothic…),
// so they "exist" on any Linux with those packages; see IsMetricCompatibleReplacement in
// https://skia.googlesource.com/skia/+/main/src/ports/SkFontConfigInterface_direct.cpp

export const OS_FAMILIES = ['windows', 'apple', 'linux', 'android'] as const
export type OsFamily = (typeof OS_FAMILIES)[number]

export const FONT_MARKERS = {
  windows: {
    strong: [
      'Segoe UI', 'Segoe UI Symbol', 'Segoe UI Emoji', 'Segoe Print', 'Segoe Script', 'Segoe MDL2 Assets', 'Segoe Fluent Icons',
      'Segoe UI Variable Text', 'Bahnschrift', 'Cascadia Code', 'Marlett', 'Microsoft Sans Serif', 'Microsoft YaHei',
      'Microsoft JhengHei', 'Malgun Gothic', 'Leelawadee UI', 'Nirmala UI', 'Ebrima', 'Gadugi', 'Javanese Text', 'Myanmar Text',
      'MV Boli', 'Ink Free', 'Yu Gothic', 'Lucida Sans Unicode', 'Franklin Gothic Medium', 'Palatino Linotype', 'Gabriola', 'Sylfaen',
    ],
    weak: ['Calibri', 'Cambria', 'Consolas', 'Candara', 'Constantia', 'Corbel', 'Lucida Console'],
  },
  apple: {
    strong: [
      'Helvetica Neue', 'Menlo', 'Monaco', 'Lucida Grande', 'Geneva', 'Apple SD Gothic Neo', 'Hiragino Sans', 'PingFang SC',
      'Apple Chancery', 'Apple Color Emoji', 'Chalkboard SE', 'Marker Felt', 'Noteworthy', 'Skia', 'Zapfino', 'Kohinoor Devanagari',
      'Thonburi', 'Galvji', 'Avenir Next', 'Kailasa', 'Snell Roundhand', 'Bodoni 72',
    ],
    weak: ['Avenir', 'Futura', 'Gill Sans', 'Optima', 'Didot', 'American Typewriter', 'Baskerville', 'Copperplate', 'Herculanum'],
  },
  linux: {
    strong: [
      'DejaVu Sans', 'DejaVu Serif', 'DejaVu Sans Mono', 'Liberation Sans', 'Liberation Serif', 'Liberation Mono', 'Ubuntu',
      'Ubuntu Mono', 'Cantarell', 'FreeSans', 'FreeSerif', 'FreeMono', 'Nimbus Sans', 'Nimbus Roman', 'URW Gothic', 'C059', 'P052',
      'Bitstream Vera Sans', 'Oxygen', 'Carlito', 'Caladea',
    ],
    weak: ['Noto Sans', 'Noto Serif', 'Noto Color Emoji', 'Roboto', 'Arimo', 'Tinos', 'Cousine', 'Fira Sans', 'OpenSymbol'],
  },
  android: {
    // Android's fonts.xml family names and aliases, which Chrome on Android matches by name.
    strong: ['sans-serif-thin', 'sans-serif-light', 'sans-serif-condensed', 'sans-serif-smallcaps', 'serif-monospace', 'casual', 'Cutive Mono', 'Coming Soon', 'Dancing Script', 'Carrois Gothic SC', 'Droid Sans Mono'],
    weak: ['Roboto', 'Noto Sans', 'Noto Color Emoji', 'Droid Sans'],
  },
} as const satisfies Record<OsFamily, { strong: readonly string[]; weak: readonly string[] }>

/** Fonts that say which applications are installed, not which OS. */
export const APP_FONTS = {
  office: ['Aptos', 'Calibri Light', 'Century Gothic', 'Garamond', 'Book Antiqua', 'Bookman Old Style', 'Tw Cen MT', 'Gill Sans MT', 'Rockwell', 'Agency FB', 'Haettenschweiler', 'Lucida Bright', 'MS Reference Sans Serif'],
  adobe: ['Myriad Pro', 'Minion Pro', 'Adobe Caslon Pro', 'Adobe Garamond Pro', 'Kozuka Gothic Pr6N', 'Source Sans Pro'],
} as const

/** Widespread fonts (core web fonts and their metric twins): present almost everywhere. */
export const COMMON_FONTS = ['Arial', 'Arial Black', 'Verdana', 'Georgia', 'Times New Roman', 'Courier New', 'Trebuchet MS', 'Impact', 'Comic Sans MS', 'Tahoma', 'Helvetica'] as const

/** Every family the page measures, each once. */
export const FONT_LIST: readonly string[] = [
  ...new Set<string>([
    ...OS_FAMILIES.flatMap((f) => [...FONT_MARKERS[f].strong, ...FONT_MARKERS[f].weak]),
    ...APP_FONTS.office,
    ...APP_FONTS.adobe,
    ...COMMON_FONTS,
  ]),
]

/** Fonts loaded with FontFace local(): their full names equal their family names on their OS. */
export const LOCAL_FONT_PROBES = ['Segoe UI', 'Calibri', 'Helvetica Neue', 'Geneva', 'DejaVu Sans', 'Liberation Sans', 'Ubuntu', 'Cantarell', 'Roboto'] as const

/** Fonts a container or CI image ships with: a desktop has more than these. */
export const SERVER_LINUX_FONTS: ReadonlySet<string> = new Set([
  'DejaVu Sans', 'DejaVu Serif', 'DejaVu Sans Mono', 'Liberation Sans', 'Liberation Serif', 'Liberation Mono',
  'Bitstream Vera Sans', 'FreeSans', 'FreeSerif', 'FreeMono', 'Arimo', 'Tinos', 'Cousine',
  // Metric twins of these resolve to them on Linux (see above).
  'Arial', 'Times New Roman', 'Courier New', 'Helvetica',
])

export interface FamilyEvidence {
  strong: string[]
  weak: string[]
  score: number
}

export interface FontOsInference {
  /** The family with the most evidence, or null when no marker was found. */
  os: OsFamily | null
  /** strong: at least two strong markers of that family; weak: less. */
  confidence: 'strong' | 'weak' | 'none'
  evidence: Record<OsFamily, FamilyEvidence>
  apps: { office: string[]; adobe: string[] }
}

const lower = (xs: readonly string[]) => new Set(xs.map((x) => x.toLowerCase()))

/**
 * Infers the OS family from detected fonts: each strong marker counts 3, each weak one 1, and
 * the highest total wins. Ties between families leave the weaker confidence.
 */
export function inferOsFromFonts(detected: readonly string[]): FontOsInference {
  const have = lower(detected)
  const evidence = {} as Record<OsFamily, FamilyEvidence>
  for (const f of OS_FAMILIES) {
    const strong = FONT_MARKERS[f].strong.filter((n) => have.has(n.toLowerCase()))
    const weak = FONT_MARKERS[f].weak.filter((n) => have.has(n.toLowerCase()))
    evidence[f] = { strong, weak, score: strong.length * 3 + weak.length }
  }
  const ranked = [...OS_FAMILIES].sort((a, b) => evidence[b].score - evidence[a].score || evidence[b].strong.length - evidence[a].strong.length)
  const best = ranked[0]!
  const second = ranked[1]!
  const apps = {
    office: APP_FONTS.office.filter((n) => have.has(n.toLowerCase())),
    adobe: APP_FONTS.adobe.filter((n) => have.has(n.toLowerCase())),
  }
  if (evidence[best].score === 0) return { os: null, confidence: 'none', evidence, apps }
  const tie = evidence[second].score === evidence[best].score
  const confidence = evidence[best].strong.length >= 2 && !tie ? 'strong' : 'weak'
  return { os: best, confidence, evidence, apps }
}

/** The OS family a claimed OS belongs to (ChromeOS ships Linux-family fonts: Arimo, Noto, Roboto). */
export function familyOfClaimedOs(os: string): OsFamily | null {
  switch (os) {
    case 'windows':
      return 'windows'
    case 'mac':
    case 'ios':
      return 'apple'
    case 'linux':
    case 'chromeos':
      return 'linux'
    case 'android':
      return 'android'
    default:
      return null
  }
}

/**
 * What the CSS system fonts (`font: caption`, `menu`, …) say about the OS. Chromium resolves
 * them to the Windows UI font (Segoe UI, or Tahoma/Microsoft Sans Serif on old or CJK setups),
 * to the Apple system font on macOS/iOS, and to a hard-coded "Arial" on Linux, ChromeOS and
 * Android; Firefox on Linux reports the GTK font (Cantarell, Ubuntu, Noto Sans, …).
 */
export function osFromSystemFont(family: string): OsFamily[] | null {
  const f = family.replace(/["']/g, '').split(',')[0]!.trim().toLowerCase()
  if (!f) return null
  if (/^(segoe ui|tahoma|microsoft sans serif|ms shell dlg|yu gothic ui|meiryo ui|meiryo|microsoft yahei ui|microsoft jhenghei ui|malgun gothic|leelawadee ui|nirmala ui)/.test(f)) return ['windows']
  if (/^(-apple-system|system-ui|blinkmacsystemfont|\.applesystemuifont|\.sf ns|sf pro|lucida grande|helvetica neue|\.helvetica neue)/.test(f)) return ['apple']
  if (f === 'arial') return ['linux', 'android']
  if (/^(cantarell|ubuntu|dejavu sans|noto sans|liberation sans|oxygen|droid sans|roboto|inter|fira sans)/.test(f)) return ['linux', 'android']
  return null
}
