// Reads a source twice and keeps the second value only when it differs. A real browser gives
// the same canvas pixels, audio samples and navigator values on every read within a page;
// noise-based anti-fingerprinting (Safari 17+, Firefox's canvas randomisation, extensions)
// does not, and must be reported as such rather than hashed as if it were stable.
// Session-seeded farbling (Brave) is stable within a page: known-answer tests catch that.

import { canonicalJson } from '../../common/hash'
import type { Source } from '../core/collect'

export interface TwiceRead<T> {
  value: T
  /** Present only when the second read differed from the first. */
  again?: T
}

export function readTwice<T>(source: Source<T>): () => Promise<TwiceRead<T>> {
  return async () => {
    const value = await source()
    const again = await source()
    return canonicalJson(value) === canonicalJson(again) ? { value } : { value, again }
  }
}
