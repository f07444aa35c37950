import { describe, expect, test } from 'bun:test'
import { redactUrl } from './redact'

describe('redactUrl', () => {
  test('replaces the apikey query parameter', () => {
    expect(redactUrl('/api/antibot/tasks/x?apikey=ab_secret')).toBe('/api/antibot/tasks/x?apikey=REDACTED')
  })
  test('replaces every secret parameter, in any case and position, and keeps the others', () => {
    expect(redactUrl('/p?a=1&APIKEY=s1&token=s2&b=2#frag')).toBe('/p?a=1&APIKEY=REDACTED&token=REDACTED&b=2#frag')
    expect(redactUrl('/p?api_key=s&access_token=t&key=u')).toBe('/p?api_key=REDACTED&access_token=REDACTED&key=REDACTED')
  })
  test('leaves parameters that merely end in a secret name alone', () => {
    expect(redactUrl('/p?monkey=banana&xapikey=1')).toBe('/p?monkey=banana&xapikey=1')
  })
  test('leaves URLs without secrets unchanged, also when called repeatedly', () => {
    expect(redactUrl('/healthz')).toBe('/healthz')
    expect(redactUrl('/p?apikey=a')).toBe('/p?apikey=REDACTED')
    expect(redactUrl('/p?apikey=b')).toBe('/p?apikey=REDACTED')
  })
})
