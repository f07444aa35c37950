// http-headers: the request headers as the service received them (the page's POST of its
// results, a fetch() from the page), against what the same browser says in JavaScript.
// A browser writes both from one source — its network stack and its preferences — so they
// agree; automation tools and UA switchers usually change one layer (a User-Agent header, a
// patched navigator, an injected Accept-Language) and forget the others: client hints,
// Sec-Fetch-*, Accept-Encoding, header order.
//
// What the HTTP layer cannot tell yet: header names' original case, the HTTP version, and
// the true arrival order (Bun's Request.headers iterates names sorted). The raw listener of
// issue 7 provides them; the `http` section has null placeholders for them.

import { Type, type Static } from '@sinclair/typebox'
import { compareLanguages, parseAcceptLanguage, qPattern, type LanguageRange } from '../accept-language'
import { check, type Check, type CheckDef } from '../scoring'
import { checkOrder, looksSorted } from '../header-order'
import { Signal, valueOf, whyMissing } from '../../../common/signal'
import { brandsClaim, parseBrandList, parseSfBoolean, parseSfString, parseUserAgent, uaHintMismatches, type Brand, type ClaimedBrowser } from '../../../common/user-agent'
import { LanguagesSchema, NavigatorUaSchema, PageContextSchema, TlsEvidenceProbeSchema, UaClientHintsSchema } from '../../../common/signals/shared'
import { evidenceOf, header, type ServerObservation } from './observation'
import { legacyTool } from './types'

export const HttpHeadersSignals = Type.Object({
  navigator: Signal(NavigatorUaSchema),
  languages: Signal(LanguagesSchema),
  uaData: Signal(UaClientHintsSchema),
  privacy: Signal(Type.Object({ globalPrivacyControl: Type.Union([Type.Boolean(), Type.Null()]), doNotTrack: Type.Union([Type.String({ maxLength: 16 }), Type.Null()]) })),
  context: Signal(PageContextSchema),
  /** Optional: the page's connection to the TLS evidence listener, whose record keeps header names as sent. */
  tlsEvidence: Type.Optional(Signal(TlsEvidenceProbeSchema)),
})
export type HttpHeadersSignals = Static<typeof HttpHeadersSignals>

const RAW_LISTENER = "needs the TLS evidence listener's record of this page's connection (TLS_PORT), which keeps header names as sent"

/**
 * The page's connection as the TLS evidence listener recorded it: the HTTP version and the
 * header names in the order and case they were sent (HTTP/2 names are lower case by
 * definition); null without a record.
 */
function wireRecord(server: ServerObservation): { version: string; names: string[] } | null {
  const h2 = evidenceOf(server, 'http2')[0] as { header_order?: unknown } | undefined
  if (h2 && Array.isArray(h2.header_order)) return { version: 'HTTP/2', names: h2.header_order.filter((n): n is string => typeof n === 'string') }
  const h1 = evidenceOf(server, 'http1')[0] as { version?: unknown; headers?: unknown } | undefined
  if (h1 && typeof h1.version === 'string' && Array.isArray(h1.headers)) {
    return { version: h1.version, names: (h1.headers as unknown[]).filter((h): h is [string, string] => Array.isArray(h) && typeof h[0] === 'string').map((h) => h[0]) }
  }
  return null
}

/** Header names of the page's connection in the order they were sent (lower case), from the TLS evidence listener's record. */
export function wireHeaderOrder(server: ServerObservation): string[] | null {
  const names = wireRecord(server)?.names.map((n) => n.toLowerCase())
  return names?.length ? names : null
}

