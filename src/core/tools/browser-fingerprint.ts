// browser-fingerprint: the FingerprintJS component families, each read twice by the page, a
// hash per component and a visitor hash over the stable ones, and the consistency checks a
// fingerprint allows: the same values in an iframe and a worker, navigator against the
// User-Agent and client-hint headers, the audio sum against the claimed engine, time zone
// against the clock, fonts and GPU against the claimed OS; and, from a count over stored tasks
// that the service makes before judging (JudgeContext.fingerprintSeen), how common the visitor id is.
// The math component is hashed but not judged: V8's results are not fixed across versions
// (Node 20's V8 and Chromium 156 differ in Math.pow and Math.log on the same machine, the
// latter agreeing with glibc), so there is no reliable per-engine reference to compare with.
// Noise is a finding, not an identity: a component that reads differently twice (canvas or
// audio noise from Safari 17+, Firefox or an extension) is reported and left out of the
// visitor hash; Brave's session-stable farbling is caught by the canvas and audio tools'
// known-answer tests instead.

import { Type, type Static, type TSchema } from '@sinclair/typebox'
import { canonicalJson, hashHex, hashValue } from '../../../common/hash'
import { check, type Check, type CheckDef } from '../scoring'
import { firstAcceptLanguage } from '../accept-language'
import { Signal, valueOf, whyMissing, type SignalResult } from '../../../common/signal'
import { engineClaim, isGreaseBrand, osFromPlatformHint, type EngineClaim } from '../../../common/user-agent'
import { audioFitsEngine } from '../../checks/audio-sums'
import { UaClientHintsSchema } from '../../../common/signals/shared'
import { familyOfClaimedOs, inferOsFromFonts } from '../../../common/font-os'
import { WebglSummarySchema, effectiveRenderer, gpuFitsOs, softwareRenderer } from './gpu'
import { header, type ServerObservation } from './observation'
import { SEEN_CAP, SEEN_WINDOW_DAYS, type FingerprintSeen } from '../fingerprint-seen'
import { legacyTool, type JudgeContext } from './types'

const Str = Type.String({ maxLength: 1000 })
const NStr = Type.Union([Str, Type.Null()])
const Num = Type.Number()
const NNum = Type.Union([Num, Type.Null()])
const Bool = Type.Boolean()
const NBool = Type.Union([Bool, Type.Null()])
const StrList = (max: number) => Type.Array(Type.String({ maxLength: 200 }), { maxItems: max })

/** A component read twice: `again` only when the second read differed. */
function Twice<T extends TSchema>(value: T) {
  return Signal(Type.Object({ value, again: Type.Optional(value) }))
}

export const ScopeSnapshotSchema = Type.Object({
  userAgent: Str,
  platform: Str,
  languages: StrList(30),
  hardwareConcurrency: NNum,
  deviceMemory: NNum,
  webdriver: NBool,
  timeZone: NStr,
  timezoneOffset: Num,
  uaPlatform: NStr,
  uaBrands: NStr,
})
export type ScopeSnapshot = Static<typeof ScopeSnapshotSchema>

export const COMPONENTS = {
  fonts: StrList(200),
  canvas: Type.Object({ winding: Bool, hash: Str }),
  webgl: WebglSummarySchema,
  audio: Type.Object({ sum: Num, copySum: NNum, reduction: NNum }),
  screen: Type.Object({ width: Num, height: Num, availWidth: Num, availHeight: Num, colorDepth: Num, pixelDepth: Num, orientation: NStr, devicePixelRatio: Num }),
  timezone: Type.Object({ zone: NStr, offset: Num, intlOffset: NNum, locale: NStr, calendar: NStr }),
  languages: Type.Object({ language: Str, languages: StrList(30) }),
  navigator: Type.Object({ userAgent: Str, appVersion: Str, platform: Str, vendor: Str, productSub: Str, oscpu: NStr, cpuClass: NStr }),
  hardware: Type.Object({ hardwareConcurrency: NNum, deviceMemory: NNum }),
  plugins: Type.Object({
    plugins: Type.Array(Type.Object({ name: Str, filename: Str, mimeTypes: StrList(20) }), { maxItems: 32 }),
    mimeTypes: Num,
    pdfViewerEnabled: NBool,
    nativePrototypes: Bool,
  }),
  vendorFlavours: Type.Object({ flavours: StrList(20), chromeKeys: Type.Union([StrList(20), Type.Null()]) }),
  math: Type.Record(Type.String({ maxLength: 20 }), NNum),
  media: Type.Object({
    colorGamut: NStr, invertedColors: NStr, forcedColors: NStr, monochrome: Num, contrast: NStr,
    reducedMotion: NStr, reducedTransparency: NStr, hdr: NStr, colorScheme: NStr,
  }),
  touch: Type.Object({ maxTouchPoints: Num, touchEvent: Bool }),
  storage: Type.Object({ cookieEnabled: Bool, cookies: Bool, localStorage: Bool, sessionStorage: Bool, indexedDB: Bool, openDatabase: Bool }),
  architecture: Num,
  uaData: UaClientHintsSchema,
} as const
export type ComponentName = keyof typeof COMPONENTS

