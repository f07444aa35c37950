// User-Agent client hints in the request against the User-Agent header and against
// navigator.userAgentData. Chromium (89+) sends Sec-CH-UA, Sec-CH-UA-Mobile and
// Sec-CH-UA-Platform on every request to a secure origin (https:, and http://localhost,
// which counts as secure) from the same build data as its User-Agent and userAgentData;
// Firefox and Safari send none. https://wicg.github.io/ua-client-hints/
//
// The one Sec-CH-UA parser of the service is `hintsFromHeaders` below (the brand list itself
// is a Structured Field, parsed by common/user-agent.ts).
//
// Decision (issue 10): hints missing where Chromium would send them WARN, in both checks. The
// headers were rewritten, but the rewriter can be a person's own tool: UA-switcher extensions
// on Chromium strip Sec-CH-UA when they change the User-Agent, Firefox behind a Chrome UA
// switcher sends none, and TLS-inspecting middleboxes drop headers they do not know. Hints
// that are present and contradict the User-Agent or userAgentData fail: no person's stack
// invents them.

import { ENGINE_NAME } from '../../common/engine-errors'
import type { SignalResult } from '../../common/signal'
import type { JsEngine } from '../../common/signals/shared'
import { parseBrandList, parseSfBoolean, parseSfString, parseUserAgent, uaHintMismatches, type Brand } from '../../common/user-agent'
import { header, type ServerObservation } from '../core/tools/observation'
import { checkOn, na } from './define'
import { pageEngine } from './page-engine'

/** What the page says of itself (probes/signals/navigator-identity.ts; the members read here). */
export interface PageIdentity {
  userAgent: string
  /** window.isSecureContext: https:, or http://localhost and 127.0.0.1. */
  secureContext: boolean
  /** navigator.userAgentData's low-entropy values; null without it (not Chromium, or not a secure context). */
  uaData: { brands: Brand[]; mobile: boolean; platform: string } | null
}

/** The signals the client-hint checks read; tools that run them name them so. */
export interface ClientHintSignals {
  navigator: SignalResult<PageIdentity>
  /** The page's error messages (probes/signals/js-engine.ts): which engine really sent the request, when hints are missing. */
  engine?: SignalResult<JsEngine>
}

export interface HeaderHints {
  /** Sec-CH-UA as sent; null when absent. */
  raw: string | null
  /** Its brands; null when absent or not a brand list. */
  brands: Brand[] | null
  /** Sec-CH-UA-Platform's string; null when absent or malformed. */
  platform: string | null
  /** Sec-CH-UA-Mobile's boolean; null when absent or malformed. */
  mobile: boolean | null
}

/** The low-entropy client hints of a request: the one place Sec-CH-UA* headers are parsed. */
export function hintsFromHeaders(server: Pick<ServerObservation, 'headers'>): HeaderHints {
  const raw = header(server, 'sec-ch-ua')
  const platform = header(server, 'sec-ch-ua-platform')
  const mobile = header(server, 'sec-ch-ua-mobile')
  return {
    raw: raw ?? null,
    brands: raw === undefined ? null : parseBrandList(raw),
    platform: platform === undefined ? null : parseSfString(platform),
    mobile: mobile === undefined ? null : parseSfBoolean(mobile),
  }
}

export const brandsText = (l: readonly Brand[]) => l.map((b) => `${b.brand} ${b.version}`).join(', ')

/** The same brands and versions, in any order. */
export function sameBrands(a: readonly Brand[], b: readonly Brand[]): boolean {
  const key = (l: readonly Brand[]) => l.map((x) => `${x.brand}\u0000${x.version}`).sort().join('\u0001')
  return key(a) === key(b)
}

const hintCheck = checkOn<ClientHintSignals>()