const DEFS = {
  automation: { id: 'ua-automation', name: 'User-Agent names a browser, not a headless one or a library', source: 'server', weight: 60, why: 'HeadlessChrome, PhantomJS, Electron, curl, python-requests, Go, Java and crawler names in the User-Agent header say outright that no person is browsing. Headless Chromium keeps "HeadlessChrome" unless the script overrides it. No false positives beyond deliberate testing.' },
  uaNavigator: { id: 'ua-header-vs-navigator', name: 'User-Agent header equals navigator.userAgent', source: 'server', weight: 40, why: 'Browsers send the same string they expose to scripts. A difference means one of them was overridden (an extra header set by an automation script, or navigator.userAgent patched in the page), or the request did not come from this page.' },
  uaHints: { id: 'ua-vs-client-hints', name: 'User-Agent agrees with Sec-CH-UA headers', source: 'server', weight: 35, why: 'Chromium sends Sec-CH-UA, Sec-CH-UA-Mobile and Sec-CH-UA-Platform from the same build data as its User-Agent. A User-Agent claiming another browser, version or OS than the hints is a spoofed header (UA switchers and automation tools often change only the User-Agent).' },
  hintsNavigator: { id: 'sec-ch-ua-vs-navigator', name: 'Sec-CH-UA headers agree with navigator.userAgentData', source: 'server', weight: 35, why: 'Chromium sends the low-entropy hints on every request from a secure context (https: or localhost) and exposes the same values in navigator.userAgentData. Missing headers where the page has userAgentData, hints without userAgentData, or different values mean the request was rewritten or the page patched.' },
  highEntropy: { id: 'high-entropy-hints', name: 'Requested client hints arrived and agree with getHighEntropyValues', source: 'server', weight: 25, why: 'The tool page asks for Sec-CH-UA-Arch, -Bitness, -Model, -Platform-Version, -Full-Version-List and -WoW64 with Accept-CH; Chromium then sends them on the page\'s requests, equal to navigator.userAgentData.getHighEntropyValues(). Disagreement is a patched page or header. Absence only warns: Brave and some enterprise policies withhold them.' },
  grease: { id: 'brands-grease', name: 'Brand list contains a GREASE brand', source: 'client', weight: 15, why: 'Chromium adds a deliberately odd brand ("Not:A-Brand", "Not/A)Brand", …) to every brand list so servers cannot hard-code it. Hand-written brand lists in spoofing scripts usually lack it.' },
  navUaData: { id: 'navigator-ua-vs-ua-data', name: 'navigator.userAgent agrees with navigator.userAgentData', source: 'client', weight: 25, why: 'Both come from the browser build. A Chrome User-Agent without userAgentData in a secure context is Firefox or Safari behind a UA switcher; a different version, platform or mobile flag is a partial spoof.' },
  languagesPresent: { id: 'languages-present', name: 'navigator.languages is set', source: 'client', weight: 15, why: 'Every browser exposes at least one preferred language, and navigator.language is its first. An empty list was the classic old-headless tell; a first entry other than navigator.language is a patched property.' },
  acceptLanguage: { id: 'accept-language-vs-languages', name: 'Accept-Language matches navigator.languages', source: 'server', weight: 25, why: 'Browsers build Accept-Language from the same preference list as navigator.languages (Chromium adds base languages: en-US → en-US,en). Another set or order means one was overridden, e.g. an Accept-Language header injected by an automation script or a proxy. Chromium\'s Accept-Language reduction experiment sends only the first language, which only warns.' },
  acceptLanguageQ: { id: 'accept-language-q', name: 'Accept-Language q-values follow the browser\'s scheme', source: 'server', weight: 8, why: 'Chromium and Safari lower q by 0.1 per language (en-US,en;q=0.9,de;q=0.8); Firefox uses 1 − i/n (en-US,en;q=0.5). A hand-written header often copies the wrong browser\'s scheme. Weak: extensions that rewrite the header also change it.' },
  present: { id: 'browser-headers-present', name: 'Headers every browser sends are present', source: 'server', weight: 30, why: 'A fetch() POST from a page always carries Host, User-Agent, Accept, Accept-Language, Accept-Encoding and Origin. HTTP libraries and hand-made requests typically miss Accept-Language or Origin.' },
  acceptEncoding: { id: 'accept-encoding', name: 'Accept-Encoding lists what the browser supports', source: 'server', weight: 15, why: 'Browsers always offer gzip and deflate, and in secure contexts Brotli (Chrome 50+, Firefox 44+, Safari) and Zstandard (Chrome 123+, Firefox 126+). Libraries offer less or only gzip. Missing br/zstd only warns: an enterprise policy or a rewriting proxy can remove them.' },
  secFetch: { id: 'sec-fetch', name: 'Sec-Fetch-* headers describe a same-origin fetch', source: 'server', weight: 25, why: 'Chromium 76+, Firefox 90+ and Safari 16.4+ add Sec-Fetch-Site/Mode/Dest to every request to a secure origin; a fetch() from the page is same-origin/cors/empty. Missing or different values mean the request was made outside the browser or replayed.' },
  order: { id: 'header-order', name: 'Header order is typical of the claimed browser', source: 'server', weight: 25, why: 'Each engine writes headers in its own fixed order (Chromium: client hints around User-Agent, Accept-Encoding then Accept-Language last; Firefox: User-Agent right after Host, Accept-Language before Accept-Encoding). HTTP libraries and proxies that rebuild requests use their own order, and headers added through a browser\'s automation protocol land out of place (Playwright\'s locale override puts Accept-Language next to User-Agent). The order is read off the wire by the TLS evidence listener.' },
  raw: { id: 'header-case-http-version', name: 'Header case and HTTP version fit the browser', source: 'server', weight: 15, why: 'Over HTTP/1.1 browsers write headers in their own capitalisation (Chrome: "User-Agent", "sec-ch-ua"), and they use HTTP/2 or 3 wherever offered; libraries write other cases and stay on HTTP/1.1.' },
  automationHeaders: { id: 'automation-headers', name: 'No headers added by automation tools', source: 'server', weight: 30, why: 'Some tools add headers of their own: X-DevTools-Emulate-Network-Conditions-Client-Id (older Chrome under DevTools/Puppeteer network emulation), Postman-Token, scraping-proxy headers. No browser sends them on its own.' },
  dnt: { id: 'dnt-header', name: 'DNT header agrees with navigator.doNotTrack', source: 'server', weight: 10, why: 'With Do Not Track enabled, the browser sends DNT: 1 and reports "1" in navigator.doNotTrack. One without the other means the header or property was set by a tool; an extension that adds only the header is the known false positive, so it only warns.' },
  gpc: { id: 'gpc-header', name: 'Sec-GPC header agrees with navigator.globalPrivacyControl', source: 'server', weight: 10, why: 'Global Privacy Control is sent as Sec-GPC: 1 and exposed as navigator.globalPrivacyControl = true by the same setting (Firefox, Brave, DuckDuckGo). Extensions that add only one of them are the known false positive, so it only warns.' },
} as const satisfies Record<string, CheckDef>

