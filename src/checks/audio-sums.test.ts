import { describe, expect, test } from 'bun:test'
import { AUDIO_CLUSTERS, audioAgainstEngines, audioFitsEngine, classifyAudioSum } from './audio-sums'
import { pageEngine } from './page-engine'
import { SPIDERMONKEY, V8 } from '../core/tools/bot-detector.fixture'

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

describe('audioAgainstEngines', () => {
  const GECKO_SUM = 35.7383295930922
  const BLINK_SUM = 124.04347527516074
  test('passes a sum of both the claimed and the running engine, naming how the running one was told', () => {
    expect(audioAgainstEngines(GECKO_SUM, 'gecko', pageEngine(SPIDERMONKEY))).toMatchObject({
      verdict: 'pass',
      expected: "a sum known for gecko, the engine the User-Agent claims (judged by SpiderMonkey (Gecko), the engine the page's error messages show)",
    })
  })
  test("another engine's sum than the claim is a lying User-Agent; than the running engine, replaced audio", () => {
    expect(audioAgainstEngines(GECKO_SUM, 'blink', pageEngine(SPIDERMONKEY)).reason).toContain('the User-Agent lies about the engine')
    expect(audioAgainstEngines(GECKO_SUM, 'blink', pageEngine(V8))).toMatchObject({ verdict: 'fail', reason: expect.stringContaining('the audio was replaced') })
    expect(audioAgainstEngines(BLINK_SUM, 'gecko', pageEngine(V8)).expected).toBe("a sum known for gecko, the engine the User-Agent claims, and blink, the engine the page runs on (judged by V8 (Blink), the engine the page's error messages show)")
  })
  test('without the engine signal only the claim is judged, and the text says so', () => {
    expect(audioAgainstEngines(BLINK_SUM, 'blink', pageEngine(undefined))).toMatchObject({ verdict: 'pass', expected: expect.stringContaining('the page did not report its error messages') })
  })
})
