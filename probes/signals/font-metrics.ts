// Installed fonts by text metrics, measured inside a same-origin iframe: a string set in
// "<font>, <generic>" keeps the generic family's size unless <font> exists, tried against
// monospace, sans-serif and serif (Lalit Patel's method, as in FingerprintJS
// src/sources/font_preferences.ts and fonts.ts). The iframe keeps the page's CSS out and gives
// a second realm: a patch applied to the page's offsetWidth/getBoundingClientRect but not to a
// fresh about:blank frame shows up as a disagreement between the two.
// Known answers catch noise instead of trusting it: a random family name that cannot exist
// must measure exactly like its fallback, and the same span measured twice, and through both
// offsetWidth and getBoundingClientRect, must agree. Noise-injecting extensions
// ("Font Fingerprint Defender" and the like) fail these; Brave instead hides a per-site random
// subset of fonts (https://github.com/brave/brave-browser/issues/34043), which no single visit
// can see, and Firefox resistFingerprinting exposes only an allowlist: both give short lists.

import type { FontMetrics } from '../../common/signals/font-detection'
import { ProbeError } from '../core/probe-error'

const BASES = ['monospace', 'sans-serif', 'serif'] as const
// Wide and narrow glyphs, so that families of similar average width still differ somewhere.
const TEXT = 'mmMwWLliI0O&1@%'
// `all: initial` drops whatever the document styles spans with (the page's letter-spacing,
// text-rendering, font features) so both realms lay the text out the same way.
const SPAN = 'all:initial;position:absolute;left:0;top:0;white-space:pre;font-size:48px;line-height:normal'

type Size = [number, number]

const quote = (family: string) => `"${family.replace(/["\\]/g, '')}"`

function measure(doc: Document, families: readonly string[]) {
  const box = doc.createElement('div')
  box.style.cssText = 'all:initial;position:absolute;left:-9999px;top:0;visibility:hidden'
  const span = (family: string) => {
    const s = doc.createElement('span')
    s.style.cssText = SPAN
    s.style.fontFamily = family
    s.textContent = TEXT
    box.appendChild(s)
    return s
  }
  const base = BASES.map(span)
  const again = BASES.map(span)
  const spans = families.map((f) => BASES.map((b) => span(`${quote(f)},${b}`)))
  ;(doc.body ?? doc.documentElement).appendChild(box)
  try {
    const rect = (s: HTMLElement): Size => {
      const r = s.getBoundingClientRect()
      return [r.width, r.height]
    }
    const baseSizes = base.map(rect)
    const same = (a: Size, b: Size) => a[0] === b[0] && a[1] === b[1]
    const stable = again.every((s, i) => same(rect(s), baseSizes[i]!))
    const offsetAgrees = base.every((s, i) => Math.abs(s.offsetWidth - baseSizes[i]![0]) <= 1.5 && Math.abs(s.offsetHeight - baseSizes[i]![1]) <= 1.5)
    const present = families.map((_, i) => spans[i]!.some((s, j) => !same(rect(s), baseSizes[j]!)))
    return { baseSizes, stable, offsetAgrees, present }
  } finally {
    box.remove()
  }
}

function frameDocument(): { doc: Document; done: () => void } | null {
  const iframe = document.createElement('iframe')
  iframe.setAttribute('aria-hidden', 'true')
  iframe.tabIndex = -1
  iframe.style.cssText = 'position:absolute;left:-9999px;top:0;width:10px;height:10px;border:0;visibility:hidden'
  document.body.appendChild(iframe)
  // The initial about:blank document is same-origin and usable synchronously in every engine.
  const doc = iframe.contentDocument
  if (!doc) {
    iframe.remove()
    return null
  }
  if (!doc.body) doc.documentElement.appendChild(doc.createElement('body'))
  return { doc, done: () => iframe.remove() }
}

const round = (n: number) => Math.round(n * 100) / 100

export function fontMetrics(candidates: readonly string[]): FontMetrics {
  if (!document.body) throw new ProbeError('unsupported', 'no document body to measure text in')
  const control = `xq${Math.random().toString(36).slice(2, 10)}zz`
  const families = [...candidates, control]
  const frame = frameDocument()
  const inFrame = measure(frame?.doc ?? document, families)
  frame?.done()
  let mainFrameAgrees: boolean | null = null
  if (frame) {
    const main = measure(document, [])
    mainFrameAgrees = main.baseSizes.every((s, i) => Math.abs(s[0] - inFrame.baseSizes[i]![0]) < 0.5 && Math.abs(s[1] - inFrame.baseSizes[i]![1]) < 0.5)
  }
  const bases = {} as FontMetrics['bases']
  for (const [i, b] of BASES.entries()) bases[b] = inFrame.baseSizes[i]!.map(round) as Size
  return {
    detected: candidates.filter((_, i) => inFrame.present[i]),
    tested: candidates.length,
    bases,
    controlDetected: inFrame.present[families.length - 1]!,
    stable: inFrame.stable,
    offsetAgrees: inFrame.offsetAgrees,
    mainFrameAgrees,
    frame: frame ? 'iframe' : 'main',
  }
}