/** Client hints this tool compares, as requested by the tool page's Accept-CH. */
export const HIGH_ENTROPY_HEADERS = ['sec-ch-ua-arch', 'sec-ch-ua-bitness', 'sec-ch-ua-model', 'sec-ch-ua-platform-version', 'sec-ch-ua-full-version-list', 'sec-ch-ua-wow64'] as const

const TOOL_HEADERS = [/^x-devtools-/, /^x-playwright/, /^x-puppeteer/, /^x-selenium/, /^postman-token$/, /^x-crawlera/, /^x-scrapy/, /^x-zyte/]

const brandsText = (l: readonly Brand[]) => l.map((b) => `${b.brand} ${b.version}`).join(', ')

const na = (def: CheckDef, expected: string, observed: unknown = null) => check(def, { verdict: 'na', observed, expected })

function sameBrands(a: readonly Brand[], b: readonly Brand[]): boolean {
  const key = (l: readonly Brand[]) => l.map((x) => `${x.brand}\u0000${x.version}`).sort().join('\u0001')
  return key(a) === key(b)
}

/** Whether the claimed browser sends a Sec-Fetch-* header / br / zstd in a secure context. */
function supports(c: ClaimedBrowser, feature: 'secFetch' | 'br' | 'zstd'): boolean {
  const v = c.version ?? 0
  const min = { secFetch: { blink: 76, gecko: 90, webkit: 17 }, br: { blink: 50, gecko: 44, webkit: 11 }, zstd: { blink: 123, gecko: 126, webkit: Infinity } }[feature]
  return c.engine !== 'unknown' && v >= min[c.engine]
}

/** The claimed browser from the page's sub-request headers, for other tools to reuse. */
export function hintsFromHeaders(server: Pick<ServerObservation, 'headers'>) {
  const raw = header(server, 'sec-ch-ua')
  const brands = raw === undefined ? null : parseBrandList(raw)
  const platformRaw = header(server, 'sec-ch-ua-platform')
  const mobileRaw = header(server, 'sec-ch-ua-mobile')
  return {
    raw: raw ?? null,
    brands,
    platform: platformRaw === undefined ? null : parseSfString(platformRaw),
    mobile: mobileRaw === undefined ? null : parseSfBoolean(mobileRaw),
  }
}

