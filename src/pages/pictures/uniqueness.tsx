// How identifying this browser is (issue 48, src/core/uniqueness.ts): the whole fingerprint as
// one in N, then each attribute's bits as a bar, the rarest first, among the distinct browsers
// this service saw in the window. Small populations are said to be not yet meaningful, and a
// value fewer than k browsers have is "fewer than k", never a count. Each figure says where it
// comes from (issue 59): the reference dataset (its name, size and date), this service's own
// browsers, or both blended.

import { plainText } from '../plain-words'
import type { AttributeFigure, Figure, ReferenceUsed, SourcedFigure, Uniqueness } from '../../core/uniqueness'

const int = (n: number) => Math.round(n).toLocaleString('en-US')
const pct = (share: number) => `${(share * 100).toFixed(share < 0.001 ? 3 : share < 0.1 ? 2 : 1)} %`

function browsersText(f: Figure, k: number): string {
  return f.rare ? `fewer than ${k}` : int(f.browsers ?? 0)
}
/** The figures are bounds: `bound` since issue 59, `rare` on figures stored before it. */
const isBound = (f: SourcedFigure) => f.bound ?? f.rare
function shareText(f: SourcedFigure): string {
  return isBound(f) ? `at most ${pct(f.share)}` : pct(f.share)
}
function oneInText(f: SourcedFigure): string {
  return isBound(f) ? `more than ${int(Math.floor(f.oneIn))}` : f.oneIn < 10 ? f.oneIn.toFixed(1) : int(f.oneIn)
}
function bitsText(f: SourcedFigure): string {
  return `${isBound(f) ? '≥ ' : ''}${f.bits.toFixed(2)}`
}

/** "Screen size" → "screen size", but "CPU cores" and "WebGL vendor" stay as they are. */
const lowerFirst = (label: string) => (/^[A-Z][a-z]*(\s|$)/.test(label) ? label[0]!.toLowerCase() + label.slice(1) : label)
const dataset = (r: ReferenceUsed) => `the ${r.name} ${r.version} dataset`
const here = (u: Uniqueness) => `this service's ${int(u.population)} browser${u.population === 1 ? '' : 's'}`

/** Where a row's figures come from, in words. */
function fromText(f: SourcedFigure, u: Uniqueness): string {
  const r = u.reference
  if (!r || !f.inReference || f.source === undefined) return r ? `${here(u)} (not in the dataset)` : here(u)
  if (f.source === 'reference') return `${r.name} (${int(r.fingerprints)} real browsers)`
  if (f.source === 'blended') return `both: ${r.name} and ${here(u)} (${Math.round(r.instanceWeight * 100)} %)`
  return `${here(u)} (enough to replace the dataset)`
}

/** The whole fingerprint's sentence: where its one in N comes from, then the figure. */
function wholeText(u: Uniqueness, what: string): string {
  const f = u.fingerprint
  const r = u.reference
  const saw = `${int(u.population)} browser${u.population === 1 ? '' : 's'} this service saw in the last ${u.windowDays} days (yours included)`
  const figure = isBound(f) ? `one in more than ${int(Math.floor(f.oneIn))} (at least ${f.bits.toFixed(2)} bits)` : `one in ${oneInText(f)} (${f.bits.toFixed(2)} bits)`
  if (r && f.inReference && (f.source === 'reference' || f.source === 'blended')) {
    const covers = f.covered && f.covered.length < u.attributes.length ? `, as far as the dataset covers it (${u.attributes.filter((a) => f.covered?.includes(a.name)).map((a) => lowerFirst(a.label)).join(', ')}),` : ''
    const among = f.source === 'reference' ? `Among the ${int(r.fingerprints)} real browsers of ${dataset(r)} (${r.date})` : `Blending the ${int(r.fingerprints)} real browsers of ${dataset(r)} (${r.date}) with the ${saw}, which weigh ${Math.round(r.instanceWeight * 100)} %`
    const rest = f.covered ? u.attributes.length - f.covered.length : 0
    const others = rest > 0 ? ` The other ${rest} attribute${rest === 1 ? '' : 's'} would make it rarer; only ${here(u)} ${u.population === 1 ? 'has' : 'have'} ${rest === 1 ? 'it' : 'them'}.` : ''
    return `${among}, ${what}${covers} is shared by ${figure}.${others}`
  }
  const shared = f.rare ? `is shared by fewer than ${u.k} of them: ${figure}.` : `is shared by ${int(f.browsers ?? 0)} of them: ${figure}.`
  return `Among ${saw}, ${what} ${shared}`
}

const COLUMNS = ['Attribute', 'Value', 'Browsers here with it', 'Share', 'One in', 'Bits', 'From'] as const

export function UniquenessPicture(props: { u: Uniqueness; whole: string }): JSX.Element {
  const { u } = props
  const most = Math.max(Math.log2(u.population), 1)
  const r = u.reference
  // browser-fingerprint's results keep only hashes: no value column then.
  const values = u.attributes.some((a) => a.shown !== null)
  // Figures stored before issue 59 say nothing of their source: no "From" column then.
  const sourced = u.attributes.some((a) => a.source !== undefined)
  const columns = COLUMNS.filter((c) => (values || c !== 'Value') && (sourced || c !== 'From'))
  const fromDataset = r ? u.attributes.filter((a) => a.inReference && a.source !== 'instance').length : 0
  return (
    <figure class="picture uniqueness" data-picture="uniqueness" data-population={String(u.population)} data-meaningful={String(u.meaningful)} data-reference={r ? `${r.name}@${r.version}` : undefined}>
      <h2 class="uniqueness-title">How identifying this browser is</h2>
      <p data-uniqueness-whole safe>
        {wholeText(u, props.whole)}
      </p>
      {u.meaningful ? (
        ''
      ) : r && fromDataset ? (
        <p class="uniqueness-small" data-uniqueness-small safe>
          {`This service's own counts are not yet meaningful (only ${int(u.population)} browser${u.population === 1 ? '' : 's'} so far; they need at least ${int(u.minimumPopulation)}), so the figures from ${r.name} answer for the attributes it has; the others are this service's alone.`}
        </p>
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
            <tr data-attribute={a.name} data-rare={String(a.rare)} data-source={a.source}>
              <th scope="row" data-label={COLUMNS[0]} safe>
                {a.label}
              </th>
              {values ? (
                <td data-label={COLUMNS[1]}>
                  <code safe>{a.shown === null ? '—' : plainText(a.shown)}</code>
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
              {sourced ? (
                <td data-label={COLUMNS[6]} safe>
                  {fromText(a, u)}
                </td>
              ) : (
                ''
              )}
            </tr>
          ))}
        </tbody>
      </table>
      <figcaption class="muted" safe>
        {`Distinct browsers: one per network and combination of values, so reloading counts once. A value fewer than ${u.k} browsers have is shown as “fewer than ${u.k}”, never a count. One network range (IPv4 /24, IPv6 /48) adds at most ${u.perRange} browsers to these figures in ${u.windowDays} days${u.browser === 'not counted: its range is full' ? '; yours reached that, so this browser is in your figures but not counted for others' : ''}.${
          r
            ? ` The dataset: ${r.name} ${r.version} (${r.license}), a Bayesian network of ${int(r.fingerprints)} real browsers’ fingerprints dated ${r.date}. This service’s own counts weigh in from ${int(Math.ceil(r.weight / 9) + 1)} browsers and replace it from ${int(r.weight * 9 + 1)}; within a browser family and system it takes values as independent, which overstates how rare a combination is.`
            : ''
        }`}
      </figcaption>
    </figure>
  )
}
