// font-detection's picture: each font the page found, its name written in that very font (the
// visitor's own browser renders it, so what shows is what it has), in a monospace fallback
// where a name is not among the families the page measures (which never happens for a stored
// task) so that no text from a task reaches a style rule unchecked.

import { FONT_LIST } from '../../../common/font-os'

const KNOWN: ReadonlySet<string> = new Set(FONT_LIST)
/** Family names safe inside a quoted CSS string: the page's list only, letters, digits, spaces and hyphens. */
const safeFamily = (name: string) => KNOWN.has(name) && /^[A-Za-z0-9 -]+$/.test(name)

export function FontsPicture(props: { detected: readonly string[]; tested: number; inferredOs: string | null }): JSX.Element {
  if (!props.detected.length) return ''
  return (
    <figure class="picture fonts-picture" data-picture="fonts">
      <ul class="font-samples">
        {props.detected.map((name) => (
          <li data-font={name} style={safeFamily(name) ? `font-family:"${name}",monospace` : 'font-family:monospace'} safe>
            {name}
          </li>
        ))}
      </ul>
      <figcaption class="muted" safe>
        {`${props.detected.length} of ${props.tested} fonts found, each name written in that font${props.inferredOs ? `; they point to ${props.inferredOs}` : ''}.`}
      </figcaption>
    </figure>
  )
}
