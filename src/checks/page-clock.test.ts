import { describe, expect, test } from 'bun:test'
import { relation } from './page-clock'
import { NOW, ok, browserIn, byId, judge } from '../core/tools/timezone-geo.fixture'

describe('page-clock: the page clock against the server clock and its own monotonic clock', () => {
  test('clock skew beyond two minutes warns, Date replaced warns', () => {
    const s = browserIn('Europe/Berlin')
    s.clock = ok({ now: NOW + 3 * 3600_000, perf: NOW + 3 * 3600_000 })
    const skew = byId(judge(s).checks, 'clock-skew')
    expect(skew.verdict).toBe('warn')
    expect(skew.observed).toBe('page clock 3 h ahead of the server')
    s.clock = ok({ now: NOW + 50, perf: NOW - 86_400_000 })
    expect(byId(judge(s).checks, 'clock-monotonic').verdict).toBe('warn')
    expect(relation(0, 'x')).toBe('in step with x')
    expect(relation(-61_000, 'x')).toBe('1 min 1 s behind x')
  })
})