export const HttpSectionSchema = Type.Object({
  http: Type.Object({
    headerNames: Type.Array(Type.String(), { description: 'Header names as the HTTP layer listed them (lower-cased).' }),
    orderPreserved: Type.Boolean({ description: 'False when the list is alphabetical, i.e. the arrival order was not kept.' }),
    orderSource: Type.Union([Type.Literal('wire'), Type.Literal('request'), Type.Null()], { description: '`wire`: the order and names below come from the TLS evidence listener\'s record of this page\'s connection; `request`: from the submitting request (when its order was kept); null: not known.' }),
    httpVersion: Type.Union([Type.String(), Type.Null()], { description: 'The HTTP version of the page\'s connection to the TLS evidence listener (HTTP/2, or the HTTP/1 request line\'s); null without the listener.' }),
    originalNames: Type.Union([Type.Array(Type.String()), Type.Null()], { description: 'Header names in the order and case they were sent, from the TLS evidence listener (HTTP/2 names are lower case by definition); null without the listener.' }),
    claimed: Type.Object({
      userAgent: Type.Unknown({ description: 'What the User-Agent header claims (family, engine, version, os, mobile, headless, tool).' }),
      clientHints: Type.Union([Type.Object({ family: Type.String(), version: Type.Union([Type.Number(), Type.Null()]), platform: Type.Union([Type.String(), Type.Null()]), mobile: Type.Union([Type.Boolean(), Type.Null()]) }), Type.Null()]),
    }),
    acceptLanguage: Type.Union([Type.Array(Type.Object({ tag: Type.String(), q: Type.Number() })), Type.Null()]),
    clientHints: Type.Object({ requested: Type.Array(Type.String()), received: Type.Record(Type.String(), Type.String()) }),
  }),
  verdict: Type.String({ description: 'One sentence for a person.' }),
})

function verdictText(checks: Check[], claimed: ClaimedBrowser, orderKnown: boolean): string {
  const failed = checks.filter((c) => c.verdict === 'fail')
  const warned = checks.filter((c) => c.verdict === 'warn')
  const who = claimed.family === 'tool' ? `an HTTP client (${claimed.tool})` : claimed.headless ? `headless ${claimed.family}` : `${claimed.family} ${claimed.version ?? ''}`.trim()
  const head = failed.length
    ? `The headers do not come from an ordinary browser session (the User-Agent claims ${who}). Failed: ${failed.map((c) => c.name).join('; ')}.`
    : warned.length
      ? `Headers are consistent with ${who}, with ${warned.length} weak warning(s).`
      : `Headers are consistent with what ${who} says in JavaScript.`
  return orderKnown ? head : `${head} Not tested: header order, original case and HTTP version, which need the service's TLS evidence listener (TLS_PORT).`
}

