// The at-a-glance pictures (issue 58), drawn on the server as inline SVG from the stored
// results (geometry and sentences: src/core/pictures/glance.ts, tls-hello.ts): bot-detector's
// verdict gauge and its check groups, the address's country and network, the browser's time
// zone against the address's country, the TLS hello's parts. Each is role="img" with a <title>
// that says the same facts in words; the viewBox is 320 wide and scales to the column, so it
// reads the same on a 360 px phone and on a desktop. Colours are the page's own (app.css).

import type { Children } from '@kitajs/html'
import { GLANCE_WIDTH, type NetworkCard, type VerdictGauge, type ZoneBand, wrapText } from '../../core/pictures/glance'
import type { TlsHello } from '../../core/pictures/tls-hello'

const W = GLANCE_WIDTH

function Svg(props: { id: string; height: number; says: string; children?: Children }): JSX.Element {
  const { children } = props
  return (
    <svg viewBox={`0 0 ${W} ${props.height}`} role="img" aria-labelledby={`${props.id}-title`} xmlns="http://www.w3.org/2000/svg">
      <title id={`${props.id}-title`} safe>
        {props.says}
      </title>
      {children}
    </svg>
  )
}

/** A label kept inside the picture: anchored at its start near the left edge, its end near the right one. */
function anchorAt(x: number, width: number): { x: number; anchor: 'start' | 'middle' | 'end' } {
  if (x - width / 2 < 4) return { x: Math.max(4, x - 6), anchor: 'start' }
  if (x + width / 2 > W - 4) return { x: Math.min(W - 4, x + 6), anchor: 'end' }
  return { x, anchor: 'middle' }
}

const textWidth = (text: string) => text.length * 7

export function VerdictGaugePicture(props: { g: VerdictGauge }): JSX.Element {
  const { g } = props
  const rowsTop = 78
  const height = rowsTop + g.groups.length * 50 - 8
  return (
    <figure class="picture glance" data-picture="verdict" data-score={String(g.score)} data-verdict={g.word}>
      <Svg id="verdict-picture" height={height} says={g.says}>
        <text x="8" y="18" class="g-big" safe>{`Verdict: ${g.word}`}</text>
        <text x={W - 8} y="18" text-anchor="end" class="g-big" safe>{`${g.score} / 100`}</text>
        {g.bands.map((b) => (
          <rect class={`g-${b.verdict} g-band`} x={b.x} y="28" width={b.width} height="14" />
        ))}
        <path class="g-marker" d={`M${g.at - 6} 22 L${g.at + 6} 22 L${g.at} 29 Z`} />
        <rect class="g-marker" x={g.at - 1.5} y="26" width="3" height="20" />
        {g.bands.map((b) => (
          <text x={Math.round(b.x + b.width / 2)} y="58" text-anchor="middle" class="g-small" safe>
            {b.label === 'bot' ? 'bot 0–40' : b.label === 'person' ? 'person 80+' : b.label}
          </text>
        ))}
        {g.groups.map((row, i) => {
          const y = rowsTop + i * 50
          return (
            <g data-group={row.title} data-fail={String(row.fail)} data-warn={String(row.warn)} data-pass={String(row.pass)}>
              <text x="8" y={y} class="g-label" safe>
                {row.title}
              </text>
              <rect class="g-track" x="8" y={y + 5} width={W - 16} height="10" />
              {row.segments.map((s) => (
                <rect class={`g-${s.verdict}`} x={s.x} y={y + 5} width={s.width} height="10" data-verdict={s.verdict} data-count={String(s.count)} />
              ))}
              <text x="8" y={y + 28} class="g-small g-muted" safe>
                {row.text}
              </text>
            </g>
          )
        })}
      </Svg>
    </figure>
  )
}

