import { describe, expect, test } from 'bun:test'
import { formDecode, foldName, holdsKeyShape, isCredentialHeader, REDACTED, redactHeaderValue, redactUrl } from './redact'
import { generateApiKey } from './keys'

const KEY = generateApiKey((n) => crypto.getRandomValues(new Uint8Array(n)))

describe('redactUrl', () => {
  test('a path without query, fragment or escapes: each segment that holds a key shape is redacted, as segment by segment', () => {
    // Seeded: the same paths every run. Segments mix key shapes (whole, cut short, after a
    // letter, after a '-' or '.') with ordinary words, so both answers of the fast test occur.
    let seed = 61
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31)
    const parts = [KEY, KEY.slice(0, 24), `x${KEY}`, `-${KEY}`, `v1.${KEY}`, 'api', 'antibot', 'tasks', '0195f3e2-7c1a-7b4e-9d2f-3a4b5c6d7e8f', 'ab_short', 'AB_', '', 'tools', KEY.toUpperCase()]
    let redacted = 0
    for (let i = 0; i < 2000; i++) {
      const segments = Array.from({ length: 1 + (next() % 5) }, () => parts[next() % parts.length]!)
      const path = `/${segments.join('/')}`
      const expected = path.split('/').map((s) => (holdsKeyShape(s) ? REDACTED : s)).join('/')
      expect(redactUrl(path)).toBe(expected)
      if (expected !== path) redacted++
    }
    expect(redacted).toBeGreaterThan(100)
    expect(redacted).toBeLessThan(2000)
  })
  test('replaces the apikey query parameter', () => {
    expect(redactUrl('/api/antibot/tasks/x?apikey=ab_secret')).toBe('/api/antibot/tasks/x?apikey=REDACTED')
  })
  test('replaces every secret parameter, in any case and position, and keeps the others', () => {
    expect(redactUrl('/p?a=1&APIKEY=s1&token=s2&b=2#frag')).toBe('/p?a=1&APIKEY=REDACTED&token=REDACTED&b=2#frag')
    expect(redactUrl('/p?api_key=s&access_token=t&key=u')).toBe('/p?api_key=REDACTED&access_token=REDACTED&key=REDACTED')
  })
  test('reads names as the app does: percent-escapes, + as a space, array and index suffixes', () => {
    for (const name of ['api%6Bey', '%61%70%69%6B%65%79', 'apikey[]', 'apikey%5B%5D', 'apikey[0]', 'apikey%5B0%5D', 'ApiKey', 'api+key', 'api%20key', 'api-key', 'api.key', 'x_api_key', 'xapikey', 'key[]', '%EF%BD%81pikey']) {
      expect(redactUrl(`/p?a=1&${name}=s3cr3t&b=2`)).toBe(`/p?a=1&${name}=REDACTED&b=2`)
    }
  })
  test('redacts every occurrence of a repeated name', () => {
    expect(redactUrl('/p?apikey=a&apikey=b')).toBe('/p?apikey=REDACTED&apikey=REDACTED')
  })
  test('redacts anything shaped like an API key, whatever its name and however encoded', () => {
    const encoded = [...KEY].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join('')
    expect(redactUrl(`/p?q=${KEY}`)).toBe('/p?q=REDACTED')
    expect(redactUrl(`/p?q=${encoded}`)).toBe('/p?q=REDACTED')
    expect(redactUrl(`/p?q=${encodeURIComponent(encoded)}`)).toBe('/p?q=REDACTED')
    expect(redactUrl(`/p?${KEY}`)).toBe('/p?REDACTED')
    expect(redactUrl(`/p?${KEY}=1`)).toBe('/p?REDACTED')
    expect(redactUrl(`/api/antibot/tasks/${KEY}?x=1`)).toBe('/api/antibot/tasks/REDACTED?x=1')
    expect(redactUrl(`/api/antibot/tasks/${encoded}`)).toBe('/api/antibot/tasks/REDACTED')
  })
  test('leaves other parameters, names that merely end in "key", and malformed escapes alone', () => {
    expect(redactUrl('/p?monkey=banana&keyboard=1')).toBe('/p?monkey=banana&keyboard=1')
    expect(redactUrl('/p?a=%ZZ&b=%2&c')).toBe('/p?a=%ZZ&b=%2&c')
    expect(redactUrl('/healthz?rtt=3')).toBe('/healthz?rtt=3')
    expect(redactUrl('/p?a=lab_short')).toBe('/p?a=lab_short')
  })
  test('leaves URLs without secrets unchanged, also when called repeatedly', () => {
    expect(redactUrl('/healthz')).toBe('/healthz')
    expect(redactUrl('/p?apikey=a')).toBe('/p?apikey=REDACTED')
    expect(redactUrl('/p?apikey=b')).toBe('/p?apikey=REDACTED')
  })
})