export const BrowserFingerprintSignals = Type.Object({
  ...(Object.fromEntries(Object.entries(COMPONENTS).map(([k, v]) => [k, Twice(v)])) as { [K in ComponentName]: ReturnType<typeof Twice<(typeof COMPONENTS)[K]>> }),
  pageScope: Signal(ScopeSnapshotSchema),
  iframeScope: Signal(ScopeSnapshotSchema),
  workerScope: Signal(ScopeSnapshotSchema),
})
export type BrowserFingerprintSignals = Static<typeof BrowserFingerprintSignals>

const ComponentSummary = Type.Object({
  hash: NStr,
  stable: Bool,
  inVisitorId: Bool,
  error: Type.Optional(Str),
})

export const BrowserFingerprintSections = Type.Object({
  fingerprint: Type.Object({
    visitorId: Type.String({ description: 'Hash of the stable components’ hashes; the same browser gives the same id on every visit until it changes.' }),
    components: Type.Record(Type.String(), ComponentSummary),
    unstable: Type.Array(Type.String(), { description: 'Components that read differently twice in one page: noise, reported as farbling.' }),
    excluded: Type.Array(Type.String(), { description: 'Components left out of visitorId (unstable, timed out, failed).' }),
    commonness: Type.Union(
      [
        Type.Object({
          tasks: Type.Integer({ description: 'Stored tasks of the last 90 days with this visitorId (at most 1000 counted), this address’s own included.' }),
          addresses: Type.Integer({ description: 'Distinct client addresses among them other than the submitter’s.' }),
        }),
        Type.Null(),
      ],
      { description: 'How common visitorId is among stored tasks (fp-commonness); null when not counted.' },
    ),
  }),
})

