import { describe, expect, test } from 'bun:test'
import { acceptTags, langBase, noZone, nowSample, reportedZone } from './zone-facts'

describe('zone-facts', () => {
  const intl = { timeZone: 'Europe/Vienna', locale: 'de-AT', calendar: 'gregory', numberingSystem: 'latn', hourCycle: 'h23', language: 'de-AT', languages: ['de-AT'] }

  test('the reported zone is the one the offsets were sampled in, else Intl’s, else none', () => {
    expect(reportedZone({ zone: 'Europe/Berlin', samples: [] }, intl)).toBe('Europe/Berlin')
    expect(reportedZone({ zone: '', samples: [] }, intl)).toBe('Europe/Vienna')
    expect(reportedZone(undefined, undefined)).toBe('')
  })

  test('no zone says why the zone signal is missing, or that none was reported', () => {
    expect(noZone({ zone: { ok: false, error: { kind: 'error', message: 'boom' }, ms: 1 } })).toBe('error: boom')
    expect(noZone({})).toBe('not collected')
    expect(noZone({ zone: { ok: true, value: intl, ms: 1 } })).toBe('no zone reported')
  })

  test('the sample taken now is the last one; languages reduce to their base', () => {
    expect(nowSample({ zone: 'UTC', samples: [{ at: 1, date: 0, intl: 0 }, { at: 2, date: 0, intl: null }] })?.at).toBe(2)
    expect(nowSample(undefined)).toBeUndefined()
    expect(langBase('de_AT')).toBe('de')
    expect(acceptTags({ headers: [['accept-language', 'de-AT,de;q=0.9']] })).toEqual(['de-AT', 'de'])
  })
})
