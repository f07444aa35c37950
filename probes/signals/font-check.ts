// document.fonts.check() for each candidate and for a random family that cannot exist.
// The CSS Font Loading spec makes check() true for any family that is not a not-yet-loaded
// web font, installed or not (https://drafts.csswg.org/css-font-loading/#font-face-set-check,
// https://github.com/w3c/csswg-drafts/issues/5744): Firefox and Safari always did that, and
// Chromium, which used to answer false for missing system fonts (crbug.com/591602), now does
// too. So a true for the random name is the normal answer; only a false for it shows an engine
// whose check() really tells fonts apart, and then its answers are compared with the metrics.

import type { FontCheck } from '../../common/signals/font-detection'
import { unsupported } from '../core/probe-error'

export function fontCheck(candidates: readonly string[]): FontCheck {
  const set = document.fonts
  if (!set || typeof set.check !== 'function') throw unsupported('no document.fonts.check')
  const ask = (family: string) => set.check(`16px "${family.replace(/["\\]/g, '')}"`)
  const control = ask(`xq${Math.random().toString(36).slice(2, 10)}zz`)
  return { control, absent: candidates.filter((f) => !ask(f)), tested: candidates.length }
}