export const uaVsClientHints = hintCheck({
  id: 'ua-vs-client-hints',
  name: 'User-Agent agrees with Sec-CH-UA headers',
  found: 'the User-Agent contradicts the Sec-CH-UA headers',
  source: 'server',
  why: 'Chromium sends Sec-CH-UA, Sec-CH-UA-Mobile and Sec-CH-UA-Platform from the same build data as its User-Agent, on every request to a secure origin (https: or localhost). A User-Agent claiming another browser, version or OS than the hints is a spoofed header (UA switchers and automation tools often change only the User-Agent): it fails. A Chrome 90+ User-Agent without hints from a secure page is a rewritten header too, but a person can be behind it (a UA-switcher extension strips the hints, Firefox behind a Chrome UA switcher sends none, a TLS-inspecting proxy drops them), so it only warns; from an insecure page, or without the page\'s word on that, it is not applicable.',
  ref: 'https://wicg.github.io/ua-client-hints/#http-ua-hints',
  needs: [],
  uses: ['navigator', 'engine'],
  judge: ({ navigator, engine }, { server }) => {
    const hints = hintsFromHeaders(server)
    const claimed = parseUserAgent(server.userAgent)
    if (hints.brands) {
      const m = uaHintMismatches(claimed, { brands: hints.brands, platform: hints.platform, mobile: hints.mobile })
      return { verdict: m.length ? 'fail' : 'pass', observed: m.length ? m : `${brandsText(hints.brands)}; ${hints.platform ?? '?'}; ${hints.mobile ? 'mobile' : 'desktop'}`, expected: 'the same browser family, major version, OS and mobile flag as the User-Agent' }
    }
    if (hints.raw !== null) return { verdict: 'fail', observed: { 'sec-ch-ua': hints.raw }, expected: 'a Structured Field list of brands, e.g. "Chromium";v="124"' }
    if (claimed.engine === 'blink' && (claimed.version ?? 0) >= 90 && navigator?.secureContext === true) {
      // Which of a person's tools removed them, as far as the page's engine tells.
      const page = pageEngine(engine)
      const why =
        page.engine === 'blink'
          ? 'the page runs on V8 (Blink), which sends them: an extension (a User-Agent switcher) or a TLS-inspecting proxy removed them'
          : page.engine !== 'unknown'
            ? `the page runs on ${ENGINE_NAME[page.engine]}, which sends none: a User-Agent switched to Chrome`
            : null
      return {
        verdict: 'warn',
        observed: { 'user-agent': server.userAgent, 'sec-ch-ua': null, ...(why ? { engine: why } : {}) },
        expected: `Sec-CH-UA headers: Chromium 90+, as the User-Agent claims, sends them on every request from a secure context (${page.basis})`,
      }
    }
    return na('Sec-CH-UA is sent only by Chromium-based browsers, in secure contexts')
  },
})

export const secChUaVsNavigator = hintCheck({
  id: 'sec-ch-ua-vs-navigator',
  name: 'Sec-CH-UA headers agree with navigator.userAgentData',
  found: 'Sec-CH-UA headers contradict navigator.userAgentData',
  source: 'server',
  why: 'Chromium sends the low-entropy hints on every request from a secure context (https: or localhost) and exposes the same values in navigator.userAgentData. Hints without userAgentData, or different values, mean the request was rewritten or the page patched: they fail. Missing headers where the page has userAgentData only warn: UA-switcher extensions and TLS-inspecting proxies strip them for people too.',
  ref: 'https://wicg.github.io/ua-client-hints/#interface',
  needs: ['navigator'],
  judge: ({ navigator: { uaData, secureContext } }, { server }) => {
    const hints = hintsFromHeaders(server)
    if (uaData && hints.brands) {
      const diffs: string[] = []
      if (!sameBrands(uaData.brands, hints.brands)) diffs.push('brands')
      if (hints.platform !== null && hints.platform !== uaData.platform) diffs.push('platform')
      if (hints.mobile !== null && hints.mobile !== uaData.mobile) diffs.push('mobile')
      const observed = diffs.length
        ? { differ: diffs, headers: `${brandsText(hints.brands)}; ${hints.platform}; mobile ${hints.mobile}`, navigator: `${brandsText(uaData.brands)}; ${uaData.platform}; mobile ${uaData.mobile}` }
        : `equal: ${brandsText(uaData.brands)}; ${uaData.platform}; ${uaData.mobile ? 'mobile' : 'desktop'}`
      return { verdict: diffs.length ? 'fail' : 'pass', observed, expected: 'the same brands, platform and mobile flag' }
    }
    if (uaData && hints.raw !== null) return { verdict: 'fail', observed: { 'sec-ch-ua': hints.raw, navigatorBrands: uaData.brands }, expected: 'a Sec-CH-UA brand list equal to navigator.userAgentData.brands' }
    if (uaData && secureContext) return { verdict: 'warn', observed: { 'sec-ch-ua': null, navigatorBrands: uaData.brands }, expected: 'Sec-CH-UA on every request from a Chromium page in a secure context' }
    if (!uaData && hints.raw !== null) return { verdict: 'fail', observed: { 'sec-ch-ua': hints.raw, navigator: 'no navigator.userAgentData' }, expected: 'no Sec-CH-UA header from a page without navigator.userAgentData' }
    return na(uaData ? 'the page is not a secure context, where Chromium sends no client hints' : 'neither client hints nor navigator.userAgentData (not Chromium, or not a secure context)')
  },
})
