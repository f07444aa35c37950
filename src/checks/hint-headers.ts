// What the browser sent in its request headers against what the page read: the CPU family of
// a NaN against the architecture hint, Device-Memory, Accept-Language and the Sec-CH-Prefers-*
// media hints. Chromium builds the hints from the same settings the page's APIs read, so a
// difference means one side was overridden (CDP emulation of one target, extensions).
// https://developer.mozilla.org/docs/Web/HTTP/Client_hints

import type { BrowserFingerprintSignals } from '../../common/signals/browser-fingerprint'
import { firstAcceptLanguage } from '../core/accept-language'
import { header } from '../core/tools/observation'
import { checkOn, na } from './define'

const hintCheck = checkOn<BrowserFingerprintSignals>()

export const fpArchitecture = hintCheck({
  id: 'fp-architecture',
  name: 'CPU family agrees with the architecture hint',
  found: 'the CPU family contradicts the architecture hint',
  source: 'client',
  why: 'The sign of a default NaN reveals the CPU family (x86: 255, ARM: 127) regardless of what the browser claims; Chromium also reports its architecture as a client hint. A mismatch means the hint was spoofed, or an x86 browser is emulated on ARM (Rosetta, Windows on ARM), hence a warning.',
  ref: 'https://github.com/fingerprintjs/fingerprintjs/blob/master/src/sources/architecture.ts',
  needs: ['architecture'],
  uses: ['uaData'],
  judge: ({ architecture: { value: arch }, uaData }, { server }) => {
    const hintArch = header(server, 'sec-ch-ua-arch')?.replace(/"/g, '') ?? uaData?.value.high?.architecture ?? null
    if (!hintArch) return na('no architecture hint (Chromium only, after Accept-CH)')
    const nanSays = arch === 255 ? 'x86' : arch === 127 ? 'arm' : `unknown (${arch})`
    return { verdict: nanSays === hintArch.toLowerCase() ? 'pass' : 'warn', observed: { nanByte: arch, cpu: nanSays, hint: hintArch }, expected: `the hint names the CPU family the NaN shows (${nanSays})` }
  },
})

export const fpDeviceMemoryHint = hintCheck({
  id: 'fp-device-memory-hint',
  name: 'Device-Memory hint agrees with the page',
  found: 'the Device-Memory hint differs from the page\'s value',
  source: 'server',
  why: 'Chromium sends Sec-CH-Device-Memory itself when asked with Accept-CH; a different navigator.deviceMemory in the page means the page value was overridden.',
  ref: 'https://www.w3.org/TR/device-memory/',
  expected: 'equal',
  needs: [],
  uses: ['hardware'],
  judge: ({ hardware }, { server }) => {
    const dmHeader = header(server, 'sec-ch-device-memory') ?? header(server, 'device-memory')
    if (dmHeader === undefined) return na('the browser sent no Device-Memory hint (Chromium only, after Accept-CH)')
    const deviceMemory = hardware?.value.deviceMemory ?? null
    if (deviceMemory === null) return na('no navigator.deviceMemory')
    return { verdict: Number(dmHeader) === deviceMemory ? 'pass' : 'fail', observed: { header: dmHeader, deviceMemory } }
  },
})

export const fpLanguage = hintCheck({
  id: 'fp-language',
  name: 'Languages agree with Accept-Language',
  found: 'languages differ from Accept-Language',
  source: 'server',
  why: 'The Accept-Language header is built from the same preference list as navigator.languages; its first language should be the page’s first. A different primary language means one of them was spoofed (language-switcher extensions, automation flags).',
  expected: 'the same first language in the header and the page',
  needs: ['languages'],
  judge: ({ languages: { value: langs } }, { server }) => {
    const accept = header(server, 'accept-language')
    const problems: string[] = []
    const top = langs.languages[0]
    if (top && top !== langs.language) problems.push(`navigator.language "${langs.language}" is not languages[0] "${top}"`)
    let verdict: 'pass' | 'warn' | 'fail' = 'pass'
    const fromHeader = accept ? firstAcceptLanguage(accept) : null
    if (fromHeader && top) {
      const primary = (t: string) => t.toLowerCase().split('-')[0]
      if (primary(fromHeader) !== primary(top)) problems.push(`Accept-Language starts with "${fromHeader}", the page with "${top}"`)
      // The same language in another region ("de" against "de-DE") is a settings detail.
      else if (fromHeader.toLowerCase() !== top.toLowerCase()) verdict = 'warn'
    }
    if (problems.length) verdict = 'fail'
    return { verdict, observed: problems.length ? problems.join('; ') : { acceptLanguage: accept ?? null, languages: langs.languages } }
  },
})

export const fpMediaHints = hintCheck({
  id: 'fp-media-hints',
  name: 'Colour-scheme and motion hints agree with CSS',
  found: 'colour-scheme or motion hints contradict CSS',
  source: 'server',
  why: 'Chromium sends Sec-CH-Prefers-Color-Scheme and Sec-CH-Prefers-Reduced-Motion from the same settings that CSS media queries read in the page; they disagree only when one is emulated (DevTools/CDP emulation of one target).',
  ref: 'https://wicg.github.io/user-preference-media-features-headers/',
  expected: 'hints equal to the CSS media features',
  needs: ['media'],
  judge: ({ media: { value: media } }, { server }) => {
    const hintScheme = header(server, 'sec-ch-prefers-color-scheme')
    const hintMotion = header(server, 'sec-ch-prefers-reduced-motion')
    if (hintScheme === undefined && hintMotion === undefined) return na('no Sec-CH-Prefers-* hints (Chromium only, after Accept-CH)')
    const problems: string[] = []
    if (hintScheme !== undefined && media.colorScheme && hintScheme.replace(/"/g, '') !== media.colorScheme) problems.push(`color scheme: hint ${hintScheme}, CSS ${media.colorScheme}`)
    if (hintMotion !== undefined && media.reducedMotion && hintMotion.replace(/"/g, '') !== media.reducedMotion) problems.push(`reduced motion: hint ${hintMotion}, CSS ${media.reducedMotion}`)
    return { verdict: problems.length ? 'fail' : 'pass', observed: problems.length ? problems.join('; ') : { colorScheme: media.colorScheme, reducedMotion: media.reducedMotion } }
  },
})
