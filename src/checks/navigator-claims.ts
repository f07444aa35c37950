// What navigator says the browser is, against the User-Agent: the string in the header and in
// the page, navigator.platform against the OS, navigator.userAgentData against the string
// (common/user-agent.ts uaHintMismatches, the one comparison of UA and client hints), and the
// vendor string and vendor globals against the engine the page runs on, told by its error
// messages (FingerprintJS src/sources/vendor_flavors.ts).

import { ENGINE_NAME } from '../../common/engine-errors'
import { whyMissing } from '../../common/signal'
import type { BrowserFingerprintSignals } from '../../common/signals/browser-fingerprint'
import { engineClaim, parseUserAgent, uaHintMismatches, type EngineClaim } from '../../common/user-agent'
import type { ServerObservation } from '../core/tools/observation'
import { checkOn, na, type SignalValues } from './define'
import { claimAgainstEngine, pageEngine } from './page-engine'

type V = SignalValues<BrowserFingerprintSignals>
const navCheck = checkOn<BrowserFingerprintSignals>()

/** The engine and OS the page's own navigator.userAgent claims (the header's when the page sent none). */
export function pageClaim(navigator: V['navigator'] | undefined, server: Pick<ServerObservation, 'userAgent'>): EngineClaim {
  return engineClaim(navigator?.value.userAgent ?? server.userAgent)
}

export const fpUaHeader = navCheck({
  id: 'fp-ua-header',
  name: 'navigator.userAgent equals the User-Agent header',
  found: 'navigator.userAgent differs from the User-Agent header',
  source: 'server',
  why: 'The browser sends the same string in the header and exposes it in JavaScript. A difference means one of them was rewritten (a UA-switcher extension changing only one, or a script overriding navigator.userAgent).',
  expected: 'the same string',
  needs: ['navigator'],
  judge: ({ navigator: { value: nav } }, { server }) => {
    const same = nav.userAgent === server.userAgent
    return { verdict: same ? 'pass' : 'fail', observed: same ? nav.userAgent : { page: nav.userAgent, header: server.userAgent } }
  },
})

const PLATFORM_OF: Record<string, [RegExp, string]> = {
  windows: [/^Win/, '"Win32"'],
  mac: [/^Mac/, '"MacIntel"'],
  ios: [/^(iPhone|iPad|iPod|MacIntel)/, '"iPhone", "iPad" (or "MacIntel" for iPad desktop mode)'],
  android: [/^Linux|^Android/, '"Linux armv8l", "Linux aarch64" or similar'],
  linux: [/^Linux|^X11|BSD/, '"Linux x86_64" or similar'],
  chromeos: [/^Linux|^CrOS/, '"Linux x86_64" or similar'],
}

export const fpPlatform = navCheck({
  id: 'fp-platform',
  name: 'navigator.platform fits the claimed OS',
  found: 'navigator.platform does not fit the claimed OS',
  source: 'client',
  why: 'navigator.platform is "Win32" on every Windows, "MacIntel" on every Mac (Apple Silicon included), "Linux …" on Linux, ChromeOS and Android, "iPhone"/"iPad" on iOS. A platform of another OS than the User-Agent names is a spoofed UA or platform.',
  ref: 'https://developer.mozilla.org/docs/Web/API/Navigator/platform',
  needs: ['navigator'],
  judge: ({ navigator }, { server }) => {
    const { os } = pageClaim(navigator, server)
    const want = PLATFORM_OF[os]
    if (!want) return na('the User-Agent names no known OS')
    const platform = navigator.value.platform
    return { verdict: want[0].test(platform) ? 'pass' : 'fail', observed: { platform, claimedOs: os }, expected: `a ${os} platform: ${want[1]}` }
  },
})

