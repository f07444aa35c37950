import { describe, expect, test } from 'bun:test'
import { formatOffset, isUtcZone, languageRegion, parseDateString, sampleInstants, zoneOffsetMinutes, zonesOfRegion } from './tz-offset'

describe('zoneOffsetMinutes', () => {
  test('uses the getTimezoneOffset sign convention and follows DST', () => {
    expect(zoneOffsetMinutes('America/New_York', Date.UTC(2024, 0, 15, 12))).toBe(300)
    expect(zoneOffsetMinutes('America/New_York', Date.UTC(2024, 6, 15, 12))).toBe(240)
    expect(zoneOffsetMinutes('Europe/Berlin', Date.UTC(2024, 6, 15, 12))).toBe(-120)
    expect(zoneOffsetMinutes('Asia/Kolkata', Date.UTC(2000, 0, 15, 12))).toBe(-330)
    expect(zoneOffsetMinutes('UTC', Date.UTC(1970, 0, 15, 12))).toBe(0)
  })

  test('knows history: Moscow kept summer time all year from 2011 to 2014', () => {
    expect(zoneOffsetMinutes('Europe/Moscow', Date.UTC(2010, 0, 15, 12))).toBe(-180)
    expect(zoneOffsetMinutes('Europe/Moscow', Date.UTC(2013, 0, 15, 12))).toBe(-240)
    expect(zoneOffsetMinutes('Europe/Moscow', Date.UTC(2020, 0, 15, 12))).toBe(-180)
  })

  test('is null for a zone that does not exist', () => {
    expect(zoneOffsetMinutes('Mars/Olympus_Mons', 0)).toBeNull()
  })

  test('samples mid-January and mid-July at noon UTC', () => {
    expect(sampleInstants([2000])).toEqual([Date.UTC(2000, 0, 15, 12), Date.UTC(2000, 6, 15, 12)])
  })
})

describe('parsing', () => {
  test('reads the offset and name from Date.prototype.toString', () => {
    expect(parseDateString('Sat Nov 21 2026 13:45:36 GMT+0530 (India Standard Time)')).toEqual({ offset: -330, name: 'India Standard Time' })
    expect(parseDateString('Mon Jan 15 2024 07:00:00 GMT-0500 (Eastern Standard Time)')).toEqual({ offset: 300, name: 'Eastern Standard Time' })
    expect(parseDateString('Mon Jan 15 2024 12:00:00 GMT+0000')).toEqual({ offset: 0, name: null })
    expect(parseDateString('Invalid Date')).toBeNull()
  })

  test('formats offsets as UTC±hh:mm', () => {
    expect(formatOffset(-330)).toBe('+05:30')
    expect(formatOffset(300)).toBe('-05:00')
    expect(formatOffset(0)).toBe('+00:00')
  })
})

describe('regions', () => {
  test('a language names its explicit or likely region', () => {
    expect(languageRegion('de-AT')).toBe('AT')
    expect(languageRegion('de')).toBe('DE')
    expect(languageRegion('pt')).toBe('BR')
    expect(languageRegion('not a tag!')).toBeNull()
  })

  test('a region lists its zones', () => {
    expect(zonesOfRegion('DE')).toContain('Europe/Berlin')
    expect(zonesOfRegion('US').length).toBeGreaterThan(5)
  })

  test('UTC and Etc zones are recognised', () => {
    for (const z of ['UTC', 'Etc/UTC', 'GMT', 'Etc/GMT+3', 'Etc/Universal']) expect(isUtcZone(z)).toBe(true)
    for (const z of ['Europe/London', 'Africa/Abidjan', 'Atlantic/Reykjavik']) expect(isUtcZone(z)).toBe(false)
  })
})
