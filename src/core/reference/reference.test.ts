import { describe, expect, test } from 'bun:test'
import { hashValue } from '../../../common/hash'
import { loadReferencePopulation } from '../../reference-population'
import { ALL, attributeShare, browserGroup, combinationShare, JOINT_SEPARATOR, toolReference } from './reference'

const data = loadReferencePopulation()

describe('the shipped reference population (population.json)', () => {
  test('names its dataset, version, licence, date and sample size', () => {
    expect(data.dataset).toMatchObject({ name: 'fingerprint-generator', version: '2.1.88', license: 'Apache-2.0', date: '2026-05-04', fingerprints: 14192, coverage: 0.999 })
    expect(data.groups[ALL]).toBe(1)
    const groups = Object.entries(data.groups).filter(([g]) => g !== ALL)
    expect(groups.reduce((s, [, p]) => s + p, 0)).toBeCloseTo(1, 4)
    expect(data.groups['chrome/windows']).toBeGreaterThan(0.3)
  })

  test('each table lists what covers 99.9 % of its mass and gives the rest as other', () => {
    for (const byName of Object.values(data.tables)) {
      for (const byGroup of Object.values(byName)) {
        const t = byGroup[ALL]!
        const listed = Object.values(t.values).reduce((s, v) => s + v, 0)
        expect(listed).toBeGreaterThan(0.5)
        expect(listed + t.other).toBeLessThanOrEqual(1.0001)
      }
    }
  })

  test('values are hashed as our attributes are: a common screen, GPU vendor and user agent are listed', () => {
    const screen = toolReference(data, 'screen-display')!
    const size = attributeShare(screen, 'screen.size', hashValue('1920×1080'))!
    expect(size.listed).toBe(true)
    expect(size.share).toBeGreaterThan(0.1)
    expect(size.share).toBeLessThan(0.5)
    expect(attributeShare(screen, 'devicePixelRatio', hashValue(1))!.listed).toBe(true)
    expect(attributeShare(screen, 'screen.colorDepth', hashValue('24 bits'))!.listed).toBe(true)
    expect(attributeShare(screen, 'maxTouchPoints', hashValue(0))!.share).toBeGreaterThan(0.5)
    expect(attributeShare(toolReference(data, 'canvas-fingerprint')!, 'webgl.vendor', hashValue('Google Inc. (Intel)'))!.listed).toBe(true)
    const ua = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/147.0.0.0 Safari/537.36'
    expect(attributeShare(toolReference(data, 'http-headers')!, 'userAgent', hashValue(ua))!.share).toBeGreaterThan(0.3)
    // browser-fingerprint's hardware component: cores and memory together, null memory where the browser has none.
    const hardware = toolReference(data, 'browser-fingerprint')!
    expect(Object.keys(hardware.tables)).toEqual(['hardware'])
    expect(attributeShare(hardware, 'hardware', hashValue({ hardwareConcurrency: 8, deviceMemory: 8 }))!.listed).toBe(true)
    expect(attributeShare(hardware, 'hardware', hashValue({ hardwareConcurrency: 10, deviceMemory: null }))!.listed).toBe(true)
    // What the dataset lacks is no table.
    expect(attributeShare(screen, 'colorGamut', hashValue('srgb'))).toBeNull()
    expect(toolReference(data, 'timezone-geo')).toBeNull()
    expect(toolReference(data, 'font-detection')).toBeNull()
  })

  test("a combination's share: the joint table where all its attributes were read, never above any one's share", () => {
    const screen = toolReference(data, 'screen-display')!
    expect(Object.keys(screen.tables).filter((n) => n.includes(JOINT_SEPARATOR))).toEqual(['screen.size+screen.available+screen.colorDepth+devicePixelRatio+hdr'])
    const attrs = [
      { name: 'screen.size', hash: hashValue('1920×1080') },
      { name: 'screen.available', hash: hashValue('1920×1040') },
      { name: 'screen.colorDepth', hash: hashValue('24 bits') },
      { name: 'devicePixelRatio', hash: hashValue(1) },
      { name: 'hdr', hash: hashValue(false) },
      { name: 'colorGamut', hash: hashValue('srgb') },
    ]
    const c = combinationShare(screen, attrs)!
    expect(c.covered).toEqual(['screen.size', 'screen.available', 'screen.colorDepth', 'devicePixelRatio', 'hdr'])
    for (const a of attrs.slice(0, 5)) expect(c.share).toBeLessThanOrEqual(attributeShare(screen, a.name, a.hash)!.share + 1e-9)
    // One attribute alone: the mixture over the groups is its share among all browsers.
    const one = combinationShare(screen, [attrs[0]!])!
    expect(one.share).toBeCloseTo(attributeShare(screen, 'screen.size', hashValue('1920×1080'))!.share, 4)
    expect(combinationShare(screen, [{ name: 'colorGamut', hash: 'x' }])).toBeNull()
  })
})

test('browserGroup: the family and system of a User-Agent', () => {
  expect(browserGroup('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/147.0.0.0 Safari/537.36 Edg/147.0.0.0')).toBe('edge/windows')
  expect(browserGroup('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/26.4 Safari/605.1.15')).toBe('safari/macos')
  expect(browserGroup('Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0')).toBe('firefox/linux')
  expect(browserGroup('Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/147.0 Mobile/15E148 Safari/604.1')).toBe('chrome/ios')
  expect(browserGroup('curl/8.0')).toBe('other/other')
})
