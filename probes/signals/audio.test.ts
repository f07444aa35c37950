import { expect, test } from 'bun:test'
import { PLOT_BANDS, PLOT_ENVELOPE, PLOT_SAMPLES } from '../../common/signals/audio-fingerprint'
import { audioPlot } from './audio'

const RATE = 44100

test('the plot keeps the samples from frame 4500, the envelope of the render and its spectrum', () => {
  // A 10 kHz sine that fades in over the first 1000 frames, as a compressor's attack would shape it.
  const data = new Float32Array(5000)
  for (let i = 0; i < data.length; i++) data[i] = Math.min(1, i / 1000) * 0.5 * Math.sin((2 * Math.PI * 10000 * i) / RATE)
  const plot = audioPlot(data, RATE)
  expect(plot.from).toBe(4500)
  expect(plot.samples).toHaveLength(PLOT_SAMPLES)
  expect(plot.samples[1]).toBeCloseTo(data[4501]!, 4)
  expect(plot.envelope).toHaveLength(PLOT_ENVELOPE)
  expect(plot.envelope[0]!).toBeLessThan(0.1)
  expect(plot.envelope.at(-1)!).toBeCloseTo(0.5, 1)
  expect(plot.spectrum).toHaveLength(PLOT_BANDS)
  // 10 kHz is bin 116 of 512 at 44.1 kHz: band 29 of 64, at about -6 dB (amplitude 0.5).
  const peak = plot.spectrum.indexOf(Math.max(...plot.spectrum))
  expect(peak).toBe(29)
  expect(plot.spectrum[peak]!).toBeGreaterThan(-8)
  expect(plot.spectrum[peak]!).toBeLessThan(-5)
  expect(Math.min(...plot.spectrum)).toBeGreaterThanOrEqual(-120)
})
