// FontFace with src local("<name>"): load() resolves only when a local font has that full or
// PostScript name (https://drafts.csswg.org/css-fonts/#local-font-fallback), which is a second,
// independent way to see installed fonts: no layout involved, and no fontconfig substitution
// (Chromium on Linux maps "Arial" to Liberation Sans in layout, but local("Arial") fails).
// A random name must fail; Brave extends its font hiding to local() since 1.44
// (https://github.com/brave/brave-browser/issues/23432). The faces are never added to
// document.fonts, so the page is not affected.

import type { FontFaceLocal } from '../../common/signals/font-detection'
import { unsupported } from '../core/probe-error'

async function loads(name: string, i: number): Promise<boolean> {
  try {
    await new FontFace(`probe-local-${i}`, `local("${name.replace(/["\\]/g, '')}")`).load()
    return true
  } catch {
    return false
  }
}

export async function fontFaceLocal(names: readonly string[]): Promise<FontFaceLocal> {
  if (typeof FontFace !== 'function') throw unsupported('no FontFace constructor')
  const control = `xq${Math.random().toString(36).slice(2, 10)}zz`
  const results = await Promise.all([...names, control].map(loads))
  return {
    loaded: names.filter((_, i) => results[i]),
    failed: names.filter((_, i) => !results[i]),
    control: results[names.length]!,
  }
}