describe('formDecode and foldName', () => {
  test('decode as URLSearchParams does', () => {
    for (const s of ['api%6Bey', 'a+b', '%E2%82%AC', '%FF', '100%', '%zz', 'caf%C3%A9', '%F0%9F%98%80']) {
      expect(formDecode(s)).toBe([...new URLSearchParams(`${s}=`).keys()][0]!)
    }
  })
  test('fold names to letters and digits', () => {
    expect(foldName('API-Key[]')).toBe('apikey')
    expect(foldName('api key[0][1]')).toBe('apikey')
    expect(foldName('ａｐｉｋｅｙ')).toBe('apikey')
  })
})

describe('redactHeaderValue', () => {
  test('redacts credential-bearing headers by name', () => {
    for (const name of ['authorization', 'Proxy-Authorization', 'cookie', 'x-api-key', 'X-Auth-Token', 'x-csrf-token', 'x-amz-security-token', 'private-token', 'x-vault-token', 'x-client-secret', 'x-apikey', 'apikey', 'x-session-id', 'cf-access-jwt-assertion', 'x-hub-signature-256', 'x-refresh_token', 'my.password']) {
      expect(redactHeaderValue(name, 'value')).toBe('(redacted)')
    }
  })
  test('redacts credentials by shape, whatever the header', () => {
    expect(redactHeaderValue('x-custom', 'Basic dXNlcjpwYXNz')).toBe('(redacted)')
    expect(redactHeaderValue('x-custom', 'bearer abc')).toBe('(redacted)')
    expect(redactHeaderValue('x-custom', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig')).toBe('(redacted)')
    expect(redactHeaderValue('x-custom', `prefix ${KEY}`)).toBe('(redacted)')
    expect(redactHeaderValue('user-agent', `curl/8 ${KEY}`)).toBe('(redacted)')
  })
  test('keeps every header the tools judge', () => {
    const kept: Array<[string, string]> = [
      ['user-agent', 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'],
      ['accept', 'text/html,application/xhtml+xml'],
      ['accept-encoding', 'gzip, deflate, br, zstd'],
      ['accept-language', 'en-US,en;q=0.9'],
      ['sec-ch-ua', '"Chromium";v="131", "Not_A Brand";v="24"'],
      ['sec-ch-ua-mobile', '?0'],
      ['sec-ch-ua-platform', '"Linux"'],
      ['sec-ch-ua-full-version-list', '"Chromium";v="131.0.6778.85"'],
      ['sec-fetch-site', 'same-origin'],
      ['sec-fetch-mode', 'cors'],
      ['sec-fetch-dest', 'empty'],
      ['dnt', '1'],
      ['sec-gpc', '1'],
      ['via', '1.1 proxy.example'],
      ['x-forwarded-for', '203.0.113.7'],
      ['forwarded', 'for=203.0.113.7;proto=https'],
      ['x-real-ip', '203.0.113.7'],
      ['x-ja4', 't13d1516h2_8daaf6152771_02713d6af862'],
      ['x-ja3-hash', 'cd08e31494f9531f560d64c695473da9'],
      ['x-http2-fingerprint', '1:65536;2:0;4:6291456;6:262144|15663105|0|m,a,s,p'],
      ['keep-alive', 'timeout=5'],
      ['x-devtools-emulate-network-conditions-client-id', 'ABCDEF'],
      ['cache-control', 'no-cache'],
      ['origin', 'http://localhost:3000'],
      ['referer', 'http://localhost:3000/tools/http-headers'],
      ['content-type', 'application/json'],
      ['priority', 'u=1, i'],
      ['upgrade-insecure-requests', '1'],
    ]
    for (const [name, value] of kept) {
      expect({ name, value: redactHeaderValue(name, value) }).toEqual({ name, value })
      expect(isCredentialHeader(name, value)).toBe(false)
    }
  })
})
