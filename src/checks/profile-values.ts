// Values of the browser profile that must be plausible on their own or together: the Intl
// zone against the clock offset, core count and memory bucket, the resistFingerprinting/Tor
// profile, and usable cookies and storage. What depends on the engine is judged by the engine
// the page runs on, told by its error messages (./page-engine.ts), not by the user agent.

import { ENGINE_NAME } from '../../common/engine-errors'
import type { BrowserFingerprintSignals } from '../../common/signals/browser-fingerprint'
import { checkOn, na } from './define'
import { pageEngine } from './page-engine'

const profileCheck = checkOn<BrowserFingerprintSignals>()

export const fpTimezone = profileCheck({
  id: 'fp-timezone',
  name: 'Intl time zone agrees with the clock offset',
  found: 'the Intl time zone contradicts the clock offset',
  source: 'client',
  why: 'The offset of the zone Intl reports must equal Date’s getTimezoneOffset. Spoofing the zone through Intl only (a common extension trick) keeps the real offset.',
  needs: ['timezone'],
  judge: ({ timezone: { value: tz } }) =>
    tz.intlOffset === null
      ? na('this engine cannot format a zone offset (Intl longOffset)')
      : { verdict: tz.intlOffset === tz.offset ? 'pass' : 'fail', observed: { zone: tz.zone, intlOffset: tz.intlOffset, getTimezoneOffset: tz.offset }, expected: 'the zone’s offset equals getTimezoneOffset()' },
})

export const fpHardware = profileCheck({
  id: 'fp-hardware',
  name: 'Cores and memory are plausible',
  found: 'cores or memory are implausible',
  source: 'client',
  why: 'hardwareConcurrency is a positive integer and deviceMemory (Chromium only) a power of two from 0.25; other values, or deviceMemory on SpiderMonkey or JavaScriptCore (told by the page\'s error messages, not the user agent), were injected.',
  ref: 'https://www.w3.org/TR/device-memory/#sec-device-memory-js-api',
  needs: ['hardware'],
  uses: ['engine'],
  judge: ({ hardware: { value: hw }, engine: e }) => {
    const { engine, basis } = pageEngine(e)
    const problems: string[] = []
    const c = hw.hardwareConcurrency
    if (c !== null && (!Number.isInteger(c) || c < 1 || c > 512)) problems.push(`hardwareConcurrency ${c}`)
    const m = hw.deviceMemory
    if (m !== null && (!(m >= 0.25) || !Number.isInteger(Math.log2(m)))) problems.push(`deviceMemory ${m} is not a power of two`)
    if (m !== null && engine !== 'blink' && engine !== 'unknown') problems.push(`deviceMemory on ${ENGINE_NAME[engine]}, which does not implement it`)
    return { verdict: problems.length ? 'fail' : 'pass', observed: problems.length ? problems.join('; ') : hw, expected: `a positive core count; deviceMemory a power of two, on V8 (Blink) only (${basis})` }
  },
})

/**
 * The zones Gecko's resistFingerprinting reports whatever the machine's: Atlantic/Reykjavik
 * (UTC all year) since Firefox 128, UTC before it and in older Tor Browsers.
 */
const RFP_ZONES: readonly string[] = ['Atlantic/Reykjavik', 'UTC', 'Etc/UTC']

/** The tells of resistFingerprinting besides its zone (none: the zone alone is a machine in UTC or Iceland). */
function rfpTells(t: { maxTouchPoints: number; touchEvent: boolean }, raw: Partial<BrowserFingerprintSignals>): string[] {
  const tells: string[] = []
  // SPOOFED_MAX_TOUCH_POINTS (10 on Windows, 5 on Linux) while the window has no touch events.
  if (t.maxTouchPoints > 0 && !t.touchEvent) tells.push(`maxTouchPoints ${t.maxTouchPoints} without touch events`)
  const noised = (['canvas', 'webgl'] as const).filter((n) => {
    const r = raw[n]
    return r?.ok ? r.value.again !== undefined : r?.error.kind === 'farbled'
  })
  if (noised.length) tells.push(`${noised.join(' and ')} read differently twice (randomised reads)`)
  return tells
}

export const fpPrivacyMode = profileCheck({
  id: 'fp-privacy-mode',
  name: 'No resistFingerprinting profile',
  found: 'a resistFingerprinting profile',
  source: 'client',
  why: "Firefox's privacy.resistFingerprinting (on in Tor Browser, Mullvad Browser and LibreWolf) reports a fixed zone whatever the machine's (Atlantic/Reykjavik since Firefox 128, UTC before), touch points without touch events (SPOOFED_MAX_TOUCH_POINTS) and canvas and WebGL reads randomised per read. Detected on a SpiderMonkey engine (told by the page's error messages, not the user agent) when that zone comes with at least one of the other tells: a zone alone is a machine set to UTC or in Iceland, and a default Firefox on a UTC machine with 2 cores is an ordinary profile. A user choice (anti-fingerprinting), so only a warning.",
  ref: 'https://searchfox.org/mozilla-central/source/toolkit/components/resistfingerprinting/RFPTargets.inc',
  needs: ['timezone', 'touch'],
  uses: ['engine'],
  judge: ({ timezone: { value: tz }, touch, engine: e }, { raw }) => {
    const { engine, basis } = pageEngine(e)
    const expected = `an ordinary profile (resistFingerprinting is Gecko's; ${basis})`
    if (engine === 'unknown') return na(`resistFingerprinting is Gecko's, and the engine is not known: ${basis}`)
    const zone = tz.zone ?? ''
    const tells = engine === 'gecko' ? rfpTells(touch.value, raw) : []
    const rfp = RFP_ZONES.includes(zone) && tells.length > 0
    return {
      verdict: rfp ? 'warn' : 'pass',
      observed: rfp
        ? `anti-fingerprinting detected (resistFingerprinting): the zone ${zone}, ${tells.join(', ')}`
        : { zone: tz.zone, maxTouchPoints: touch.value.maxTouchPoints, touchEvent: touch.value.touchEvent, ...(tells.length ? { tells } : {}) },
      expected,
    }
  },
})

const STORES = ['cookies', 'localStorage', 'sessionStorage', 'indexedDB'] as const

export const fpStorage = profileCheck({
  id: 'fp-storage',
  name: 'Cookies and storage are available',
  found: 'cookies or storage are blocked',
  source: 'client',
  why: 'Blocked cookies or storage is a privacy setting (or an embedded/automated browser with a throwaway profile); a weak signal on its own.',
  needs: ['storage'],
  judge: ({ storage: { value: st } }) => {
    const blocked = STORES.filter((k) => !st[k])
    return { verdict: blocked.length ? 'warn' : 'pass', observed: blocked.length ? `blocked: ${blocked.join(', ')}` : st, expected: 'cookies, localStorage, sessionStorage and indexedDB usable' }
  },
})
