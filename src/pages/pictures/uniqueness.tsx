// How identifying this browser is (issue 48, src/core/uniqueness.ts): the whole fingerprint as
// one in N, then each attribute's bits as a bar, the rarest first, among the distinct browsers
// this service saw in the window. Small populations are said to be not yet meaningful, and a
// value fewer than k browsers have is "fewer than k", never a count.

import type { AttributeFigure, Figure, Uniqueness } from '../../core/uniqueness'

const int = (n: number) => Math.round(n).toLocaleString('en-US')
const pct = (share: number) => `${(share * 100).toFixed(share < 0.001 ? 3 : share < 0.1 ? 2 : 1)} %`

function browsersText(f: Figure, k: number): string {
  return f.rare ? `fewer than ${k}` : int(f.browsers ?? 0)
}
function shareText(f: Figure): string {
  return f.rare ? `at most ${pct(f.share)}` : pct(f.share)
}
function oneInText(f: Figure): string {
  return f.rare ? `more than ${int(Math.floor(f.oneIn))}` : f.oneIn < 10 ? f.oneIn.toFixed(1) : int(f.oneIn)
}
function bitsText(f: Figure): string {
  return `${f.rare ? '≥ ' : ''}${f.bits.toFixed(2)}`
}

const COLUMNS = ['Attribute', 'Value', 'Browsers with it', 'Share', 'One in', 'Bits'] as const

export function UniquenessPicture(props: { u: Uniqueness; whole: string }): JSX.Element {
  const { u } = props
  const most = Math.max(Math.log2(u.population), 1)
  const f = u.fingerprint
  // browser-fingerprint's results keep only hashes: no value column then.
  const values = u.attributes.some((a) => a.shown !== null)
  const columns = COLUMNS.filter((c) => values || c !== 'Value')
  const whole = f.rare
    ? `${props.whole} is shared by fewer than ${u.k} of them: one in more than ${int(Math.floor(f.oneIn))} (at least ${f.bits.toFixed(2)} bits).`
    : `${props.whole} is shared by ${int(f.browsers ?? 0)} of them: one in ${oneInText(f)} (${f.bits.toFixed(2)} bits).`
  return (
    <figure class="picture uniqueness" data-picture="uniqueness" data-population={String(u.population)} data-meaningful={String(u.meaningful)}>
      <h2 class="uniqueness-title">How identifying this browser is</h2>
      <p data-uniqueness-whole safe>
        {`Among ${int(u.population)} browser${u.population === 1 ? '' : 's'} this service saw in the last ${u.windowDays} days (yours included), ${whole}`}
      </p>
      {u.meaningful ? (
        ''
      ) : (
        <p class="uniqueness-small" data-uniqueness-small safe>
          {`Not yet meaningful: only ${int(u.population)} browser${u.population === 1 ? '' : 's'} so far, and these figures need at least ${int(u.minimumPopulation)} to say much.`}
        </p>
      )}
      <table class="uniqueness-table">
        <caption class="muted">Each attribute, the rarest first: the fewer browsers share a value, the more bits it gives away.</caption>
        <thead>
          <tr>
            {columns.map((c) => (
              <th scope="col">{c}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {u.attributes.map((a: AttributeFigure) => (
            <tr data-attribute={a.name} data-rare={String(a.rare)}>
              <th scope="row" data-label={COLUMNS[0]} safe>
                {a.label}
              </th>
              {values ? (
                <td data-label={COLUMNS[1]}>
                  <code safe>{a.shown ?? '—'}</code>
                </td>
              ) : (
                ''
              )}
              <td data-label={COLUMNS[2]} safe>
                {browsersText(a, u.k)}
              </td>
              <td data-label={COLUMNS[3]} safe>
                {shareText(a)}
              </td>
              <td data-label={COLUMNS[4]} safe>
                {oneInText(a)}
              </td>
              <td data-label={COLUMNS[5]} class="bits-cell">
                <span class="bits-bar" style={`width:${Math.min(100, Math.round((a.bits / most) * 100))}%`} aria-hidden="true" />
                <span class="bits-value" safe>
                  {bitsText(a)}
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <figcaption class="muted" safe>
        {`Distinct browsers: one per network and combination of values, so reloading counts once. A value fewer than ${u.k} browsers have is shown as “fewer than ${u.k}”, never a count. One network range (IPv4 /24, IPv6 /48) adds at most ${u.perRange} browsers to these figures in ${u.windowDays} days${u.browser === 'not counted: its range is full' ? '; yours reached that, so this browser is in your figures but not counted for others' : ''}.`}
      </figcaption>
    </figure>
  )
}
