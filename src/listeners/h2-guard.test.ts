import { describe, expect, test } from 'bun:test'
import { concatBytes } from '../evidence/bytes'
import { H2_PREFACE } from '../evidence/http2'
import { headerListSize, resetWatcher } from './h2-guard'

const frame = (type: number, stream: number, payload: number) => concatBytes([Uint8Array.of(payload >> 16, (payload >> 8) & 0xff, payload & 0xff, type, 0, 0, 0, 0, stream), new Uint8Array(payload)])
const HEADERS = 0x1
const RST = 0x3

describe('h2 guard', () => {
  test('counts the RST_STREAM frames after the preface, across reads split anywhere, skipping payloads', () => {
    const bytes = concatBytes([H2_PREFACE, frame(0x4, 0, 6), frame(HEADERS, 1, 40), frame(RST, 1, 4), frame(0x0, 1, 300), frame(HEADERS, 3, 9), frame(RST, 3, 4)])
    for (const step of [1, 7, 9, 64, bytes.length]) {
      const w = resetWatcher(() => 0)
      for (let i = 0; i < bytes.length; i += step) w.push(bytes.subarray(i, i + step))
      expect(w.resets, `reads of ${step}`).toBe(2)
      expect(w.tripped).toBe(false)
    }
  })

  test('trips past the burst; the budget refills with time', () => {
    let now = 0
    const w = resetWatcher(() => now, 5, 10)
    const resets = (n: number) => concatBytes(Array.from({ length: n }, (_, i) => frame(RST, 1 + 2 * i, 4)))
    expect(w.push(concatBytes([H2_PREFACE, resets(5)]))).toBe(false)
    now = 300 // three tokens back
    expect(w.push(resets(3))).toBe(false)
    expect(w.push(resets(1))).toBe(true)
    expect(w.tripped).toBe(true)
  })

  test('header list size counts names, values and 32 bytes a field (RFC 9113 §6.5.2)', () => {
    expect(headerListSize([{ name: ':path', value: '/' }, { name: 'x', value: 'é' }])).toBe(5 + 1 + 32 + 1 + 2 + 32)
  })
})
