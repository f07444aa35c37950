import { describe, expect, test } from 'bun:test'
import { brandHeader, chromiumBrands, claimChromium, recordedChromium } from './claim'

describe('chromiumBrands', () => {
  test('makes the lists Chrome 120 and 124 sent, and Debian Chromium 156', () => {
    expect(brandHeader(chromiumBrands({ major: 120, full: '120.0.6099.109' }, { product: 'Google Chrome' }))).toBe('"Not_A Brand";v="8", "Chromium";v="120", "Google Chrome";v="120"')
    expect(brandHeader(chromiumBrands({ major: 124, full: '124.0.6367.60' }, { product: 'Google Chrome' }))).toBe('"Chromium";v="124", "Google Chrome";v="124", "Not-A.Brand";v="99"')
    expect(brandHeader(chromiumBrands({ major: 156, full: '156.0.8078.114' }))).toBe('"Not:A-Brand";v="8", "Chromium";v="156"')
    expect(brandHeader(chromiumBrands({ major: 156, full: '156.0.8078.114' }, { full: true }))).toBe('"Not:A-Brand";v="8.0.0.0", "Chromium";v="156.0.8078.114"')
  })
})

describe('claimChromium', () => {
  test('rewrites every version string of a recorded visit to the claimed version', () => {
    const from = recordedChromium('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36', '"Not:A-Brand";v="8.0.0.0", "Chromium";v="156.0.8078.114"')
    const to = { major: 149, full: '149.0.7695.80' }
    const out = claimChromium(
      {
        ua: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36',
        hint: '"Not:A-Brand";v="8", "Chromium";v="156"',
        full: '"Not:A-Brand";v="8.0.0.0", "Chromium";v="156.0.8078.114"',
        summary: 'Not:A-Brand/8, Chromium/156',
        brands: [{ brand: 'Not:A-Brand', version: '8' }, { brand: 'Chromium', version: '156' }],
        other: 1560,
      },
      from,
      to,
    )
    expect(out).toEqual({
      ua: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/149.0.0.0 Safari/537.36',
      hint: '"Chromium";v="149", "Not)A;Brand";v="24"',
      full: '"Chromium";v="149.0.7695.80", "Not)A;Brand";v="24.0.0.0"',
      summary: 'Chromium/149, Not)A;Brand/24',
      brands: [{ brand: 'Chromium', version: '149' }, { brand: 'Not)A;Brand', version: '24' }],
      other: 1560,
    })
  })
})