export const httpHeaders = legacyTool({
  id: 'http-headers',
  signals: HttpHeadersSignals,
  sections: HttpSectionSchema,
  judge(s: HttpHeadersSignals, server: ServerObservation) {
    const checks: Check[] = []
    const nav = valueOf(s.navigator)
    const langs = valueOf(s.languages)
    const uaData = valueOf(s.uaData)
    const privacy = valueOf(s.privacy)
    const ctx = valueOf(s.context)
    const claimed = parseUserAgent(server.userAgent)
    const hints = hintsFromHeaders(server)
    // Without the page's own word, a userAgentData object implies a secure context.
    const secure = ctx ? ctx.secureContext : uaData !== undefined
    const names = server.headers.map(([n]) => n)
    const has = (n: string) => names.includes(n)

    // Who the User-Agent says it is.
    const automated = claimed.headless || claimed.family === 'tool' || (hints.brands !== null && brandsClaim(hints.brands).headless)
    checks.push(check(DEFS.automation, { verdict: automated ? 'fail' : 'pass', observed: server.userAgent || '(none)', expected: 'a browser User-Agent, without HeadlessChrome, PhantomJS, Electron or an HTTP library name' }))

    if (nav) {
      const same = nav.userAgent === server.userAgent
      checks.push(check(DEFS.uaNavigator, { verdict: same ? 'pass' : 'fail', observed: same ? 'identical' : { header: server.userAgent, navigator: nav.userAgent }, expected: 'identical strings' }))
    } else checks.push(na(DEFS.uaNavigator, whyMissing(s.navigator)))

    // Client hints in the headers against the User-Agent header.
    if (hints.brands) {
      const m = uaHintMismatches(claimed, { brands: hints.brands, platform: hints.platform, mobile: hints.mobile })
      checks.push(check(DEFS.uaHints, { verdict: m.length ? 'fail' : 'pass', observed: m.length ? m : `${brandsText(hints.brands)}; ${hints.platform ?? '?'}; ${hints.mobile ? 'mobile' : 'desktop'}`, expected: 'the same browser family, major version, OS and mobile flag as the User-Agent' }))
    } else if (hints.raw !== null) {
      checks.push(check(DEFS.uaHints, { verdict: 'fail', observed: { 'sec-ch-ua': hints.raw }, expected: 'a Structured Field list of brands, e.g. "Chromium";v="124"' }))
    } else checks.push(na(DEFS.uaHints, 'Sec-CH-UA is sent only by Chromium-based browsers, in secure contexts'))

    // Client hints in the headers against navigator.userAgentData.
    if (uaData && hints.brands) {
      const diffs: string[] = []
      if (!sameBrands(uaData.brands, hints.brands)) diffs.push('brands')
      if (hints.platform !== null && hints.platform !== uaData.platform) diffs.push('platform')
      if (hints.mobile !== null && hints.mobile !== uaData.mobile) diffs.push('mobile')
      const observed = diffs.length
        ? { differ: diffs, headers: `${brandsText(hints.brands)}; ${hints.platform}; mobile ${hints.mobile}`, navigator: `${brandsText(uaData.brands)}; ${uaData.platform}; mobile ${uaData.mobile}` }
        : `equal: ${brandsText(uaData.brands)}; ${uaData.platform}; ${uaData.mobile ? 'mobile' : 'desktop'}`
      checks.push(check(DEFS.hintsNavigator, { verdict: diffs.length ? 'fail' : 'pass', observed, expected: 'the same brands, platform and mobile flag' }))
    } else if (uaData && secure) {
      checks.push(check(DEFS.hintsNavigator, { verdict: 'fail', observed: { 'sec-ch-ua': hints.raw, navigatorBrands: uaData.brands }, expected: 'Sec-CH-UA on every request from a Chromium page in a secure context' }))
    } else if (!uaData && hints.raw !== null && s.uaData.ok === false && s.uaData.error.kind === 'unsupported') {
      checks.push(check(DEFS.hintsNavigator, { verdict: 'fail', observed: { 'sec-ch-ua': hints.raw, navigator: whyMissing(s.uaData) }, expected: 'no Sec-CH-UA header from a page without navigator.userAgentData' }))
    } else checks.push(na(DEFS.hintsNavigator, uaData ? 'the page is not a secure context, where Chromium sends no client hints' : `${whyMissing(s.uaData)}; no client hints either way`))

    // High-entropy hints requested with Accept-CH.
    const received: Record<string, string> = {}
    for (const n of HIGH_ENTROPY_HEADERS) {
      const v = header(server, n)
      if (v !== undefined) received[n] = v
    }
    const high = uaData?.high
    if (!uaData) checks.push(na(DEFS.highEntropy, `${whyMissing(s.uaData)}; only Chromium sends these hints`))
    else if (!high) checks.push(na(DEFS.highEntropy, `getHighEntropyValues failed: ${uaData.highError ?? 'no values'}`))
    else if (brandsClaim(uaData.brands).family === 'brave') checks.push(na(DEFS.highEntropy, 'Brave withholds high-entropy client hints by design', received))
    else if (!Object.keys(received).length) {
      checks.push(check(DEFS.highEntropy, { verdict: secure ? 'warn' : 'na', observed: 'none of the requested hints arrived', expected: secure ? `${HIGH_ENTROPY_HEADERS.join(', ')} after the page's Accept-CH` : 'hints are only sent in secure contexts' }))
    } else {
      const diffs: string[] = []
      const cmp = (name: string, js: string | boolean | null) => {
        const v = received[name]
        if (v === undefined || js === null) return
        const hv = typeof js === 'boolean' ? parseSfBoolean(v) : parseSfString(v)
        if (hv !== js) diffs.push(`${name}: ${v} vs ${JSON.stringify(js)}`)
      }
      cmp('sec-ch-ua-arch', high.architecture)
      cmp('sec-ch-ua-bitness', high.bitness)
      cmp('sec-ch-ua-model', high.model)
      cmp('sec-ch-ua-platform-version', high.platformVersion)
      cmp('sec-ch-ua-wow64', high.wow64)
      const fvl = received['sec-ch-ua-full-version-list']
      if (fvl !== undefined && high.fullVersionList) {
        const list = parseBrandList(fvl)
        if (!list || !sameBrands(list, high.fullVersionList)) diffs.push('sec-ch-ua-full-version-list differs from fullVersionList')
      }
      const list = Object.keys(received).map((n) => n.replace('sec-ch-ua-', '')).join(', ')
      checks.push(check(DEFS.highEntropy, { verdict: diffs.length ? 'fail' : 'pass', observed: diffs.length ? diffs : `${Object.keys(received).length} received, all equal: ${list}`, expected: 'each received hint equal to the getHighEntropyValues() value' }))
    }

    if (uaData) {
      checks.push(check(DEFS.grease, { verdict: brandsClaim(uaData.brands).grease ? 'pass' : 'fail', observed: uaData.brands.map((b) => b.brand).join(', '), expected: 'one GREASE brand such as "Not:A-Brand"' }))
    } else checks.push(na(DEFS.grease, whyMissing(s.uaData)))

    // JavaScript's two views of the browser.
    if (nav && uaData) {
      const m = uaHintMismatches(parseUserAgent(nav.userAgent), uaData)
      checks.push(check(DEFS.navUaData, { verdict: m.length ? 'fail' : 'pass', observed: m.length ? m : `agree: ${brandsText(uaData.brands)}; ${uaData.platform}; ${uaData.mobile ? 'mobile' : 'desktop'}`, expected: 'the same family, major version, OS and mobile flag' }))
    } else if (nav && !uaData && s.uaData.ok === false && s.uaData.error.kind === 'unsupported') {
      const c = parseUserAgent(nav.userAgent)
      const shouldHave = c.engine === 'blink' && (c.version ?? 0) >= 90 && secure
      checks.push(check(DEFS.navUaData, { verdict: shouldHave ? 'fail' : 'pass', observed: `no userAgentData; User-Agent claims ${c.family} ${c.version ?? ''}`.trim(), expected: shouldHave ? 'navigator.userAgentData, which every Chromium 90+ has in secure contexts' : 'no userAgentData outside Chromium or secure contexts' }))
    } else checks.push(na(DEFS.navUaData, whyMissing(s.navigator) || whyMissing(s.uaData)))

    // Languages.
    if (langs) {
      const empty = langs.languages.length === 0
      const firstDiffers = !empty && langs.languages[0] !== langs.language
      checks.push(check(DEFS.languagesPresent, { verdict: empty ? 'fail' : firstDiffers ? 'warn' : 'pass', observed: `language ${langs.language}; languages [${langs.languages.join(', ')}]`, expected: 'at least one language, the first equal to navigator.language' }))
    } else checks.push(na(DEFS.languagesPresent, whyMissing(s.languages)))

    const alRaw = header(server, 'accept-language')
    const al: LanguageRange[] | null = alRaw === undefined ? null : parseAcceptLanguage(alRaw)
    if (al && langs) {
      const c = compareLanguages(al, langs.languages)
      const seen = `Accept-Language ${alRaw}; navigator [${langs.languages.join(', ')}]`
      checks.push(check(DEFS.acceptLanguage, { verdict: c.verdict === 'same' ? 'pass' : c.verdict === 'reduced' ? 'warn' : 'fail', observed: c.verdict === 'same' ? seen : { seen, missing: c.missing, extra: c.extra, sameOrder: c.sameOrder }, expected: 'the same languages in the same order (base languages may be added)' }))
    } else checks.push(na(DEFS.acceptLanguage, al ? whyMissing(s.languages) : 'no Accept-Language header (see browser-headers-present)'))

    if (al && al.length > 0) {
      const want = claimed.engine === 'gecko' ? 'fraction' : claimed.engine === 'blink' || claimed.engine === 'webkit' ? 'decrement' : null
      const got = qPattern(al)
      if (!want) checks.push(na(DEFS.acceptLanguageQ, 'the User-Agent names no browser engine', alRaw))
      else checks.push(check(DEFS.acceptLanguageQ, { verdict: got === 'single' || got === want ? 'pass' : 'warn', observed: alRaw, expected: want === 'fraction' ? 'Firefox q-values 1 − i/n (en-US,en;q=0.5)' : 'q lowered by 0.1 per language (en-US,en;q=0.9)' }))
    } else checks.push(na(DEFS.acceptLanguageQ, 'no Accept-Language header'))

    // Headers a browser always sends.
    const required = ['host', 'user-agent', 'accept', 'accept-language', 'accept-encoding', 'origin']
    const missing = required.filter((n) => !has(n))
    checks.push(check(DEFS.present, { verdict: missing.length ? 'fail' : 'pass', observed: missing.length ? { missing } : 'all present', expected: required.join(', ') }))

    const ae = header(server, 'accept-encoding')
    if (ae === undefined) checks.push(na(DEFS.acceptEncoding, 'no Accept-Encoding header (see browser-headers-present)'))
    else if (claimed.engine === 'unknown') checks.push(na(DEFS.acceptEncoding, 'the User-Agent names no browser engine', ae))
    else {
      const tokens = ae.toLowerCase().split(',').map((t) => t.split(';')[0]!.trim())
      const basic = ['gzip', 'deflate'].filter((t) => !tokens.includes(t))
      const modern = secure ? (['br', 'zstd'] as const).filter((t) => supports(claimed, t) && !tokens.includes(t)) : []
      const want = ['gzip', 'deflate', ...(secure ? (['br', 'zstd'] as const).filter((t) => supports(claimed, t)) : [])]
      checks.push(check(DEFS.acceptEncoding, { verdict: basic.length ? 'fail' : modern.length ? 'warn' : 'pass', observed: ae, expected: `${want.join(', ')} for ${claimed.family} ${claimed.version ?? ''}${secure ? ' in a secure context' : ' over plain HTTP'}`.replace(/ {2,}/g, ' ') }))
    }

    const fetchMeta = { 'sec-fetch-site': header(server, 'sec-fetch-site'), 'sec-fetch-mode': header(server, 'sec-fetch-mode'), 'sec-fetch-dest': header(server, 'sec-fetch-dest') }
    if (!secure) checks.push(na(DEFS.secFetch, 'browsers send Sec-Fetch-* only to secure origins (https: or localhost)', fetchMeta))
    else if (!supports(claimed, 'secFetch')) checks.push(na(DEFS.secFetch, `${claimed.family} ${claimed.version ?? ''} predates Sec-Fetch-*`.trim(), fetchMeta))
    else {
      const ok = fetchMeta['sec-fetch-site'] === 'same-origin' && fetchMeta['sec-fetch-mode'] === 'cors' && fetchMeta['sec-fetch-dest'] === 'empty'
      checks.push(check(DEFS.secFetch, { verdict: ok ? 'pass' : 'fail', observed: ok ? 'same-origin, cors, empty' : fetchMeta, expected: 'sec-fetch-site: same-origin, sec-fetch-mode: cors, sec-fetch-dest: empty' }))
    }

    // Arrival order: Bun's Request.headers lists names sorted, so the order of this request is
    // lost. The TLS evidence listener reads the page's own connection off the wire (HTTP/2
    // HEADERS or the HTTP/1 head), so its record, when there is one, is the order to judge.
    const wireOrder = wireHeaderOrder(server)
    const orderNames = wireOrder ?? names
    const sorted = !wireOrder && looksSorted(names)
    const orderFamily = claimed.engine === 'blink' ? 'chromium' : claimed.engine === 'gecko' ? 'firefox' : null
    const nameList = `${orderNames.join(', ')}${wireOrder ? ' (wire order, from the TLS evidence listener)' : ''}`
    if (sorted) checks.push(na(DEFS.order, `the arrival order: this listing is alphabetical (Bun's Request.headers sorts names), so the order is lost; ${RAW_LISTENER} in arrival order`, `${names.length} names, in alphabetical order`))
    else if (!orderFamily) checks.push(na(DEFS.order, 'order rules exist for Chromium and Firefox only', nameList))
    else {
      const o = checkOrder(orderNames, orderFamily)
      if (o.applied < 2) checks.push(na(DEFS.order, 'too few of the ordered headers to judge', nameList))
      else checks.push(check(DEFS.order, { verdict: o.broken.length ? 'fail' : 'pass', observed: o.broken.length ? { broken: o.broken, names: nameList } : nameList, expected: `${orderFamily} header order` }))
    }

    // The TLS evidence listener's record of the same page's connection, when it has one: an
    // HTTP/1 head keeps names in wire order and case; an HTTP/2 start has lower-case names
    // by definition (RFC 9113 §8.2.1) and proves the client chose h2.
    const wire = wireRecord(server)
    const browser = claimed.family !== 'tool' && claimed.engine !== 'unknown'
    if (wire && wire.version !== 'HTTP/2') {
      // Browsers title-case HTTP/1.1 names except sec-ch-ua* and sec-fetch-* style lower-case ones Chromium writes.
      const lower = wire.names.filter((n) => n === n.toLowerCase() && !n.startsWith('sec-') && n !== 'priority')
      const problems = browser ? [...(lower.length ? [`lower-case names ${lower.join(', ')}`] : []), `${wire.version} where h2 was offered`] : []
      checks.push(check(DEFS.raw, { verdict: problems.length ? 'fail' : 'pass', observed: `${wire.version}: ${wire.names.join(', ')}${problems.length ? ` (${problems.join('; ')})` : ''}`, expected: browser ? 'HTTP/2 to a server that offers it' : 'any' }))
    } else if (wire) {
      checks.push(check(DEFS.raw, { verdict: 'pass', observed: `HTTP/2: ${wire.names.join(', ')}`, expected: browser ? 'HTTP/2 to a server that offers it' : 'any' }))
    } else checks.push(na(DEFS.raw, `original header case and HTTP version: ${RAW_LISTENER} and the protocol version`))

    const toolHeaders = names.filter((n) => TOOL_HEADERS.some((re) => re.test(n)))
    checks.push(check(DEFS.automationHeaders, { verdict: toolHeaders.length ? 'fail' : 'pass', observed: toolHeaders.length ? toolHeaders : 'none', expected: 'no tool-specific headers' }))

    if (privacy) {
      const dntHeader = header(server, 'dnt') ?? null
      const dntOn = privacy.doNotTrack === '1' || privacy.doNotTrack === 'yes'
      checks.push(check(DEFS.dnt, { verdict: dntOn === (dntHeader === '1') ? 'pass' : 'warn', observed: `DNT header ${dntHeader ?? 'absent'}; navigator.doNotTrack ${privacy.doNotTrack ?? 'null'}`, expected: 'DNT: 1 exactly when navigator.doNotTrack is "1"' }))
      const gpcHeader = header(server, 'sec-gpc') ?? null
      checks.push(check(DEFS.gpc, { verdict: (privacy.globalPrivacyControl === true) === (gpcHeader === '1') ? 'pass' : 'warn', observed: `Sec-GPC header ${gpcHeader ?? 'absent'}; navigator.globalPrivacyControl ${privacy.globalPrivacyControl ?? 'undefined'}`, expected: 'Sec-GPC: 1 exactly when navigator.globalPrivacyControl is true' }))
    } else checks.push(na(DEFS.dnt, whyMissing(s.privacy)), na(DEFS.gpc, whyMissing(s.privacy)))

    const hintClaim = hints.brands ? brandsClaim(hints.brands) : null
    return {
      checks,
      sections: {
        http: {
          headerNames: names,
          orderPreserved: !sorted,
          orderSource: wireOrder ? 'wire' : sorted ? null : 'request',
          httpVersion: wire?.version ?? null,
          originalNames: wire?.names ?? null,
          claimed: {
            userAgent: claimed,
            clientHints: hintClaim && { family: hintClaim.family, version: hintClaim.version, platform: hints.platform, mobile: hints.mobile },
          },
          acceptLanguage: al,
          clientHints: { requested: ['sec-ch-ua', 'sec-ch-ua-mobile', 'sec-ch-ua-platform', ...HIGH_ENTROPY_HEADERS], received: Object.fromEntries(server.headers.filter(([n]) => n.startsWith('sec-ch-ua'))) },
        },
        verdict: verdictText(checks, claimed, !!wireOrder || !sorted),
      },
    }
  },
})
