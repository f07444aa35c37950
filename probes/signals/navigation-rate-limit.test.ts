import { describe, expect, test } from 'bun:test'
import { navigationRateLimit } from './navigation-rate-limit'

/** history with Chromium's cap (later calls ignored), Safari's (later calls throw) or none. */
function fakeHistory(limit: number | null, throws = false) {
  let calls = 0
  return {
    state: null as unknown,
    replaceState(data: unknown) {
      calls++
      if (limit !== null && calls > limit) {
        if (throws) throw new DOMException('Attempt to use history.replaceState() more than 100 times per 30 seconds', 'SecurityError')
        return
      }
      this.state = data
    },
  }
}

describe('navigationRateLimit', () => {
  test('Chromium with its protection keeps the state of call 200', () => {
    expect(navigationRateLimit(fakeHistory(200))).toEqual({ calls: 210, accepted: 210, lastApplied: 200, error: null })
  })
  test('Safari and Firefox throw once over their cap', () => {
    const r = navigationRateLimit(fakeHistory(100, true))
    expect(r.accepted).toBe(100)
    expect(r.lastApplied).toBe(100)
    expect(r.error).toStartWith('SecurityError: ')
  })
  test('without protection (--disable-ipc-flooding-protection) every call sticks', () => {
    expect(navigationRateLimit(fakeHistory(null))).toEqual({ calls: 210, accepted: 210, lastApplied: 210, error: null })
  })
})
