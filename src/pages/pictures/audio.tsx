// audio-fingerprint's picture: the signal the page rendered (the plot it sent with the sum,
// probes/signals/audio.ts): the samples at the start of the window the FingerprintJS sum adds
// up, the envelope of the whole render (the compressor's attack), and the spectrum of its end.

import type { AudioPlot } from '../../../common/signals/audio-fingerprint'
import { type PlotBox, polylinePoints, yOf } from '../../core/pictures/plot'

const W = 300
const H = 90

function Chart(props: { id: string; title: string; caption: string; values: readonly number[]; box: PlotBox; axis: [string, string]; zero?: boolean }): JSX.Element {
  const { id, box } = props
  return (
    <figure class="plot" data-plot={id} data-points={String(props.values.length)}>
      <svg viewBox={`0 0 ${W} ${H}`} width={String(W)} height={String(H)} role="img" aria-labelledby={`plot-${id}-title`} xmlns="http://www.w3.org/2000/svg">
        <title id={`plot-${id}-title`} safe>
          {props.title}
        </title>
        <rect class="plot-bg" x="0" y="0" width={String(W)} height={String(H)} />
        {props.zero ? <line class="plot-zero" x1="0" x2={String(W)} y1={String(yOf(0, box))} y2={String(yOf(0, box))} /> : ''}
        <polyline class="plot-line" points={polylinePoints(props.values, box)} />
      </svg>
      <figcaption>
        <strong safe>{props.caption}</strong>
        <span class="muted plot-axis" safe>
          {`${props.axis[0]} → ${props.axis[1]}`}
        </span>
      </figcaption>
    </figure>
  )
}

export function AudioPicture(props: { plot: AudioPlot }): JSX.Element {
  const { plot } = props
  const last = plot.from + plot.samples.length - 1
  const peak = Math.max(1e-6, ...plot.samples.map(Math.abs), ...plot.envelope)
  const nyquist = Math.round(plot.sampleRate / 2 / 100) / 10
  return (
    <div class="picture plots" data-picture="audio">
      <Chart id="samples" title={`Rendered samples ${plot.from} to ${last}`} caption="Signal" values={plot.samples} box={{ width: W, height: H, min: -peak, max: peak }} axis={[`frame ${plot.from}`, `${last}`]} zero />
      <Chart id="envelope" title="Peak level over the whole render" caption="Envelope" values={plot.envelope} box={{ width: W, height: H, min: 0, max: peak }} axis={['frame 0', 'the end']} />
      <Chart id="spectrum" title={`Spectrum of the last 512 frames, 0 to ${nyquist} kHz, in dB`} caption="Spectrum" values={plot.spectrum} box={{ width: W, height: H, min: -120, max: 0 }} axis={['0 Hz', `${nyquist} kHz (−120…0 dB)`]} />
    </div>
  )
}
