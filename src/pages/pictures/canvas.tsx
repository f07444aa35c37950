// canvas-fingerprint's pictures: the 2D drawing and the WebGL render as this browser drew them
// (the small copies the page sent, probes/signals/canvas-picture.ts), each beside its hash,
// and, where the second read differed, the pixels that changed marked over the drawing.

import type { CanvasPicture } from '../../../common/signals/canvas-fingerprint'

export interface Drawing {
  /** "2D canvas", "WebGL render". */
  title: string
  alt: string
  picture: CanvasPicture | undefined
  /** The hash of the exact pixels (the first read), and what the task keeps as the identity (null when noised). */
  hash: string | null
  /** How wide to show it, in CSS pixels (the WebGL render is 32 px: shown larger, pixel for pixel). */
  showWidth: number
  pixelated?: boolean
}

function Figure(props: { d: Drawing; id: string }): JSX.Element {
  const { d, id } = props
  const p = d.picture
  const w = d.showWidth
  const h = p?.width ? Math.round((w * p.height) / p.width) : w
  const noise = p?.noise
  const total = p ? p.width * p.height : 0
  return (
    <figure class="drawing" data-picture={id} data-hash={d.hash ?? ''}>
      <div class={`drawing-frame${d.pixelated ? ' pixelated' : ''}`} style={`width:${w}px;max-width:100%;aspect-ratio:${p?.width ?? 1}/${p?.height ?? 1}`}>
        {p?.image ? <img src={p.image} alt={d.alt} width={String(w)} height={String(h)} /> : <span class="muted">No picture: the drawing could not be read, or its copy was too large to keep.</span>}
        {noise?.mask ? <img class="noise-mask" src={noise.mask} alt={`The ${noise.pixels} pixels that read back differently the second time, in magenta`} width={String(w)} height={String(h)} /> : ''}
      </div>
      <figcaption>
        <strong safe>{d.title}</strong>
        <div>
          {'Hash '}
          <code safe>{d.hash ?? 'none'}</code>
        </div>
        {noise ? (
          <div class="v-warn" data-noise={String(noise.pixels)} safe>
            {`Read twice, ${noise.pixels} of ${total} pixels differed (by up to ${noise.maxDelta} in a channel): noise added to the read-back, marked in magenta.`}
          </div>
        ) : p ? (
          <div class="muted">Read twice: the same pixels both times.</div>
        ) : (
          ''
        )}
      </figcaption>
    </figure>
  )
}

export function CanvasPictures(props: { drawings: readonly Drawing[] }): JSX.Element {
  if (!props.drawings.some((d) => d.picture)) return ''
  return (
    <div class="picture drawings" data-picture="canvas">
      {props.drawings.map((d, i) => (
        <Figure d={d} id={i === 0 ? 'canvas-2d' : 'webgl'} />
      ))}
    </div>
  )
}
