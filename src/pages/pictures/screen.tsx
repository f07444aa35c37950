// screen-display's picture: the screen, its available area, the window and the viewport as
// the page measured them, to scale (src/core/pictures/screen-layout.ts), each labelled with
// its size where the label fits and listed with it under the picture; an area a tell fired on
// is outlined in the verdict's colour and the legend says what the check found.

import { type Area, type PlacedArea, screenLayout } from '../../core/pictures/screen-layout'
import { foundText } from '../../core/check-found'
import type { Check } from '../../core/scoring'
import type { ScreenMetrics, WindowMetrics } from '../../../common/signals/screen-display'

const NAMES: Record<Area, string> = { screen: 'Screen', available: 'Available area', window: 'Window', viewport: 'Viewport' }
const LABEL_AT: Record<Area, 'bottom-end' | 'bottom-start' | 'top-start' | 'middle'> = { screen: 'bottom-end', available: 'bottom-start', window: 'top-start', viewport: 'middle' }

/** 1920, 1536.5 */
export const px = (n: number) => (Number.isInteger(n) ? String(n) : String(Math.round(n * 100) / 100))
export const sizeText = (a: Pick<PlacedArea, 'width' | 'height'>) => `${px(a.width)} × ${px(a.height)}`

function Label(props: { a: PlacedArea; fs: number }): JSX.Element {
  const { a, fs } = props
  const text = `${a.area === 'available' ? 'available' : a.area} ${sizeText(a)}`
  const { x, y, width, height } = a.rect
  // Only where it fits: the legend lists every size anyway.
  if (width < text.length * fs * 0.62 || height < fs * 1.6) return ''
  const pad = fs * 0.4
  const at = LABEL_AT[a.area]
  const tx = at === 'bottom-end' ? x + width - pad : at === 'middle' ? x + width / 2 : x + pad
  const ty = at === 'top-start' ? y + fs * 1.15 : at === 'middle' ? y + height / 2 + fs * 0.35 : y + height - pad
  const anchor = at === 'bottom-end' ? 'end' : at === 'middle' ? 'middle' : 'start'
  return (
    <text class={`label label-${a.area}`} x={px(tx)} y={px(ty)} font-size={px(fs)} text-anchor={anchor} safe>
      {text}
    </text>
  )
}

export function ScreenPicture(props: { screen: ScreenMetrics; window: WindowMetrics | null; checks: readonly Check[] }): JSX.Element {
  // The legend lists a fired tell by what it found ("the window has no browser chrome"), not by its name.
  const findings = props.checks.map((c) => ({ id: c.id, verdict: c.verdict, name: foundText('screen-display', c) }))
  const layout = screenLayout(props.screen, props.window, findings)
  if (!layout) return ''
  const { box, areas } = layout
  const fs = Math.max(box.width, box.height) / 24
  const title = areas.map((a) => `${NAMES[a.area]} ${sizeText(a)}`).join(', ')
  return (
    <figure class="picture screen-picture" data-picture="screen">
      <svg viewBox={`${px(box.x)} ${px(box.y)} ${px(box.width)} ${px(box.height)}`} preserveAspectRatio="xMinYMin meet" role="img" aria-labelledby="screen-picture-title" xmlns="http://www.w3.org/2000/svg">
        <title id="screen-picture-title" safe>
          {`To scale: ${title}`}
        </title>
        {areas.map((a) => (
          <rect
            class={`area area-${a.area}${a.tell ? ` tell tell-${a.tell}` : ''}`}
            x={px(a.rect.x)}
            y={px(a.rect.y)}
            width={px(a.rect.width)}
            height={px(a.rect.height)}
            data-area={a.area}
            data-width={px(a.width)}
            data-height={px(a.height)}
            vector-effect="non-scaling-stroke"
          />
        ))}
        {areas.map((a) => (
          <Label a={a} fs={fs} />
        ))}
      </svg>
      <figcaption>
        <ul class="legend">
          {areas.map((a) => (
            <li data-area={a.area} data-size={sizeText(a)}>
              <span class={`swatch area-${a.area}${a.tell ? ` tell tell-${a.tell}` : ''}`} aria-hidden="true"></span>
              <span safe>{`${NAMES[a.area]} `}</span>
              <strong safe>{sizeText(a)}</strong>
              {a.tell ? (
                <span class={`v-${a.tell}`} safe>
                  {` — ${a.tell === 'fail' ? 'failed' : 'warned'}: ${a.tells.join('; ')}`}
                </span>
              ) : (
                ''
              )}
            </li>
          ))}
        </ul>
      </figcaption>
    </figure>
  )
}
