// What a client claims to be, read from the User-Agent string and from the User-Agent client
// hints (Sec-CH-UA and navigator.userAgentData). Small on purpose: the tools need the claimed
// browser family, major version, engine and OS to compare claims with each other and with what
// the client does, not a device database. Two summaries of one reading: parseUserAgent (the
// browser, or the HTTP library or crawler, as the header and client-hint checks need it) and
// engineClaim (the engine and its version, as the checks of engine behaviour need it).
//
// Quirks encoded here:
// - On iOS every browser is WebKit (CriOS, FxiOS, EdgiOS are Safari underneath): Apple
//   requires it outside the EU, and the EU exception is not used by the major vendors' iOS apps.
// - Chrome's reduced UA freezes minor versions ("Chrome/124.0.0.0") and the OS version
//   (https://www.chromium.org/updates/ua-reduction/), so only the major version is compared.
// - Brand lists carry a GREASE brand ("Not A(Brand", "Not:A-Brand", ...) with shuffled
//   punctuation to keep servers from hard-coding the list
//   (https://wicg.github.io/ua-client-hints/#grease).

export type BrowserFamily = 'chrome' | 'chromium' | 'edge' | 'opera' | 'brave' | 'samsung' | 'yandex' | 'vivaldi' | 'firefox' | 'safari' | 'tool' | 'other'
/** Each family as a person writes it (in sentences a person reads). */
export const FAMILY_NAMES: Record<BrowserFamily, string> = {
  chrome: 'Chrome',
  chromium: 'Chromium',
  edge: 'Edge',
  opera: 'Opera',
  brave: 'Brave',
  samsung: 'Samsung Internet',
  yandex: 'Yandex Browser',
  vivaldi: 'Vivaldi',
  firefox: 'Firefox',
  safari: 'Safari',
  tool: 'an HTTP client',
  other: 'an unknown browser',
}
export type Engine = 'blink' | 'gecko' | 'webkit' | 'unknown'
export type Os = 'windows' | 'mac' | 'ios' | 'android' | 'linux' | 'chromeos' | 'unknown'

export interface ClaimedBrowser {
  family: BrowserFamily
  engine: Engine
  /** Major version, or null when the string names none. */
  version: number | null
  os: Os
  mobile: boolean
  /** "HeadlessChrome" or another headless/automation marker in the string. */
  headless: boolean
  /** For family `tool`: the HTTP library or bot named (curl, python-requests, …). */
  tool: string | null
}