export function NetworkCardPicture(props: { c: NetworkCard }): JSX.Element {
  const { c } = props
  const left = 88
  const lines: Array<{ text: string; cls: string }> = [
    { text: 'Address', cls: 'g-small g-muted' },
    ...wrapText(c.address, 34, 2).map((text) => ({ text, cls: 'g-mono' })),
    { text: 'Country', cls: 'g-small g-muted' },
    ...wrapText(c.country, 28, 2).map((text) => ({ text, cls: 'g-big' })),
    { text: 'Network', cls: 'g-small g-muted' },
    ...wrapText(c.network, 32, 2).map((text) => ({ text, cls: 'g-label' })),
    ...wrapText(c.kind, 38, 3).map((text) => ({ text, cls: 'g-small' })),
  ]
  const height = Math.max(124, 10 + lines.length * 16)
  return (
    <figure class="picture glance" data-picture="network" data-country={c.code ?? ''} data-network={c.network}>
      <Svg id="network-picture" height={height} says={c.says}>
        <rect class="g-box" x="1" y="1" width={W - 2} height={height - 2} rx="8" />
        <g class="g-globe">
          <circle cx="44" cy="46" r="30" />
          <ellipse cx="44" cy="46" rx="13" ry="30" />
          <path d="M14 46 H74 M18 31 H70 M18 61 H70 M44 16 V76" />
        </g>
        <rect class={c.code ? 'g-code' : 'g-code g-code-none'} x="14" y="86" width="60" height="24" rx="4" />
        <text x="44" y="103" text-anchor="middle" class="g-big g-code-text" safe>
          {c.code ?? '—'}
        </text>
        {lines.map((l, i) => (
          <text x={left} y={20 + i * 16} class={l.cls} safe>
            {l.text}
          </text>
        ))}
      </Svg>
    </figure>
  )
}

export function ZoneBandPicture(props: { z: ZoneBand; fit: 'pass' | 'warn' | 'fail' | 'na' }): JSX.Element {
  const { z } = props
  const axisY = 64
  const bx = z.browser.x
  const browserLines = [`This browser: ${z.browser.offset ?? 'not measured'}`, z.browser.zone ?? '']
  const c = z.country
  const countryLines = c ? [`The address’s country: ${c.name}`, c.offsets.length === 1 ? c.offsets[0]!.label : `${c.offsets[0]!.label} to ${c.offsets.at(-1)!.label}`] : ['The address’s country: not known']
  const cx = c ? (c.offsets[0]!.x + c.offsets.at(-1)!.x) / 2 : W / 2
  const at = (x: number, lines: string[]) => anchorAt(x, Math.max(...lines.map(textWidth)))
  const ba = at(bx ?? W / 2, browserLines)
  const ca = at(cx, countryLines)
  const verdictText = !c || props.fit === 'na' ? 'No expected zone to compare with.' : props.fit === 'pass' ? 'The zone fits the address’s country.' : props.fit === 'warn' ? 'The zone fits; the languages do not.' : 'The zone does not fit the address’s country.'
  return (
    <figure class="picture glance" data-picture="zone" data-browser-offset={z.browser.offset ?? ''} data-country={c?.code ?? ''} data-fits={c ? String(c.fits) : ''}>
      <Svg id="zone-picture" height={140} says={z.says}>
        {browserLines.map((l, i) => (
          <text x={ba.x} y={14 + i * 14} text-anchor={ba.anchor} class={i ? 'g-small g-muted' : 'g-label'} safe>
            {l}
          </text>
        ))}
        <rect class="g-track" x="14" y={axisY - 3} width={W - 28} height="6" />
        {c ? <rect class="g-country" x={c.offsets[0]!.x - 3} y={axisY - 8} width={c.offsets.at(-1)!.x - c.offsets[0]!.x + 6} height="16" rx="3" /> : ''}
        {c ? c.offsets.map((o) => <rect class="g-country-tick" x={o.x - 1} y={axisY - 8} width="2" height="16" data-offset={o.label} />) : ''}
        {z.ticks.map((t) => (
          <>
            <rect class="g-tick" x={t.x - 0.5} y={axisY + 4} width="1" height="5" />
            <text x={t.x} y={axisY + 20} text-anchor="middle" class="g-small g-muted" safe>
              {t.label}
            </text>
          </>
        ))}
        {bx !== null ? (
          <>
            <rect class="g-marker" x={bx - 1} y="34" width="2" height={axisY - 34} />
            <circle class={`g-dot g-${c ? (c.fits ? 'pass' : 'fail') : 'na'}`} cx={bx} cy={axisY} r="6" />
          </>
        ) : (
          ''
        )}
        {countryLines.map((l, i) => (
          <text x={ca.x} y={axisY + 40 + i * 14} text-anchor={ca.anchor} class={i ? 'g-small g-muted' : 'g-label'} safe>
            {l}
          </text>
        ))}
        <text x="14" y="134" class="g-small">
          {verdictText}
        </text>
      </Svg>
    </figure>
  )
}

