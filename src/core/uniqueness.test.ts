import { describe, expect, test } from 'bun:test'
import { blendWeight } from './reference/blend'
import type { ToolReference } from './reference/reference'
import { boundShift, countedPairs, COMBINATION, figure, identifyingAttributes, IDENTIFYING_TOOLS, POPULATION, REFERENCE_WEIGHT, sightingKeys, uniquenessOf } from './uniqueness'

describe('figure', () => {
  test('share, one in N and bits of a value 25 of 1,000 browsers have', () => {
    expect(figure(25, 1000)).toEqual({ browsers: 25, rare: false, share: 0.025, oneIn: 40, bits: 5.322 })
  })
  test('every browser has it: no information', () => {
    expect(figure(200, 200)).toEqual({ browsers: 200, rare: false, share: 1, oneIn: 1, bits: 0 })
  })
  test('fewer than k = 5: no count, bounds from 4 browsers, the same for 1 and for 4', () => {
    const rare = { browsers: null, rare: true, share: 0.004, oneIn: 250, bits: 7.966 }
    expect(figure(1, 1000)).toEqual(rare)
    expect(figure(4, 1000)).toEqual(rare)
    expect(figure(5, 1000)).toEqual({ browsers: 5, rare: false, share: 0.005, oneIn: 200, bits: 7.644 })
  })
  test('a population smaller than k: the bound is the population', () => {
    expect(figure(1, 1)).toEqual({ browsers: null, rare: true, share: 1, oneIn: 1, bits: 0 })
  })
})

describe('identifyingAttributes', () => {
  test('screen-display: the display values, not the window (a resize is the same browser)', () => {
    const id = identifyingAttributes('screen-display', { display: { screen: { width: 1920, height: 1080, availWidth: 1920, availHeight: 1040, colorDepth: 24 }, viewport: { width: 945 }, devicePixelRatio: 1, colorGamut: 'srgb', hdr: false, maxTouchPoints: 0 } }, 'UA')!
    expect(id.attributes.map((a) => [a.name, a.shown])).toEqual([
      ['screen.size', '1920×1080'],
      ['screen.available', '1920×1040'],
      ['screen.colorDepth', '24 bits'],
      ['devicePixelRatio', '1'],
      ['colorGamut', 'srgb'],
      ['hdr', 'false'],
      ['maxTouchPoints', '0'],
    ])
    // The combination changes with any one value.
    const other = identifyingAttributes('screen-display', { display: { screen: { width: 1920, height: 1080, availWidth: 1920, availHeight: 1040, colorDepth: 24 }, devicePixelRatio: 2, colorGamut: 'srgb', hdr: false, maxTouchPoints: 0 } }, 'UA')!
    expect(other.combination).not.toBe(id.combination)
  })
  test('browser-fingerprint: the components in the visitor id, and the visitor id as the combination', () => {
    const id = identifyingAttributes('browser-fingerprint', { fingerprint: { visitorId: 'v1', components: { screen: { hash: 'h1', inVisitorId: true }, canvas: { hash: null, inVisitorId: false }, audio: { hash: 'h3', inVisitorId: true } } } }, 'UA')!
    expect(id.attributes.map((a) => [a.name, a.hash])).toEqual([
      ['audio', 'h3'],
      ['screen', 'h1'],
    ])
    expect(id.combination).toBe('v1')
  })
  test('noised or missing values are left out; nothing identifying read gives null; other tools none', () => {
    expect(identifyingAttributes('canvas-fingerprint', { canvas: { hash: null }, webgl: { vendor: null, renderer: null } }, 'UA')).toBeNull()
    expect(identifyingAttributes('bot-detector', { leaks: {} }, 'UA')).toBeNull()
    expect(identifyingAttributes('audio-fingerprint', { audio: { sum: null, sampleRate: 48000 } }, 'UA')!.attributes.map((a) => a.name)).toEqual(['audio.sampleRate'])
  })
  test('the identifying tools are at least the eight of the issue', () => {
    expect(IDENTIFYING_TOOLS).toEqual(expect.arrayContaining(['browser-fingerprint', 'canvas-fingerprint', 'audio-fingerprint', 'font-detection', 'screen-display', 'timezone-geo', 'http-headers', 'tls-fingerprint']))
  })
})

