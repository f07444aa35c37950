import { describe, expect, test } from 'bun:test'
import { summarize } from '../core/scoring'
import { server, judgeDns, byId, today } from '../core/tools/dns-leak.fixture'

describe('network-information through the dns-leak tool', () => {
  test('a spoofed navigator.connection warns', () => {
    const spoofed = { ok: true as const, ms: 0, value: { type: 'wifi', effectiveType: '4g', rtt: 1234, downlink: 7.777, saveData: false } }
    const { checks } = judgeDns({ ...today, connection: spoofed }, server('81.2.69.160'))
    const c = byId(checks)['network-information']!
    expect(c.verdict).toBe('warn')
    expect(c.observed).toEqual(['rtt 1234 is not rounded to 50 ms within 0–3000', 'downlink 7.777 is not rounded to 25 kbit/s within 0–10 Mbit/s', 'effectiveType 4g with rtt 1234 ms'])
    expect(summarize(checks).score).toBe(97)
  })

  test('Chromium values at the limits pass: rtt 0 (no estimate), downlink 10, slow-2g with a long rtt', () => {
    for (const value of [
      { type: null, effectiveType: '4g', rtt: 0, downlink: 10, saveData: false },
      { type: 'cellular', effectiveType: 'slow-2g', rtt: 2100, downlink: 0.05, saveData: true },
      { type: null, effectiveType: '3g', rtt: 300, downlink: 0.7, saveData: false },
    ]) {
      expect(byId(judgeDns({ ...today, connection: { ok: true, ms: 0, value } }, server('81.2.69.160')).checks)['network-information']!.verdict).toBe('pass')
    }
  })

})