const DEFS = {
  stability: { id: 'fp-stability', name: 'Components read the same twice', source: 'client', weight: 30, why: 'Every component is read twice in the same page. A real browser returns identical canvas pixels, audio samples and navigator values; per-read noise (Safari 17+ private browsing, Firefox’s canvas randomisation, anti-fingerprinting extensions) does not. Unstable components are reported as farbling and left out of the visitor hash. No false positive is known for canvas and audio on an idle page; a window resized between reads can change the screen component.' },
  iframe: { id: 'fp-iframe-consistency', name: 'An iframe sees the same browser', source: 'client', weight: 30, why: 'A fresh same-origin iframe is a new realm with its own navigator. Spoofing that overrides properties in the page (extensions, stealth scripts) often misses it; a real browser answers identically in both.' },
  worker: { id: 'fp-worker-consistency', name: 'A worker sees the same browser', source: 'client', weight: 35, why: 'A dedicated worker has its own WorkerNavigator, time zone and locale. User-Agent, platform, cores or languages overridden only in the page (CDP overrides applied to one target, stealth plugins, extensions) differ there. A real browser gives the same values everywhere.' },
  uaHeader: { id: 'fp-ua-header', name: 'navigator.userAgent equals the User-Agent header', source: 'server', weight: 40, why: 'The browser sends the same string in the header and exposes it in JavaScript. A difference means one of them was rewritten (a UA-switcher extension changing only one, or a script overriding navigator.userAgent).' },
  uaData: { id: 'fp-ua-client-hints', name: 'userAgentData agrees with the User-Agent', source: 'client', weight: 30, why: 'Chromium reports its brands, version, platform and mobile flag in navigator.userAgentData; spoofing the User-Agent string alone leaves them telling the truth. Only Chromium has userAgentData, so for other engines it does not apply.' },
  platform: { id: 'fp-platform', name: 'navigator.platform fits the claimed OS', source: 'client', weight: 25, why: 'navigator.platform is "Win32" on every Windows, "MacIntel" on every Mac (Apple Silicon included), "Linux …" on Linux, ChromeOS and Android, "iPhone"/"iPad" on iOS. A platform of another OS than the User-Agent names is a spoofed UA or platform.' },
  vendor: { id: 'fp-vendor', name: 'Vendor and vendor globals fit the engine', source: 'client', weight: 25, why: 'navigator.vendor is "Google Inc." in every Blink browser, "Apple Computer, Inc." in WebKit and empty in Gecko; window.chrome exists only in Blink. A Chrome UA with Firefox’s vendor (or the reverse) is another browser in disguise.' },
  architecture: { id: 'fp-architecture', name: 'CPU family agrees with the architecture hint', source: 'client', weight: 20, why: 'The sign of a default NaN reveals the CPU family (x86: 255, ARM: 127) regardless of what the browser claims; Chromium also reports its architecture as a client hint. A mismatch means the hint was spoofed, or an x86 browser is emulated on ARM (Rosetta, Windows on ARM), hence a warning.' },
  deviceMemory: { id: 'fp-device-memory-hint', name: 'Device-Memory hint agrees with the page', source: 'server', weight: 25, why: 'Chromium sends Sec-CH-Device-Memory itself when asked with Accept-CH; a different navigator.deviceMemory in the page means the page value was overridden.' },
  language: { id: 'fp-language', name: 'Languages agree with Accept-Language', source: 'server', weight: 20, why: 'The Accept-Language header is built from the same preference list as navigator.languages; its first language should be the page’s first. A different primary language means one of them was spoofed (language-switcher extensions, automation flags).' },
  mediaHints: { id: 'fp-media-hints', name: 'Colour-scheme and motion hints agree with CSS', source: 'server', weight: 15, why: 'Chromium sends Sec-CH-Prefers-Color-Scheme and Sec-CH-Prefers-Reduced-Motion from the same settings that CSS media queries read in the page; they disagree only when one is emulated (DevTools/CDP emulation of one target).' },
  timezone: { id: 'fp-timezone', name: 'Intl time zone agrees with the clock offset', source: 'client', weight: 25, why: 'The offset of the zone Intl reports must equal Date’s getTimezoneOffset. Spoofing the zone through Intl only (a common extension trick) keeps the real offset.' },
  plugins: { id: 'fp-plugins', name: 'Plugins are consistent', source: 'client', weight: 20, why: 'Modern desktop browsers expose exactly the five standard PDF viewer entries when their PDF viewer is on (pdfViewerEnabled) and none when it is off; the list must be a real PluginArray. Fake lists built by stealth scripts break these rules. Mobile browsers have none.' },
  hardware: { id: 'fp-hardware', name: 'Cores and memory are plausible', source: 'client', weight: 15, why: 'hardwareConcurrency is a positive integer and deviceMemory (Chromium only) a power of two from 0.25; other values, or deviceMemory in Firefox/Safari, were injected.' },
  privacyMode: { id: 'fp-privacy-mode', name: 'No resistFingerprinting profile', source: 'client', weight: 10, why: 'Firefox resistFingerprinting and Tor Browser report UTC, 2 cores and en-US together; that combination is a privacy mode, not a normal profile. A user choice, so only a warning.' },
  software: { id: 'fp-software-renderer', name: 'WebGL runs on a hardware GPU', source: 'client', weight: 20, why: 'SwiftShader and llvmpipe render on the CPU: normal for headless browsers, CI, containers and virtual machines, rare for people (a GPU blocklisted by the browser, a remote desktop). A warning here; bot-detector gives the bot verdict.' },
  gpuOs: { id: 'fp-gpu-os', name: 'GPU strings fit the claimed OS', source: 'server', weight: 30, why: 'The WebGL renderer names the graphics API: Direct3D only on Windows, Metal and "OpenGL Engine" only on Apple systems, "Apple GPU" on every iOS browser. Compared with the OS in the User-Agent header the server received.' },
  fontsOs: { id: 'fp-fonts-os', name: 'Fonts fit the claimed OS', source: 'server', weight: 16, why: 'Installed fonts betray the operating system (Segoe UI on Windows, Helvetica Neue on Apple, DejaVu on Linux). Clear markers of another OS than the User-Agent claims suggest a spoofed UA. People do install other OSes’ fonts, so it only warns.' },
  audio: { id: 'fp-audio-engine', name: 'Audio sum fits the claimed engine', source: 'client', weight: 20, why: 'The FingerprintJS audio sum clusters by engine (Blink ≈ 124.04/124.08, Gecko ≈ 35.74, WebKit ≈ 35.11; table in src/core/tools/audio-sums.ts). A sum from another engine’s cluster means the User-Agent lies about the engine; an unknown sum only warns (new builds and CPUs add values).' },
  storage: { id: 'fp-storage', name: 'Cookies and storage are available', source: 'client', weight: 6, why: 'Blocked cookies or storage is a privacy setting (or an embedded/automated browser with a throwaway profile); a weak signal on its own.' },
  commonness: { id: 'fp-commonness', name: 'How common this fingerprint is', source: 'server', weight: 10, why: 'A visitor hash shared by many unrelated visitors is a default configuration, as automation fleets running one image have; a unique one identifies the browser. Counted over the tasks stored in the last 90 days, by distinct client address other than this one, so one person reloading the page does not make it common. A few other addresses are the same browser on another network (home, office, mobile); five or more warn. Popular devices with default settings (one phone model and OS version) can share a hash too, so it never fails.' },
} as const satisfies Record<string, CheckDef>