export function TlsHelloPicture(props: { t: TlsHello }): JSX.Element {
  const { t } = props
  const boxes = [
    { x: 4, w: 90 },
    { x: 104, w: 104 },
    { x: 216, w: 100 },
  ]
  const listTop = 76
  const rows = [...t.fields.map((f) => ({ key: f.text, means: f.means, part: 'a' })), { key: 'b', means: t.parts[1]!.means, part: 'b' }, { key: 'c', means: t.parts[2]!.means, part: 'c' }]
  const badgesY = listTop + rows.length * 19 + 6
  const grease = t.grease === null ? 'GREASE: not visible' : t.grease ? 'GREASE: present' : 'GREASE: none'
  const alpn = `ALPN: ${t.alpn?.length ? t.alpn.join(', ') : 'none seen'}`
  return (
    <figure class="picture glance" data-picture="tls-hello" data-ja4={t.ja4} data-grease={t.grease === null ? '' : String(t.grease)} data-alpn={t.alpn?.join(',') ?? ''}>
      <Svg id="tls-hello-picture" height={badgesY + 30} says={t.says}>
        {t.parts.map((p, i) => (
          <g data-part={p.part}>
            <text x={boxes[i]!.x + 4} y="12" class="g-small g-muted" safe>
              {`part ${p.part}`}
            </text>
            <rect class={`g-part g-part-${p.part}`} x={boxes[i]!.x} y="18" width={boxes[i]!.w} height="26" rx="4" />
            <text x={boxes[i]!.x + boxes[i]!.w / 2} y="35" text-anchor="middle" class="g-mono" safe>
              {p.text}
            </text>
          </g>
        ))}
        <text x="99" y="35" text-anchor="middle" class="g-mono g-muted">_</text>
        <text x="212" y="35" text-anchor="middle" class="g-mono g-muted">_</text>
        <text x="4" y={listTop - 10} class="g-label">What each part says</text>
        {rows.map((r, i) => (
          <g data-field={r.key}>
            <rect class={`g-part g-part-${r.part}`} x="4" y={listTop + i * 19} width="30" height="16" rx="3" />
            <text x="19" y={listTop + i * 19 + 12} text-anchor="middle" class="g-mono g-small" safe>
              {r.key}
            </text>
            <text x="40" y={listTop + i * 19 + 12} class="g-small" safe>
              {wrapText(r.means, 52, 1)[0] ?? ''}
            </text>
          </g>
        ))}
        <rect class={`g-badge g-badge-${t.grease === null ? 'na' : 'seen'}`} x="4" y={badgesY} width="128" height="22" rx="11" />
        <text x="68" y={badgesY + 15} text-anchor="middle" class="g-small">
          {grease}
        </text>
        <rect class="g-badge g-badge-seen" x="140" y={badgesY} width="176" height="22" rx="11" />
        <text x="228" y={badgesY + 15} text-anchor="middle" class="g-small" safe>
          {wrapText(alpn, 34, 1)[0] ?? ''}
        </text>
      </Svg>
    </figure>
  )
}