const TOOLS: ReadonlyArray<[RegExp, string]> = [
  [/\bcurl\//i, 'curl'],
  [/\bWget\//i, 'wget'],
  [/python-requests|python-urllib|aiohttp|httpx|python\//i, 'python'],
  [/Go-http-client/i, 'go'],
  [/\bokhttp\//i, 'okhttp'],
  [/Java\/|Apache-HttpClient/i, 'java'],
  [/node-fetch|undici|axios|\bnode\b/i, 'node'],
  [/libwww-perl|\bPHP\b|Guzzle/i, 'script'],
  [/Scrapy/i, 'scrapy'],
  [/PhantomJS/i, 'phantomjs'],
  [/[a-z]bot\/|spider|crawler|slurp/i, 'bot'],
]

function major(ua: string, re: RegExp): number | null {
  const m = re.exec(ua)
  return m ? Number(m[1]) : null
}

export function osFromUserAgent(ua: string): Os {
  if (/Windows NT|Win64|Win32|Windows Phone/.test(ua)) return 'windows'
  if (/Android/.test(ua)) return 'android'
  if (/iPhone|iPad|iPod/.test(ua)) return 'ios'
  if (/Macintosh|Mac OS X/.test(ua)) return 'mac'
  if (/CrOS/.test(ua)) return 'chromeos'
  if (/Linux|X11|FreeBSD|OpenBSD/.test(ua)) return 'linux'
  return 'unknown'
}

/** Reads the browser a User-Agent string claims to be. */
export function parseUserAgent(ua: string): ClaimedBrowser {
  const os = osFromUserAgent(ua)
  const mobile = /Mobile|iPhone|iPod|Android.*Mobile/.test(ua)
  const headless = /Headless|PhantomJS|Electron\//.test(ua)
  const base = { os, mobile, headless, tool: null }
  if (!/^Mozilla\/5\.0 /.test(ua)) {
    const tool = TOOLS.find(([re]) => re.test(ua))
    return { ...base, family: tool || !ua ? 'tool' : 'other', engine: 'unknown', version: null, tool: tool ? tool[1] : ua ? null : 'empty' }
  }
  // PhantomJS and crawlers carry browser tokens too; HTTP libraries that fake a Mozilla
  // prefix usually do not.
  const browserTokens = /Chrome\/|Firefox\/|Safari\//.test(ua)
  const tool = TOOLS.find(([re, name]) => re.test(ua) && (!browserTokens || name === 'phantomjs' || name === 'bot'))
  if (tool) return { ...base, family: 'tool', engine: 'unknown', version: null, tool: tool[1] }
  return { ...base, ...fromBrowserTokens(ua, os) }
}

/** The browser the tokens name, whatever else the string says (a crawler's, a library's). */
function fromBrowserTokens(ua: string, os: Os): Pick<ClaimedBrowser, 'family' | 'engine' | 'version'> {
  if (os === 'ios') {
    const family: BrowserFamily = /CriOS\//.test(ua) ? 'chrome' : /FxiOS\//.test(ua) ? 'firefox' : /EdgiOS\//.test(ua) ? 'edge' : /OPiOS|OPT\//.test(ua) ? 'opera' : 'safari'
    const version = major(ua, /(?:CriOS|FxiOS|EdgiOS|OPiOS|OPT|Version)\/(\d+)/)
    return { family, engine: 'webkit', version }
  }
  if (/Firefox\/\d/.test(ua) && /Gecko\/\d/.test(ua)) return { family: 'firefox', engine: 'gecko', version: major(ua, /Firefox\/(\d+)/) }
  const blink: Array<[RegExp, BrowserFamily]> = [
    [/Edg(?:e|A)?\/(\d+)/, 'edge'],
    [/OPR\/(\d+)/, 'opera'],
    [/SamsungBrowser\/(\d+)/, 'samsung'],
    [/YaBrowser\/(\d+)/, 'yandex'],
    [/Vivaldi\/(\d+)/, 'vivaldi'],
    [/(?:Headless)?Chrome\/(\d+)/, 'chrome'],
    [/Chromium\/(\d+)/, 'chromium'],
  ]
  for (const [re, family] of blink) {
    if (re.test(ua)) {
      // Forks keep the Chrome token; the version that matters for client hints is Chrome's.
      const version = major(ua, /(?:Headless)?Chrom(?:e|ium)\/(\d+)/) ?? major(ua, re)
      return { family, engine: 'blink', version }
    }
  }
  if (/AppleWebKit\//.test(ua) && /Safari\//.test(ua) && /Version\/\d/.test(ua)) return { family: 'safari', engine: 'webkit', version: major(ua, /Version\/(\d+)/) }
  return { family: 'other', engine: /AppleWebKit\//.test(ua) ? 'webkit' : /Gecko\//.test(ua) ? 'gecko' : 'unknown', version: null }
}

export interface EngineClaim {
  os: Os
  engine: Engine
  /** The browser the tokens name: chrome, headless-chrome, edge, opera, samsung, firefox, safari, …, or unknown. */
  browser: string
  /** Major version of the engine: Chromium's for Blink, Firefox's for Gecko, Safari's for WebKit. */
  major: number | null
  /** A phone or tablet: a Mobile token, or Android, iPhone or iPod anywhere in the string. */
  mobile: boolean
}

/**
 * The engine a User-Agent string claims and its major version, for checks of what the engine
 * does (APIs, permission names, audio sums, fonts, GPUs). Read from the browser tokens even
 * where parseUserAgent names a crawler or PhantomJS: their engine still runs the page. On iOS
 * the WebKit version is Safari's (Version/), else the system's, since CriOS/FxiOS carry their
 * own app version.
 */
export function engineClaim(ua: string): EngineClaim {
  const os = osFromUserAgent(ua)
  const t = fromBrowserTokens(ua, os)
  const browser = t.family === 'other' ? 'unknown' : t.family === 'chrome' && /HeadlessChrome/.test(ua) ? 'headless-chrome' : t.family
  const version = os === 'ios' ? major(ua, /Version\/(\d+)/) ?? major(ua, /OS (\d+)_/) : t.version
  return { os, engine: t.engine, browser, major: version, mobile: /Mobile|Android|iPhone|iPod/.test(ua) }
}

export interface Brand {
  brand: string
  version: string
}

/** A GREASE brand: "Not A(Brand", "Not:A-Brand", "Not/A)Brand", ";Not A Brand", "Not_A Brand". */
export function isGreaseBrand(brand: string): boolean {
  return /^[^a-z]*not[^a-z]*a[^a-z]*brand[^a-z]*$/i.test(brand)
}

/**
 * Parses a Structured Field list of brands, as in Sec-CH-UA and Sec-CH-UA-Full-Version-List:
 * `"Chromium";v="124", "Google Chrome";v="124", "Not-A.Brand";v="99"`. Returns null when the
 * value is not such a list.
 */
export function parseBrandList(value: string): Brand[] | null {
  const out: Brand[] = []
  const re = /\s*"((?:[^"\\]|\\.)*)"\s*;\s*v\s*=\s*"((?:[^"\\]|\\.)*)"\s*(?:,|$)/y
  let pos = 0
  const s = value.trim()
  while (pos < s.length) {
    re.lastIndex = pos
    const m = re.exec(s)
    if (!m) return null
    out.push({ brand: m[1]!.replace(/\\(.)/g, '$1'), version: m[2]!.replace(/\\(.)/g, '$1') })
    pos = re.lastIndex
  }
  return out
}

/** `"x86"` → `x86`; a Structured Field string, or null when the value is not one. */
export function parseSfString(value: string): string | null {
  const m = /^\s*"((?:[^"\\]|\\.)*)"\s*$/.exec(value)
  return m ? m[1]!.replace(/\\(.)/g, '$1') : null
}

/** `?1` → true, `?0` → false; null otherwise. */
export function parseSfBoolean(value: string): boolean | null {
  const v = value.trim()
  return v === '?1' ? true : v === '?0' ? false : null
}

const BRAND_FAMILIES: ReadonlyArray<[RegExp, BrowserFamily]> = [
  [/^Microsoft Edge/i, 'edge'],
  [/^Opera/i, 'opera'],
  [/^Brave/i, 'brave'],
  [/^Samsung Internet/i, 'samsung'],
  [/^Yandex/i, 'yandex'],
  [/^Vivaldi/i, 'vivaldi'],
  [/^Google Chrome/i, 'chrome'],
  [/^HeadlessChrome/i, 'chrome'],
  [/^Chromium/i, 'chromium'],
]

export interface BrandClaim {
  family: BrowserFamily
  /** Major version of the brand that names the family (or of Chromium). */
  version: number | null
  grease: boolean
  headless: boolean
}

/** Which browser a brand list names: the most specific non-GREASE brand wins. */
export function brandsClaim(brands: readonly Brand[]): BrandClaim {
  const grease = brands.some((b) => isGreaseBrand(b.brand))
  const headless = brands.some((b) => /Headless/i.test(b.brand))
  for (const [re, family] of BRAND_FAMILIES) {
    const b = brands.find((x) => re.test(x.brand))
    if (b) return { family, version: Number.parseInt(b.version, 10) || null, grease, headless }
  }
  return { family: 'other', version: null, grease, headless }
}

/**
 * The OS a client-hint platform names: userAgentData.platform, or Sec-CH-UA-Platform with or
 * without its Structured Field quotes ("Windows", "macOS", …). Undefined for no header.
 */
export function osFromPlatformHint(platform: string): Os
export function osFromPlatformHint(platform: string | undefined): Os | undefined
export function osFromPlatformHint(platform: string | undefined): Os | undefined {
  if (platform === undefined) return undefined
  const p = platform.replace(/"/g, '').trim().toLowerCase()
  if (p === 'windows') return 'windows'
  if (p === 'macos') return 'mac'
  if (p === 'linux') return 'linux'
  if (p === 'android') return 'android'
  if (p === 'ios') return 'ios'
  if (p === 'chrome os' || p === 'chromeos' || p === 'chromium os') return 'chromeos'
  return 'unknown'
}

/** Families whose brand list and UA agree: every Chromium fork may show just "Chromium". */
export function familiesAgree(fromUa: BrowserFamily, fromBrands: BrowserFamily): boolean {
  if (fromUa === fromBrands) return true
  if (fromBrands === 'chromium') return ['chrome', 'chromium', 'vivaldi', 'samsung', 'yandex', 'opera', 'brave'].includes(fromUa)
  // Brave's UA says Chrome; its brand list says Brave.
  if (fromBrands === 'brave') return fromUa === 'chrome'
  return fromUa === 'chromium' && fromBrands === 'chrome'
}

export interface HintsClaim {
  brands: readonly Brand[]
  platform?: string | null
  mobile?: boolean | null
}

/**
 * Disagreements between a User-Agent string and client hints (from headers or
 * navigator.userAgentData): family, major version, OS and mobile flag. Empty when consistent.
 */
export function uaHintMismatches(ua: ClaimedBrowser, hints: HintsClaim): string[] {
  const out: string[] = []
  const claim = brandsClaim(hints.brands)
  if (ua.engine !== 'blink') out.push(`the User-Agent claims ${ua.family} (${ua.engine}), which sends no client hints`)
  else {
    if (!familiesAgree(ua.family, claim.family)) out.push(`the User-Agent claims ${ua.family}, the brands ${claim.family}`)
    const chromium = brandsClaim(hints.brands.filter((b) => /^Chromium$/i.test(b.brand))).version ?? claim.version
    if (ua.version !== null && chromium !== null && ua.version !== chromium) out.push(`the User-Agent says version ${ua.version}, the brands ${chromium}`)
  }
  if (hints.platform != null && hints.platform !== '') {
    const os = osFromPlatformHint(hints.platform)
    if (os !== 'unknown' && ua.os !== 'unknown' && os !== ua.os) out.push(`the User-Agent claims ${ua.os}, the platform hint ${hints.platform}`)
  }
  if (hints.mobile != null && ua.os !== 'unknown' && hints.mobile !== ua.mobile) out.push(`the User-Agent says mobile=${ua.mobile}, the hint ${hints.mobile}`)
  return out
}
