import { describe, expect, test } from 'bun:test'
import { lookupSection, intelOf } from '../tools/ip-intel'
import { fakeLookup, NETWORKS } from '../../../tests/support/fake-ipdb'
import { GLANCE_WIDTH, networkCard, offsetMinutes, utcText, verdictGauge, wrapText, zoneBand } from './glance'

describe('verdict gauge', () => {
  const groups = [
    { title: 'Automation markers', fail: 3, warn: 1, pass: 19, na: 1 },
    { title: 'Lies', fail: 0, warn: 0, pass: 6, na: 0 },
  ]
  test('the bands are bot-detector’s (bot to 40, suspicious to 80, a person from 80) and the marker sits at the score', () => {
    const g = verdictGauge(23, 'bot', groups)
    expect(g.bands.map((b) => [b.label, b.x, b.width])).toEqual([['bot', 8, 121.6], ['suspicious', 129.6, 121.6], ['person', 251.2, 60.8]])
    expect(g.at).toBe(77.9)
    expect(verdictGauge(100, 'human', groups).at).toBe(GLANCE_WIDTH - 8)
    expect(verdictGauge(100, 'human', groups).word).toBe('person')
  })
  test('each group is a bar of failed, warned, passed and not run checks in proportion, and says its counts in words', () => {
    const [markers, lies] = verdictGauge(23, 'bot', groups).groups
    expect(markers!.segments.map((s) => [s.verdict, s.count])).toEqual([['fail', 3], ['warn', 1], ['pass', 19], ['na', 1]])
    expect(markers!.segments.reduce((n, s) => n + s.width, 0)).toBeCloseTo(304, 0)
    expect(markers!.segments[1]!.x).toBeCloseTo(8 + (3 / 24) * 304, 0)
    expect(markers!.text).toBe('3 failed, 1 warned, 19 passed, 1 could not run')
    expect(lies!.text).toBe('6 passed')
    expect(verdictGauge(23, 'bot', groups).says).toBe('Verdict: bot, score 23 of 100 (a bot at 40 or under, suspicious under 80, a person from 80). Automation markers: 3 failed, 1 warned, 19 passed, 1 could not run. Lies: 6 passed.')
  })
})

describe('network card', () => {
  const lookup = fakeLookup({ '81.2.69.160': NETWORKS.aaisp, '3.120.0.9': NETWORKS.aws })
  const card = (ip: string, scope: string | null = 'public') => networkCard(ip, scope, lookupSection(intelOf({ lookupIp: lookup }, ip)))
  test('a home line: the country by name and code, the network by AS and organisation', () => {
    const c = card('81.2.69.160')
    expect(c).toMatchObject({ code: 'GB', country: 'United Kingdom (GB)', network: 'AS20712 Andrews & Arnold Ltd' })
    expect(c.kind).toContain('home')
    expect(c.says).toBe('The address 81.2.69.160 is in United Kingdom (GB), network AS20712 Andrews & Arnold Ltd: no server network known: likely a home, office or mobile line. From the IP database this service ships, offline.')
  })
  test('a cloud address says so, with the provider', () => {
    const c = card('3.120.0.9')
    expect(c.code).toBe('US')
    expect(c.kind).toMatch(/^cloud servers \(.*Amazon/i)
    expect(c.kind).not.toContain('guessed')
    const guessed = networkCard('203.0.113.9', 'public', { status: 'found', country: 'NL', asn: 64500, organization: 'Example Hosting BV', datacenter: true, network: 'hosting', provider: 'Example Hosting BV', networkSource: 'org-name-heuristic' })
    expect(guessed.kind).toBe('hosting servers (Example Hosting BV), guessed from its name')
    expect(networkCard('203.0.113.9', 'public', { status: 'found', country: null, asn: 64500, organization: null }).says).toStartWith('The address 203.0.113.9 is in no country the database knows, network AS64500: ')
  })
  test('a local address, no database, an unlisted address: no country, and why', () => {
    expect(card('127.0.0.1', 'loopback')).toMatchObject({ code: null, country: 'not known', kind: 'a loopback address, which belongs to no country or network' })
    expect(networkCard('81.2.69.160', 'public', lookupSection(intelOf({}, '81.2.69.160'))).kind).toBe('not looked up: this instance has no IP database loaded')
    expect(card('198.18.0.1').kind).toMatch(/not in the IP database|belongs to no country/)
  })
})

describe('time-zone band', () => {
  const DEC = Date.UTC(2026, 11, 2, 12)
  test('the browser’s offset on a UTC−12 to +14 axis, and the address country’s offsets now', () => {
    const z = zoneBand({ zone: 'Europe/Berlin', utcOffset: '+01:00', ipCountry: 'US' }, DEC)
    expect(z.ticks.map((t) => t.label)).toEqual(['−12', '−9', '−6', '−3', 'UTC', '+3', '+6', '+9', '+12'])
    expect(z.browser).toMatchObject({ zone: 'Europe/Berlin', offset: 'UTC+01:00', minutes: 60 })
    const offsets = z.country!.offsets.map((o) => o.minutes)
    expect(offsets).toContain(-300)
    expect(offsets).toContain(-480)
    expect(offsets).not.toContain(60)
    expect(z.country!.fits).toBe(false)
    expect(z.says).toContain("The browser's time zone is Europe/Berlin, UTC+01:00 now. The address is in United States, whose zones are UTC−10:00 to UTC−05:00 (6 offsets) now")
    expect(z.says).toContain('is not among them')
  })
  test('Tokyo behind a Japanese address fits; India’s half hour is drawn where it is', () => {
    const z = zoneBand({ zone: 'Asia/Tokyo', utcOffset: '+09:00', ipCountry: 'JP' }, DEC)
    expect(z.country).toMatchObject({ code: 'JP', name: 'Japan', fits: true })
    expect(z.country!.offsets.map((o) => o.label)).toEqual(['UTC+09:00'])
    expect(z.browser.x).toBe(z.country!.offsets[0]!.x)
    const india = zoneBand({ zone: 'Asia/Kolkata', utcOffset: '+05:30', ipCountry: 'IN' }, DEC)
    expect(india.browser.x).toBeCloseTo(14 + ((330 + 720) / 1560) * 292, 1)
  })
  test('no country (a local address): the browser’s zone alone, and it says why there is nothing to expect', () => {
    const z = zoneBand({ zone: 'UTC', utcOffset: '+00:00', ipCountry: null }, DEC)
    expect(z.country).toBeNull()
    expect(z.browser.offset).toBe('UTC')
    expect(z.says).toContain('no zone to expect')
  })
  test('offsets in words and back', () => {
    expect([utcText(330), utcText(-210), utcText(0)]).toEqual(['UTC+05:30', 'UTC−03:30', 'UTC'])
    expect([offsetMinutes('+05:45'), offsetMinutes('-03:00'), offsetMinutes(null), offsetMinutes('x')]).toEqual([345, -180, null, null])
  })
})

test('wrapText breaks at spaces, cuts a word too long, and ends a cut text in …', () => {
  expect(wrapText('AS20712 Andrews & Arnold Ltd', 16, 2)).toEqual(['AS20712 Andrews', '& Arnold Ltd'])
  expect(wrapText('2001:0db8:85a3:0000:0000:8a2e:0370:7334', 20, 2)).toEqual(['2001:0db8:85a3:0000:', '0000:8a2e:0370:7334'])
  expect(wrapText('one two three four five six', 9, 2)).toEqual(['one two', 'three…'])
})