const PLATFORM_OF: Record<string, [RegExp, string]> = {
  windows: [/^Win/, '"Win32"'],
  mac: [/^Mac/, '"MacIntel"'],
  ios: [/^(iPhone|iPad|iPod|MacIntel)/, '"iPhone", "iPad" (or "MacIntel" for iPad desktop mode)'],
  android: [/^Linux|^Android/, '"Linux armv8l", "Linux aarch64" or similar'],
  linux: [/^Linux|^X11|BSD/, '"Linux x86_64" or similar'],
  chromeos: [/^Linux|^CrOS/, '"Linux x86_64" or similar'],
}

const VENDOR_OF: Record<string, string> = { blink: 'Google Inc.', webkit: 'Apple Computer, Inc.', gecko: '' }

/** Which fields of two scope snapshots differ; fields missing (null) on either side are skipped. */
export function scopeMismatches(a: ScopeSnapshot, b: ScopeSnapshot): string[] {
  const out: string[] = []
  for (const k of Object.keys(a) as Array<keyof ScopeSnapshot>) {
    const x = a[k]
    const y = b[k]
    if (x === null || y === null || x === undefined || y === undefined) continue
    if (canonicalJson(x) !== canonicalJson(y)) out.push(`${k}: ${JSON.stringify(x)} vs ${JSON.stringify(y)}`)
  }
  return out
}

/**
 * Where navigator.userAgentData contradicts the User-Agent string: the Chromium major version
 * in the brands, the platform, the mobile flag. GREASE brands ("Not A(Brand" and its
 * shuffled spellings, https://wicg.github.io/ua-client-hints/#grease) are ignored.
 */
export function uaDataMismatches(ua: string, d: { brands: Array<{ brand: string; version: string }>; platform: string; mobile: boolean }): string[] {
  const claim = engineClaim(ua)
  const out: string[] = []
  if (claim.engine !== 'blink') out.push(`the User-Agent claims ${claim.engine}, which has no userAgentData`)
  const real = d.brands.filter((b) => !isGreaseBrand(b.brand))
  const chromium = real.find((b) => /^(Chromium|Google Chrome|HeadlessChrome)$/i.test(b.brand)) ?? real[0]
  const version = chromium ? Number.parseInt(chromium.version, 10) : null
  if (claim.engine === 'blink' && claim.major !== null && version !== null && version !== claim.major) out.push(`the User-Agent says version ${claim.major}, the brands ${version}`)
  const os = osFromPlatformHint(d.platform)
  if (os && os !== 'unknown' && claim.os !== 'unknown' && os !== claim.os) out.push(`the User-Agent claims ${claim.os}, userAgentData.platform "${d.platform}"`)
  const mobile = /Mobile/.test(ua)
  if (claim.os !== 'unknown' && d.mobile !== mobile) out.push(`the User-Agent says mobile=${mobile}, userAgentData.mobile=${d.mobile}`)
  return out
}

/** Distinct other addresses from which a visitor id makes it common (a warning). */
export const COMMON_ADDRESSES = 5

interface ComponentOutcome {
  hash: string | null
  stable: boolean
  inVisitorId: boolean
  error?: string
}

/**
 * Per-component hashes and the visitor id. Stable values and stable absences ("unsupported",
 * "blocked": the same on every visit) count; noise, timeouts and failures do not.
 */
export function fingerprintOf(signals: Pick<BrowserFingerprintSignals, ComponentName>) {
  const components: Record<string, ComponentOutcome> = {}
  const unstable: ComponentName[] = []
  const excluded: ComponentName[] = []
  const parts: string[] = []
  for (const name of Object.keys(COMPONENTS).sort() as ComponentName[]) {
    const s = signals[name] as SignalResult<{ value: unknown; again?: unknown }> | undefined
    let out: ComponentOutcome
    if (s?.ok) {
      const stable = s.value.again === undefined
      out = { hash: hashValue(s.value.value), stable, inVisitorId: stable }
      if (!stable) unstable.push(name)
    } else {
      const kind = s ? s.error.kind : 'error'
      const steady = kind === 'unsupported' || kind === 'blocked'
      out = { hash: steady ? hashValue(`${kind}`) : null, stable: kind !== 'farbled', inVisitorId: steady, error: whyMissing(s) }
      if (kind === 'farbled') unstable.push(name)
    }
    if (out.inVisitorId) parts.push(`${name}:${out.hash}`)
    else excluded.push(name)
    components[name] = out
  }
  return { visitorId: hashHex(parts.join('|')), components, unstable, excluded }
}

