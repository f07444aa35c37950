import { describe, expect, test } from 'bun:test'
import { ok, browserIn, byId, judge } from '../core/tools/timezone-geo.fixture'

describe('geolocation-api', () => {
  test('a missing Geolocation API warns', () => {
    const s = browserIn('Europe/Berlin')
    s.geolocation = ok({ present: false, secureContext: true, permission: null, permissionError: 'TypeError: x' })
    expect(byId(judge(s).checks, 'geolocation-api').verdict).toBe('warn')
  })
})