export const fpUaClientHints = navCheck({
  id: 'fp-ua-client-hints',
  name: 'userAgentData agrees with the User-Agent',
  found: 'userAgentData contradicts the User-Agent',
  source: 'client',
  why: 'Chromium reports its brands, version, platform and mobile flag in navigator.userAgentData; spoofing the User-Agent string alone leaves them telling the truth. Only Chromium has userAgentData, so on other engines (told by the page\'s error messages) its absence is expected.',
  ref: 'https://wicg.github.io/ua-client-hints/#interface',
  needs: [],
  uses: ['uaData', 'navigator', 'engine'],
  judge: ({ uaData, navigator, engine }, { raw, server }) => {
    if (uaData && navigator) {
      const uad = uaData.value
      const diff = uaHintMismatches(parseUserAgent(navigator.value.userAgent), { brands: uad.brands, platform: uad.platform, mobile: uad.mobile })
      return {
        verdict: diff.length ? 'fail' : 'pass',
        observed: diff.length ? diff.join('; ') : { brands: uad.brands.map((b) => `${b.brand} ${b.version}`).join(', '), platform: uad.platform, mobile: uad.mobile },
        expected: 'brands, version, platform and mobile flag as in the User-Agent',
      }
    }
    const s = raw.uaData
    const page = pageEngine(engine)
    const claimed = pageClaim(navigator, server).engine
    // Chromium 90+ has userAgentData on every secure page: its absence under a Blink UA is odd,
    // not fatal; the page's engine says whether it is V8 without it or another engine in disguise.
    if (claimed === 'blink' && s?.ok === false && s.error.kind === 'unsupported') {
      const other = claimAgainstEngine(claimed, page.engine)
      return {
        verdict: 'warn',
        observed: `${whyMissing(s)}${other ? `: ${other}, which has none` : page.engine === 'blink' ? ': on V8 (Blink), which has it, so it was removed' : ''}`,
        expected: `navigator.userAgentData in a Chromium browser on a secure page (${page.basis})`,
      }
    }
    return na(whyMissing(s) || `not a Chromium browser (${page.basis})`)
  },
})

const VENDOR_OF: Record<string, string> = { blink: 'Google Inc.', webkit: 'Apple Computer, Inc.', gecko: '' }

export const fpVendor = navCheck({
  id: 'fp-vendor',
  name: 'Vendor and vendor globals fit the engine',
  found: 'vendor or vendor globals do not fit the engine',
  source: 'client',
  why: 'navigator.vendor is "Google Inc." in every Blink browser, "Apple Computer, Inc." in WebKit and empty in Gecko; window.chrome exists only in Blink. Judged by the engine the page runs on, told by its error messages: a vendor or window.chrome of another engine was patched in, and a User-Agent naming another engine than the page\'s is another browser in disguise.',
  ref: 'https://github.com/fingerprintjs/fingerprintjs/blob/master/src/sources/vendor_flavors.ts',
  needs: ['navigator', 'vendorFlavours'],
  uses: ['engine'],
  judge: ({ navigator, vendorFlavours: { value: flav }, engine: e }, { server }) => {
    const ua = pageClaim(navigator, server)
    const nav = navigator.value
    const { engine, basis } = pageEngine(e)
    const wantVendor = VENDOR_OF[engine]
    if (wantVendor === undefined) return na(`the vendor belongs to the engine the page runs on, which is not known: ${basis}`)
    const problems: string[] = []
    if (nav.vendor !== wantVendor) problems.push(`vendor "${nav.vendor}" (${ENGINE_NAME[engine]} gives "${wantVendor}")`)
    const hasChrome = flav.flavours.includes('chrome')
    if (engine === 'blink' && !hasChrome && !ua.mobile) problems.push('no window.chrome on V8 (Blink)')
    if (engine === 'gecko' && hasChrome) problems.push('window.chrome on SpiderMonkey (Gecko)')
    const other = claimAgainstEngine(ua.engine, engine)
    if (other) problems.push(other)
    return {
      verdict: problems.length ? 'fail' : 'pass',
      observed: problems.length ? problems.join('; ') : { vendor: nav.vendor, flavours: flav.flavours },
      expected: `vendor "${wantVendor}"${engine === 'blink' ? ' and window.chrome' : ''}, under a User-Agent of the same engine (${basis})`,
    }
  },
})
