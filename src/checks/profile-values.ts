// Values of the browser profile that must be plausible on their own or together: the Intl
// zone against the clock offset, core count and memory bucket, the resistFingerprinting/Tor
// profile, and usable cookies and storage.

import type { BrowserFingerprintSignals } from '../../common/signals/browser-fingerprint'
import { checkOn, na } from './define'
import { pageClaim } from './navigator-claims'

const profileCheck = checkOn<BrowserFingerprintSignals>()

export const fpTimezone = profileCheck({
  id: 'fp-timezone',
  name: 'Intl time zone agrees with the clock offset',
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
  source: 'client',
  why: 'hardwareConcurrency is a positive integer and deviceMemory (Chromium only) a power of two from 0.25; other values, or deviceMemory in Firefox/Safari, were injected.',
  ref: 'https://www.w3.org/TR/device-memory/#sec-device-memory-js-api',
  needs: ['hardware'],
  uses: ['navigator'],
  judge: ({ hardware: { value: hw }, navigator }, { server }) => {
    const { engine } = pageClaim(navigator, server)
    const problems: string[] = []
    const c = hw.hardwareConcurrency
    if (c !== null && (!Number.isInteger(c) || c < 1 || c > 512)) problems.push(`hardwareConcurrency ${c}`)
    const m = hw.deviceMemory
    if (m !== null && (!(m >= 0.25) || !Number.isInteger(Math.log2(m)))) problems.push(`deviceMemory ${m} is not a power of two`)
    if (m !== null && engine !== 'blink' && engine !== 'unknown') problems.push(`deviceMemory in ${engine}, which does not implement it`)
    return { verdict: problems.length ? 'fail' : 'pass', observed: problems.length ? problems.join('; ') : hw, expected: 'a positive core count; deviceMemory a power of two, Chromium only' }
  },
})

export const fpPrivacyMode = profileCheck({
  id: 'fp-privacy-mode',
  name: 'No resistFingerprinting profile',
  source: 'client',
  why: 'Firefox resistFingerprinting and Tor Browser report UTC, 2 cores and en-US together; that combination is a privacy mode, not a normal profile. A user choice, so only a warning.',
  ref: 'https://support.mozilla.org/kb/resist-fingerprinting',
  needs: ['hardware', 'timezone', 'languages'],
  uses: ['navigator'],
  judge: ({ hardware: { value: hw }, timezone: { value: tz }, languages: { value: langs }, navigator }, { server }) => {
    const rfp = pageClaim(navigator, server).engine === 'gecko' && hw.hardwareConcurrency === 2 && tz.zone === 'UTC' && langs.languages.join(',') === 'en-US,en'
    return {
      verdict: rfp ? 'warn' : 'pass',
      observed: rfp ? 'resistFingerprinting/Tor profile detected: UTC, 2 cores, en-US' : { zone: tz.zone, cores: hw.hardwareConcurrency, languages: langs.languages },
      expected: 'an ordinary profile',
    }
  },
})

const STORES = ['cookies', 'localStorage', 'sessionStorage', 'indexedDB'] as const

export const fpStorage = profileCheck({
  id: 'fp-storage',
  name: 'Cookies and storage are available',
  source: 'client',
  why: 'Blocked cookies or storage is a privacy setting (or an embedded/automated browser with a throwaway profile); a weak signal on its own.',
  needs: ['storage'],
  judge: ({ storage: { value: st } }) => {
    const blocked = STORES.filter((k) => !st[k])
    return { verdict: blocked.length ? 'warn' : 'pass', observed: blocked.length ? `blocked: ${blocked.join(', ')}` : st, expected: 'cookies, localStorage, sessionStorage and indexedDB usable' }
  },
})
