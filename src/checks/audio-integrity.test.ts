import { describe, expect, test } from 'bun:test'
import { Value } from '@sinclair/typebox/value'
import { summarize, type Check } from '../core/scoring'
import { AudioFingerprintSignals } from '../../common/signals/audio-fingerprint'
import { audioFingerprint } from '../core/tools/audio-fingerprint'
import type { ServerObservation } from '../core/tools/observation'
import { SPIDERMONKEY, V8 } from '../core/tools/bot-detector.fixture'

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36'
const FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:125.0) Gecko/20100101 Firefox/125.0'
const SAFARI = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15'
const HEADLESS = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36'

const ok = <T,>(value: T) => ({ ok: true as const, value, ms: 12 })
const fail = (kind: 'unsupported' | 'blocked' | 'timeout' | 'farbled' | 'error', message: string) => ({ ok: false as const, error: { kind, message }, ms: 12 })
const sum = (v: number, copy: number | null = v) => ({ sum: v, copySum: copy, reduction: -20.538286209106445 })

function chrome(): AudioFingerprintSignals {
  return {
    audio: ok({ value: sum(124.04347527516074) }),
    knownAnswer: ok({ samples: 512, wrong: 0, maxDelta: 0 }),
    context: ok({ sampleRate: 48000, maxChannelCount: 2, baseLatency: 0.01, state: 'suspended' }),
    engine: ok(V8),
  }
}

const obs = (ua: string): ServerObservation => ({ ip: '192.0.2.1', userAgent: ua, headers: [['user-agent', ua]], receivedAt: 0 })

function judge(s: AudioFingerprintSignals, ua = CHROME) {
  expect(Value.Check(AudioFingerprintSignals, s)).toBe(true)
  const { checks, sections } = audioFingerprint.judge(s, obs(ua))
  const by = (id: string): Check => checks.find((c) => c.id === id) ?? (() => { throw new Error(`no check ${id}`) })()
  return { checks, by, summary: summarize(checks), audio: (sections as { audio: Record<string, unknown> }).audio }
}