describe('sightingKeys', () => {
  test('one browser per network: the same address or IPv6 /64 is one browser; another network another', () => {
    const a = sightingKeys('screen-display', '198.51.100.7', 'c1')
    expect(sightingKeys('screen-display', '198.51.100.7', 'c1')).toEqual(a)
    expect(sightingKeys('screen-display', '198.51.100.8', 'c1').browser).not.toBe(a.browser)
    expect(sightingKeys('screen-display', '198.51.100.8', 'c1').range).toBe(a.range)
    expect(sightingKeys('screen-display', '198.51.101.7', 'c1').range).not.toBe(a.range)
    expect(sightingKeys('screen-display', '2001:db8:1:2::1', 'c1').browser).toBe(sightingKeys('screen-display', '2001:db8:1:2::ffff', 'c1').browser)
    expect(sightingKeys('screen-display', '2001:db8:1:3::1', 'c1').range).toBe(sightingKeys('screen-display', '2001:db8:1:2::1', 'c1').range)
    expect(sightingKeys('timezone-geo', '198.51.100.7', 'c1').browser).not.toBe(a.browser)
  })
})

describe('uniquenessOf', () => {
  const id = identifyingAttributes('screen-display', { display: { screen: { width: 1920, height: 1080, availWidth: 1920, availHeight: 1080, colorDepth: 24 }, devicePixelRatio: 1 } }, 'UA')!
  const { names } = countedPairs(id)
  test('a new browser is added to every count; the rarest attribute first', () => {
    const browsers = { [POPULATION]: 399, [COMBINATION]: 0, 'screen.size': 99, 'screen.available': 59, 'screen.colorDepth': 379, devicePixelRatio: 199 }
    const u = uniquenessOf(id, { browsers, counted: false, rangeBrowsers: 0 }, { windowDays: 90, perRange: 4 })
    expect(u.population).toBe(400)
    expect(u.browser).toBe('new')
    expect(u.meaningful).toBe(true)
    // Without a reference population the figures are the instance's alone, and say so.
    expect(u.fingerprint).toEqual({ browsers: null, rare: true, share: 0.01, oneIn: 100, bits: 6.644, source: 'instance', inReference: false, referenceShare: null, bound: true })
    expect(u.reference).toBeNull()
    expect(u.attributes.map((a) => [a.name, a.browsers, a.bits])).toEqual([
      ['screen.available', 60, 2.737],
      ['screen.size', 100, 2],
      ['devicePixelRatio', 200, 1],
      ['screen.colorDepth', 380, 0.074],
    ])
    expect(names).toEqual([POPULATION, COMBINATION, 'screen.size', 'screen.available', 'screen.colorDepth', 'devicePixelRatio'])
  })
  test('a browser counted before is not added again; a full range says so; a small population is not meaningful', () => {
    const browsers = { [POPULATION]: 50, [COMBINATION]: 7, 'screen.size': 10, 'screen.available': 10, 'screen.colorDepth': 50, devicePixelRatio: 50 }
    const seen = uniquenessOf(id, { browsers, counted: true, rangeBrowsers: 4 }, { windowDays: 30, perRange: 4 })
    expect([seen.population, seen.fingerprint.browsers, seen.browser, seen.meaningful, seen.windowDays]).toEqual([50, 7, 'seen before', false, 30])
    const full = uniquenessOf(id, { browsers, counted: false, rangeBrowsers: 4 }, { windowDays: 30, perRange: 4 })
    expect([full.population, full.fingerprint.browsers, full.browser]).toEqual([51, 8, 'not counted: its range is full'])
  })
})

