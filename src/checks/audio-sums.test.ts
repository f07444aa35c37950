import { describe, expect, test } from 'bun:test'
import { AUDIO_CLUSTERS, audioFitsEngine, classifyAudioSum } from './audio-sums'

describe('classifyAudioSum', () => {
  test('recognises the published values exactly', () => {
    expect(classifyAudioSum(124.04347527516074)).toMatchObject({ exact: true, cluster: { id: 'blink-desktop' } })
    expect(classifyAudioSum(35.7383295930922)).toMatchObject({ exact: true, cluster: { id: 'gecko' } })
    expect(classifyAudioSum(35.10893232002854)).toMatchObject({ exact: true, cluster: { id: 'webkit' } })
    expect(classifyAudioSum(124.08072766105033)).toMatchObject({ exact: true, cluster: { id: 'blink-linux' } })
  })
  test('places an unseen value inside its cluster without calling it known', () => {
    expect(classifyAudioSum(124.0434755)).toMatchObject({ exact: false, cluster: { id: 'blink-desktop' } })
  })
  test('gives no cluster to values far from all of them', () => {
    expect(classifyAudioSum(28.601430902344873)).toEqual({ cluster: null, exact: false })
    expect(classifyAudioSum(0)).toEqual({ cluster: null, exact: false })
  })
  test('has clusters that do not overlap and list only values inside them', () => {
    for (const c of AUDIO_CLUSTERS) for (const k of c.known) expect(k >= c.min && k <= c.max, `${c.id} ${k}`).toBe(true)
    const sorted = [...AUDIO_CLUSTERS].sort((a, b) => a.min - b.min)
    for (let i = 1; i < sorted.length; i++) expect(sorted[i]!.min).toBeGreaterThan(sorted[i - 1]!.max)
  })
})

describe('audioFitsEngine', () => {
  test('passes a sum from the claimed engine’s cluster', () => {
    expect(audioFitsEngine(124.04347527516074, 'blink').verdict).toBe('pass')
    expect(audioFitsEngine(35.74996031448245, 'gecko').verdict).toBe('pass')
    expect(audioFitsEngine(35.10892717540264, 'webkit').verdict).toBe('pass')
  })
  test('fails a sum from another engine’s cluster (the confident case)', () => {
    expect(audioFitsEngine(124.04347527516074, 'gecko').verdict).toBe('fail')
    expect(audioFitsEngine(35.7383295930922, 'blink').verdict).toBe('fail')
    expect(audioFitsEngine(35.10893232002854, 'gecko').verdict).toBe('fail')
  })
  test('accepts the Blink cluster for WebKit, which CreepJS saw in some builds', () => {
    expect(audioFitsEngine(124.0434485301812, 'webkit').verdict).toBe('pass')
  })
  test('only warns on an unknown sum', () => {
    expect(audioFitsEngine(77.7, 'blink').verdict).toBe('warn')
  })
})