describe('audio-fingerprint judge', () => {
  test('passes desktop Chrome with the published sum, full score', () => {
    const { checks, summary, audio } = judge(chrome())
    expect(checks.filter((c) => c.verdict !== 'pass').map((c) => c.id)).toEqual([])
    expect(summary.score).toBe(100)
    expect(audio).toEqual({ sum: 124.04347527516074, stable: true, farbling: 'none', cluster: 'blink-desktop', knownValue: true, sampleRate: 48000 })
  })

  test('passes headless Chromium on Linux: its sum is in the Blink cluster', () => {
    const s = chrome()
    s.audio = ok({ value: sum(124.04347776696522) })
    s.context = ok({ sampleRate: 44100, maxChannelCount: 2, baseLatency: 0.01, state: 'suspended' })
    expect(judge(s, HEADLESS).summary.score).toBe(100)
  })

  test('reports per-render noise (Safari 17+) as farbling and drops the sum', () => {
    const s = chrome()
    s.audio = ok({ value: sum(35.10893232002854), again: sum(35.10893281) })
    const { by, audio, summary } = judge(s, SAFARI)
    expect(by('audio-stable').verdict).toBe('warn')
    expect(String(by('audio-stable').observed)).toStartWith('farbling detected')
    expect(by('audio-engine').verdict).toBe('na')
    expect(by('audio-sum-known').verdict).toBe('na')
    expect(audio).toMatchObject({ sum: null, stable: false, farbling: 'noise' })
    expect(summary.score).toBe(85)
  })

  test('catches Brave’s session-stable farbling with the known signal only', () => {
    const s = chrome()
    s.audio = ok({ value: sum(124.04347657808103 * 1.0000001) })
    s.knownAnswer = ok({ samples: 512, wrong: 496, maxDelta: 0.0000001 })
    const { by, audio } = judge(s)
    expect(by('audio-stable').verdict).toBe('pass')
    expect(by('audio-known-answer').verdict).toBe('warn')
    expect(by('audio-engine').verdict).toBe('na')
    expect(audio).toMatchObject({ sum: null, farbling: 'noise' })
  })

  test('fails getChannelData patched alone (copyFromChannel tells the truth)', () => {
    const s = chrome()
    s.audio = ok({ value: sum(124.0431, 124.04347527516074) })
    const { by, summary } = judge(s)
    expect(by('audio-channel-copy').verdict).toBe('fail')
    // The spoofed value also sits in no known cluster.
    expect(by('audio-sum-known').verdict).toBe('warn')
    expect(summary.score).toBe(100 - 25 - 6)
  })

  test('fails a Firefox User-Agent over a Blink audio stack, and a Chrome one over Gecko’s, naming the engine the page runs on', () => {
    const lie = judge(chrome(), FIREFOX).by('audio-engine')
    expect(lie).toMatchObject({ verdict: 'fail', observed: { claimedEngine: 'gecko', pageEngine: 'blink', reason: expect.stringContaining('it fits V8 (Blink), the engine the page runs on: the User-Agent lies about the engine') } })
    expect(lie.expected).toBe("a sum known for gecko, the engine the User-Agent claims, and blink, the engine the page runs on (judged by V8 (Blink), the engine the page's error messages show)")
    const s = chrome()
    s.audio = ok({ value: sum(35.7383295930922) })
    s.engine = ok(SPIDERMONKEY)
    const { by, summary } = judge(s, CHROME)
    expect(by('audio-engine').verdict).toBe('fail')
    expect(by('audio-engine').expected).toContain('judged by SpiderMonkey (Gecko)')
    expect(by('audio-sum-known').verdict).toBe('pass')
    expect(summary.score).toBe(70)
  })

  test("fails Gecko's sum on a V8 page under a Chrome User-Agent: the audio was replaced", () => {
    const s = chrome()
    s.audio = ok({ value: sum(35.7383295930922) })
    expect(judge(s, CHROME).by('audio-engine')).toMatchObject({ verdict: 'fail', observed: { reason: expect.stringContaining('on a page that runs on V8 (Blink): the audio was replaced') } })
  })

  test("a Firefox person's own sum passes, judged by SpiderMonkey; without the engine signal by the claim alone, saying so", () => {
    const s = chrome()
    s.audio = ok({ value: sum(35.749972093850374) })
    s.engine = ok(SPIDERMONKEY)
    expect(judge(s, FIREFOX).by('audio-engine')).toMatchObject({ verdict: 'pass', expected: "a sum known for gecko, the engine the User-Agent claims (judged by SpiderMonkey (Gecko), the engine the page's error messages show)" })
    const { engine: _, ...old } = s
    expect(judge(old, FIREFOX).by('audio-engine')).toMatchObject({ verdict: 'pass', expected: expect.stringContaining('the page did not report its error messages') })
  })

  test('only warns, a little, on a sum in no known cluster', () => {
    const s = chrome()
    s.audio = ok({ value: sum(97.5) })
    const { by, summary } = judge(s)
    expect(by('audio-sum-known').verdict).toBe('warn')
    expect(by('audio-engine').verdict).toBe('na')
    expect(summary.score).toBe(94)
  })

  test('warns when nothing renders, and marks what depends on it na', () => {
    const s = chrome()
    s.audio = fail('timeout', 'no answer within 3000 ms')
    s.knownAnswer = fail('timeout', 'no answer within 3000 ms')
    s.context = fail('unsupported', 'no AudioContext')
    const { by, audio, summary } = judge(s)
    expect(by('audio-available').verdict).toBe('warn')
    for (const id of ['audio-stable', 'audio-channel-copy', 'audio-known-answer', 'audio-sum-known', 'audio-engine', 'audio-context']) expect(by(id).verdict).toBe('na')
    expect(by('audio-stable').expected).toContain('timeout')
    expect(audio).toMatchObject({ sum: null, stable: null, farbling: 'unknown' })
    expect(summary.score).toBe(92)
  })

  test('warns on an audio device with no output channels', () => {
    const s = chrome()
    s.context = ok({ sampleRate: 44100, maxChannelCount: 0, baseLatency: null, state: 'suspended' })
    expect(judge(s).by('audio-context')).toMatchObject({ verdict: 'warn', observed: '0 output channels: no audio output device' })
  })
})