/** The visitor id of a fingerprint, or null when no component went into it. */
function identityOf(fp: Pick<ReturnType<typeof fingerprintOf>, 'visitorId' | 'excluded'>): string | null {
  return fp.excluded.length < Object.keys(COMPONENTS).length ? fp.visitorId : null
}

/**
 * The visitor id the judge reports for these signals, as stored in the task's `fingerprint`
 * and counted for fp-commonness; null when no component went into it (nothing sent, every
 * read timed out or failed): that hash of nothing would be shared by every such submission.
 */
export function visitorIdOf(signals: Pick<BrowserFingerprintSignals, ComponentName>): string | null {
  return identityOf(fingerprintOf(signals))
}

/** fp-commonness from the count over stored tasks the service made before judging. */
function commonnessCheck(visitorId: string | null, seen: FingerprintSeen | undefined): Check {
  const def = DEFS.commonness
  const expected = `a visitor id not shared by ${COMMON_ADDRESSES} or more other addresses in the last ${SEEN_WINDOW_DAYS} days`
  if (visitorId === null) return check(def, { verdict: 'na', observed: null, expected: 'no visitor id: no component was read reliably' })
  if (seen === undefined) return check(def, { verdict: 'na', observed: null, expected: `not counted: the stored tasks were not consulted for visitor id ${visitorId}` })
  if ('error' in seen) return check(def, { verdict: 'na', observed: null, expected: `not counted: ${seen.error}` })
  const window = `the last ${SEEN_WINDOW_DAYS} days`
  const atLeast = seen.tasks >= SEEN_CAP ? 'at least ' : ''
  const tasks = (n: number) => `${n} stored task${n === 1 ? ' has' : 's have'}`
  const addresses = (n: number) => `${n} other address${n === 1 ? '' : 'es'}`
  if (seen.addresses === 0) {
    const observed = seen.tasks === 0
      ? `unique: no task stored in ${window} has visitor id ${visitorId}`
      : `unique to this address: ${atLeast}${tasks(seen.tasks)} visitor id ${visitorId} in ${window}, all from this address`
    return check(def, { verdict: 'pass', observed, expected })
  }
  const shared = `${atLeast}${tasks(seen.tasks)} visitor id ${visitorId} in ${window}, from ${atLeast}${addresses(seen.addresses)}`
  if (seen.addresses < COMMON_ADDRESSES) return check(def, { verdict: 'pass', observed: `rare: ${shared} (the same browser on another network, or a close twin)`, expected })
  return check(def, { verdict: 'warn', observed: `common: ${shared} — a default configuration, as automation fleets have`, expected })
}

function first<T>(s: SignalResult<{ value: T; again?: T }> | undefined): T | undefined {
  return valueOf(s)?.value
}

