// Long values in the reports (user agents, header lists, dotted names, hashes) wrap at sensible
// points instead of mid-word (`navigator.w` / `ebdriver`): a <wbr> after punctuation in every
// long token, and every 16 characters in a long run of letters and digits (a hash), where any
// point is as good as another. CSS `overflow-wrap: anywhere` (app.css) stays the last resort
// for a piece that still does not fit.

import { escapeHtml } from '@kitajs/html'

/** Tokens shorter than this are left alone: they fit any line. */
const LONG_TOKEN = 14
/** A run of letters and digits longer than this gets a break point every CHUNK characters. */
const LONG_RUN = 24
const CHUNK = 16

/**
 * The pieces of `text` between break opportunities. Joined, they give `text` back. A break
 * opportunity comes after `. , ; : / = & ? ) ] }` and `_` inside a long token, and every 16
 * characters of a long run of letters and digits that holds a digit (a hash, an id; not a
 * long word such as getOwnPropertyDescriptor, which breaks only as the last resort).
 */
export function breakPoints(text: string): string[] {
  const out: string[] = []
  let piece = ''
  for (const token of text.split(/(\s+)/)) {
    if (token.length < LONG_TOKEN) {
      piece += token
      continue
    }
    for (const seg of token.split(/(?<=[.,;:/=&?)\]}_])/)) {
      if (seg.length > LONG_RUN && /\d/.test(seg)) {
        for (let i = 0; i < seg.length; i += CHUNK) {
          piece += seg.slice(i, i + CHUNK)
          if (i + CHUNK < seg.length) {
            out.push(piece)
            piece = ''
          }
        }
      } else piece += seg
      if (/[.,;:/=&?)\]}_]$/.test(seg)) {
        out.push(piece)
        piece = ''
      }
    }
  }
  out.push(piece)
  return out.filter((p, i) => p !== '' || i === 0)
}

/** `text`, escaped, with a <wbr> at each of its break points. */
export function Breakable(props: { text: string }): JSX.Element {
  return breakPoints(props.text)
    .map((p) => escapeHtml(p))
    .join('<wbr>')
}