describe('uniquenessOf with a reference population (issue 59)', () => {
  const id = identifyingAttributes('screen-display', { display: { screen: { width: 1920, height: 1080, availWidth: 1920, availHeight: 1040, colorDepth: 24 }, devicePixelRatio: 1, colorGamut: 'srgb' } }, 'UA')!
  const hash = (name: string) => id.attributes.find((a) => a.name === name)!.hash
  // Two groups of a made-up dataset: screen.size 1920×1080 is 20 % of all (10 % of one group, 40 % of the other).
  const table = (v: number, other = 0) => ({ values: { [hash('screen.size')]: v }, other })
  const ref: ToolReference = {
    dataset: { name: 'made-up', version: '1.0.0', license: 'Apache-2.0', what: 'test', url: 'https://example.org', date: '2026-01-01', fingerprints: 10_000, coverage: 0.999 },
    groups: { '*': 1, 'a/x': 2 / 3, 'b/y': 1 / 3 },
    tables: { 'screen.size': { '*': table(0.2, 0.8), 'a/x': table(0.1, 0.9), 'b/y': table(0.4, 0.6) } },
  }
  const at = (population: number, count: number) => uniquenessOf(id, { browsers: { [POPULATION]: population - 1, 'screen.size': count - 1, [COMBINATION]: count - 1 }, counted: false, rangeBrowsers: 0 }, { windowDays: 90, perRange: 4, reference: ref })
  const size = (u: ReturnType<typeof at>) => u.attributes.find((a) => a.name === 'screen.size')!

  test("a new instance's first visit: bits and one in N from the reference, the dataset named, not a bound", () => {
    const u = at(1, 1)
    expect(size(u)).toMatchObject({ source: 'reference', inReference: true, referenceShare: 0.2, share: 0.2, oneIn: 5, bits: 2.322, bound: false, browsers: null, rare: true })
    expect(u.reference).toEqual({ name: 'made-up', version: '1.0.0', license: 'Apache-2.0', url: 'https://example.org', date: '2026-01-01', fingerprints: 10_000, weight: REFERENCE_WEIGHT, instanceWeight: 0 })
    // The whole combination from the reference: the mixture over the groups, within what it covers.
    expect(u.fingerprint).toMatchObject({ source: 'reference', covered: ['screen.size'], bound: false })
    expect(u.fingerprint.share).toBeCloseTo((2 / 3) * 0.1 + (1 / 3) * 0.4, 6)
  })

  test('an attribute the dataset lacks says so and is the instance\'s alone', () => {
    const gamut = at(1, 1).attributes.find((a) => a.name === 'colorGamut')!
    expect(gamut).toMatchObject({ source: 'instance', inReference: false, referenceShare: null, rare: true, bound: true, share: 1 })
  })

  test("the blend moves from the reference to the instance's own share as its counts grow", () => {
    // The instance sees 1920×1080 on half its browsers; the reference on a fifth.
    const populations = [1, 100, 112, 500, 1001, 3000, 9001, 20_000]
    const shares = populations.map((n) => size(at(n, Math.ceil(n / 2))))
    expect(shares.map((f) => f.source)).toEqual(['reference', 'reference', 'reference', 'blended', 'blended', 'blended', 'instance', 'instance'])
    // Ever closer to the instance's own share.
    const distance = shares.map((f, i) => Math.abs(f.share - Math.ceil(populations[i]! / 2) / populations[i]!))
    for (let i = 1; i < shares.length; i++) expect(distance[i]!).toBeLessThanOrEqual(distance[i - 1]! + 1e-6)
    expect(distance.at(-1)!).toBeLessThan(1e-6)
    expect(shares[4]!.share).toBeCloseTo(0.5 * 0.2 + 0.5 * (501 / 1001), 5)
    expect(shares.at(-1)!.share).toBeCloseTo(0.5, 3)
    expect(blendWeight(111)).toBe(0)
    expect(blendWeight(1000)).toBeCloseTo(0.5, 10)
    expect(blendWeight(9000)).toBe(1)
  })

  test('the k floor holds in the blend: 1 and 4 browsers with the value give the same figures', () => {
    expect(size(at(2000, 1))).toEqual(size(at(2000, 4)))
    expect(size(at(2000, 4))).toMatchObject({ browsers: null, rare: true, bound: true, source: 'blended' })
    expect(size(at(2000, 5))).toMatchObject({ browsers: 5, rare: false, bound: false })
  })

  test('a value the reference does not list is a bound: at most its other share', () => {
    const other = identifyingAttributes('screen-display', { display: { screen: { width: 3001, height: 1999, availWidth: 3001, availHeight: 1999, colorDepth: 24 } } }, 'UA')!
    const u = uniquenessOf(other, { browsers: {}, counted: false, rangeBrowsers: 0 }, { windowDays: 90, perRange: 4, reference: ref })
    expect(u.attributes.find((a) => a.name === 'screen.size')).toMatchObject({ source: 'reference', share: 0.8, bound: true })
  })
})

test('boundShift: one range of 4 moves a share of a population of 100 by at most 3.85 points', () => {
  expect(boundShift(100, 4)).toBeCloseTo(0.03846, 5)
  // Both extremes stay inside it.
  for (const c of [0, 1, 50, 100]) {
    expect(Math.abs((c + 4) / 104 - c / 100)).toBeLessThanOrEqual(boundShift(100, 4) + 1e-12)
    expect(Math.abs(c / 104 - c / 100)).toBeLessThanOrEqual(boundShift(100, 4) + 1e-12)
  }
})