export const browserFingerprint = legacyTool({
  id: 'browser-fingerprint',
  signals: BrowserFingerprintSignals,
  sections: BrowserFingerprintSections,
  identity: visitorIdOf,
  judge(s: BrowserFingerprintSignals, server: ServerObservation, ctx?: JudgeContext) {
    const checks: Check[] = []
    const na = (def: CheckDef, why: string) => check(def, { verdict: 'na', observed: null, expected: why })
    const fp = fingerprintOf(s)
    const nav = first(s.navigator)
    const claimed: EngineClaim = engineClaim(server.userAgent)
    const pageUa = engineClaim(nav?.userAgent ?? server.userAgent)

    // Stability.
    checks.push(
      check(DEFS.stability, {
        verdict: fp.unstable.length ? 'warn' : 'pass',
        observed: fp.unstable.length
          ? `farbling detected: ${fp.unstable.map((n) => `${n} (${s[n].ok ? 'two reads differ' : whyMissing(s[n])})`).join(', ')}`
          : `${Object.keys(COMPONENTS).length - fp.excluded.length} components identical on both reads; visitor id ${fp.visitorId}`,
        expected: 'every component identical on both reads',
      }),
    )

    // Iframe and worker against the page.
    const page = valueOf(s.pageScope)
    for (const [def, other, label] of [
      [DEFS.iframe, s.iframeScope, 'iframe'],
      [DEFS.worker, s.workerScope, 'worker'],
    ] as const) {
      const o = valueOf(other)
      if (page && o) {
        const diff = scopeMismatches(page, o)
        checks.push(check(def, { verdict: diff.length ? 'fail' : 'pass', observed: diff.length ? diff.join('; ') : `same ${Object.keys(page).length} values in the page and the ${label}`, expected: `the ${label} reports what the page reports` }))
      } else checks.push(na(def, `no ${label} reading: ${whyMissing(other) || whyMissing(s.pageScope)}`))
    }

    // The User-Agent, in the header and in the page.
    if (nav) {
      checks.push(check(DEFS.uaHeader, { verdict: nav.userAgent === server.userAgent ? 'pass' : 'fail', observed: nav.userAgent === server.userAgent ? nav.userAgent : { page: nav.userAgent, header: server.userAgent }, expected: 'the same string' }))
      const want = PLATFORM_OF[pageUa.os]
      checks.push(
        want
          ? check(DEFS.platform, { verdict: want[0].test(nav.platform) ? 'pass' : 'fail', observed: { platform: nav.platform, claimedOs: pageUa.os }, expected: `a ${pageUa.os} platform: ${want[1]}` })
          : na(DEFS.platform, 'the User-Agent names no known OS'),
      )
    } else {
      checks.push(na(DEFS.uaHeader, whyMissing(s.navigator)), na(DEFS.platform, whyMissing(s.navigator)))
    }

    const uad = first(s.uaData)
    if (uad && nav) {
      const diff = uaDataMismatches(nav.userAgent, uad)
      checks.push(check(DEFS.uaData, { verdict: diff.length ? 'fail' : 'pass', observed: diff.length ? diff.join('; ') : { brands: uad.brands.map((b) => `${b.brand} ${b.version}`).join(', '), platform: uad.platform, mobile: uad.mobile }, expected: 'brands, version, platform and mobile flag as in the User-Agent' }))
    } else if (pageUa.engine === 'blink' && s.uaData.ok === false && s.uaData.error.kind === 'unsupported') {
      checks.push(check(DEFS.uaData, { verdict: 'warn', observed: whyMissing(s.uaData), expected: 'navigator.userAgentData in a Chromium browser on a secure page' }))
    } else checks.push(na(DEFS.uaData, whyMissing(s.uaData) || 'not a Chromium browser'))

    // Vendor and vendor flavours.
    const flav = first(s.vendorFlavours)
    const wantVendor = VENDOR_OF[pageUa.engine]
    if (nav && flav && wantVendor !== undefined) {
      const problems: string[] = []
      if (nav.vendor !== wantVendor) problems.push(`vendor "${nav.vendor}" (expected "${wantVendor}")`)
      const hasChrome = flav.flavours.includes('chrome')
      if (pageUa.engine === 'blink' && !hasChrome && !pageUa.mobile) problems.push('no window.chrome')
      if (pageUa.engine === 'gecko' && hasChrome) problems.push('window.chrome in Firefox')
      checks.push(check(DEFS.vendor, { verdict: problems.length ? 'fail' : 'pass', observed: problems.length ? problems.join('; ') : { vendor: nav.vendor, flavours: flav.flavours }, expected: `vendor "${wantVendor}"${pageUa.engine === 'blink' ? ' and window.chrome' : ''}` }))
    } else checks.push(na(DEFS.vendor, nav && flav ? 'the User-Agent names no known engine' : whyMissing(s.navigator) || whyMissing(s.vendorFlavours)))

    const arch = first(s.architecture)

    // Architecture against the hint.
    const hintArch = header(server, 'sec-ch-ua-arch')?.replace(/"/g, '') ?? uad?.high?.architecture ?? null
    if (arch !== undefined && hintArch) {
      const nanSays = arch === 255 ? 'x86' : arch === 127 ? 'arm' : `unknown (${arch})`
      checks.push(check(DEFS.architecture, { verdict: nanSays === hintArch.toLowerCase() ? 'pass' : 'warn', observed: { nanByte: arch, cpu: nanSays, hint: hintArch }, expected: `the hint names the CPU family the NaN shows (${nanSays})` }))
    } else checks.push(na(DEFS.architecture, arch === undefined ? whyMissing(s.architecture) : 'no architecture hint (Chromium only, after Accept-CH)'))

    // Device memory hint.
    const hw = first(s.hardware)
    const dmHeader = header(server, 'sec-ch-device-memory') ?? header(server, 'device-memory')
    if (dmHeader !== undefined && hw && hw.deviceMemory !== null) {
      checks.push(check(DEFS.deviceMemory, { verdict: Number(dmHeader) === hw.deviceMemory ? 'pass' : 'fail', observed: { header: dmHeader, deviceMemory: hw.deviceMemory }, expected: 'equal' }))
    } else checks.push(na(DEFS.deviceMemory, dmHeader === undefined ? 'the browser sent no Device-Memory hint (Chromium only, after Accept-CH)' : 'no navigator.deviceMemory'))

    // Languages.
    const langs = first(s.languages)
    const accept = header(server, 'accept-language')
    if (langs) {
      const problems: string[] = []
      const top = langs.languages[0]
      if (top && top !== langs.language) problems.push(`navigator.language "${langs.language}" is not languages[0] "${top}"`)
      let verdict: 'pass' | 'warn' | 'fail' = 'pass'
      const fromHeader = accept ? firstAcceptLanguage(accept) : null
      if (fromHeader && top) {
        const primary = (t: string) => t.toLowerCase().split('-')[0]
        if (primary(fromHeader) !== primary(top)) problems.push(`Accept-Language starts with "${fromHeader}", the page with "${top}"`)
        else if (fromHeader.toLowerCase() !== top.toLowerCase()) verdict = 'warn'
      }
      if (problems.length) verdict = 'fail'
      checks.push(check(DEFS.language, { verdict, observed: problems.length ? problems.join('; ') : { acceptLanguage: accept ?? null, languages: langs.languages }, expected: 'the same first language in the header and the page' }))
    } else checks.push(na(DEFS.language, whyMissing(s.languages)))

    // Media hints.
    const media = first(s.media)
    const hintScheme = header(server, 'sec-ch-prefers-color-scheme')
    const hintMotion = header(server, 'sec-ch-prefers-reduced-motion')
    if (media && (hintScheme !== undefined || hintMotion !== undefined)) {
      const problems: string[] = []
      if (hintScheme !== undefined && media.colorScheme && hintScheme.replace(/"/g, '') !== media.colorScheme) problems.push(`color scheme: hint ${hintScheme}, CSS ${media.colorScheme}`)
      if (hintMotion !== undefined && media.reducedMotion && hintMotion.replace(/"/g, '') !== media.reducedMotion) problems.push(`reduced motion: hint ${hintMotion}, CSS ${media.reducedMotion}`)
      checks.push(check(DEFS.mediaHints, { verdict: problems.length ? 'fail' : 'pass', observed: problems.length ? problems.join('; ') : { colorScheme: media.colorScheme, reducedMotion: media.reducedMotion }, expected: 'hints equal to the CSS media features' }))
    } else checks.push(na(DEFS.mediaHints, media ? 'no Sec-CH-Prefers-* hints (Chromium only, after Accept-CH)' : whyMissing(s.media)))

    // Time zone.
    const tz = first(s.timezone)
    if (tz && tz.intlOffset !== null) {
      checks.push(check(DEFS.timezone, { verdict: tz.intlOffset === tz.offset ? 'pass' : 'fail', observed: { zone: tz.zone, intlOffset: tz.intlOffset, getTimezoneOffset: tz.offset }, expected: 'the zone’s offset equals getTimezoneOffset()' }))
    } else checks.push(na(DEFS.timezone, tz ? 'this engine cannot format a zone offset (Intl longOffset)' : whyMissing(s.timezone)))

    // Plugins.
    const pl = first(s.plugins)
    if (pl) {
      const problems: string[] = []
      if (!pl.nativePrototypes) problems.push('plugins or mimeTypes is not a native PluginArray/MimeTypeArray')
      if (pl.pdfViewerEnabled === true && pl.plugins.length !== 5) problems.push(`pdfViewerEnabled with ${pl.plugins.length} plugins (the standard list has 5)`)
      if (pl.pdfViewerEnabled === false && pl.plugins.length > 0) problems.push(`pdfViewerEnabled false with ${pl.plugins.length} plugins`)
      const emptyDesktop = pl.plugins.length === 0 && !pageUa.mobile && pageUa.engine === 'blink' && pl.pdfViewerEnabled !== false
      const verdict = !pl.nativePrototypes || problems.length > 1 ? 'fail' : problems.length || emptyDesktop ? 'warn' : 'pass'
      if (emptyDesktop) problems.push('no plugins in desktop Chromium (old headless mode)')
      checks.push(check(DEFS.plugins, { verdict, observed: problems.length ? problems.join('; ') : { plugins: pl.plugins.map((p) => p.name), pdfViewerEnabled: pl.pdfViewerEnabled }, expected: 'five PDF viewers with pdfViewerEnabled, none without, in native PluginArray objects' }))
    } else checks.push(na(DEFS.plugins, whyMissing(s.plugins)))

    // Hardware.
    if (hw) {
      const problems: string[] = []
      const c = hw.hardwareConcurrency
      if (c !== null && (!Number.isInteger(c) || c < 1 || c > 512)) problems.push(`hardwareConcurrency ${c}`)
      const m = hw.deviceMemory
      if (m !== null && (!(m >= 0.25) || !Number.isInteger(Math.log2(m)))) problems.push(`deviceMemory ${m} is not a power of two`)
      if (m !== null && pageUa.engine !== 'blink' && pageUa.engine !== 'unknown') problems.push(`deviceMemory in ${pageUa.engine}, which does not implement it`)
      checks.push(check(DEFS.hardware, { verdict: problems.length ? 'fail' : 'pass', observed: problems.length ? problems.join('; ') : hw, expected: 'a positive core count; deviceMemory a power of two, Chromium only' }))
    } else checks.push(na(DEFS.hardware, whyMissing(s.hardware)))

    // resistFingerprinting profile.
    if (hw && tz && langs) {
      const rfp = pageUa.engine === 'gecko' && hw.hardwareConcurrency === 2 && tz.zone === 'UTC' && langs.languages.join(',') === 'en-US,en'
      checks.push(check(DEFS.privacyMode, { verdict: rfp ? 'warn' : 'pass', observed: rfp ? 'resistFingerprinting/Tor profile detected: UTC, 2 cores, en-US' : { zone: tz.zone, cores: hw.hardwareConcurrency, languages: langs.languages }, expected: 'an ordinary profile' }))
    } else checks.push(na(DEFS.privacyMode, whyMissing(s.hardware) || whyMissing(s.timezone) || whyMissing(s.languages)))

    // GPU.
    const gl = first(s.webgl)
    if (gl) {
      const renderer = effectiveRenderer(gl)
      const soft = softwareRenderer(renderer)
      checks.push(check(DEFS.software, { verdict: soft ? 'warn' : 'pass', observed: soft ? `${soft}: ${renderer}` : renderer, expected: 'a hardware GPU' }))
      const fit = gpuFitsOs(gl.unmaskedVendor || gl.vendor, renderer, claimed.os)
      checks.push(check(DEFS.gpuOs, { verdict: fit.verdict, observed: { renderer, claimedOs: claimed.os, reason: fit.reason }, expected: 'a renderer that exists on the claimed OS' }))
    } else checks.push(na(DEFS.software, whyMissing(s.webgl)), na(DEFS.gpuOs, whyMissing(s.webgl)))

    // Fonts.
    const fonts = first(s.fonts)
    const fam = familyOfClaimedOs(claimed.os)
    if (fonts && fam) {
      const inf = inferOsFromFonts(fonts)
      const other = inf.os && inf.os !== fam && inf.confidence === 'strong' && inf.evidence[fam].strong.length === 0
      checks.push(check(DEFS.fontsOs, { verdict: other ? 'warn' : 'pass', observed: { inferred: inf.os, confidence: inf.confidence, claimed: claimed.os, markers: inf.os ? inf.evidence[inf.os].strong : [] }, expected: `fonts of ${fam} (or no clear markers of another OS)` }))
    } else checks.push(na(DEFS.fontsOs, fonts ? 'the User-Agent names no known OS' : whyMissing(s.fonts)))

    // Storage.
    const st = first(s.storage)
    if (st) {
      const blocked = (['cookies', 'localStorage', 'sessionStorage', 'indexedDB'] as const).filter((k) => !st[k])
      checks.push(check(DEFS.storage, { verdict: blocked.length ? 'warn' : 'pass', observed: blocked.length ? `blocked: ${blocked.join(', ')}` : st, expected: 'cookies, localStorage, sessionStorage and indexedDB usable' }))
    } else checks.push(na(DEFS.storage, whyMissing(s.storage)))

    // Audio sum against the engine (the audio-fingerprint tool judges it in depth).
    const audio = first(s.audio)
    if (audio && fp.components.audio?.stable) {
      const fit = audioFitsEngine(audio.sum, pageUa.engine)
      checks.push(check(DEFS.audio, { verdict: fit.verdict, observed: { sum: audio.sum, reason: fit.reason }, expected: `a sum known for ${pageUa.engine}` }))
    } else checks.push(na(DEFS.audio, audio ? 'the sum is noised (see fp-stability)' : whyMissing(s.audio)))

    // How common the visitor id is: the count over stored tasks comes in ctx.
    const seen = ctx?.fingerprintSeen
    const identity = identityOf(fp)
    checks.push(commonnessCheck(identity, seen))
    const commonness = identity !== null && seen && !('error' in seen) ? { tasks: seen.tasks, addresses: seen.addresses } : null

    return { checks, sections: { fingerprint: { ...fp, commonness } } }
  },
})
