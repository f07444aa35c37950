import { describe, expect, test } from 'bun:test'
import { osFromPlatformHint, osFromUserAgent } from './user-agent'
import { familyOfClaimedOs, FONT_LIST, FONT_MARKERS, inferOsFromFonts, osFromSystemFont } from './font-os'

describe('inferOsFromFonts', () => {
  test('a Windows font set is Windows with strong confidence', () => {
    const r = inferOsFromFonts(['Segoe UI', 'Segoe UI Symbol', 'Marlett', 'Calibri', 'Arial', 'Times New Roman'])
    expect(r.os).toBe('windows')
    expect(r.confidence).toBe('strong')
    expect(r.evidence.windows.strong).toEqual(['Segoe UI', 'Segoe UI Symbol', 'Marlett'])
    expect(r.evidence.windows.weak).toEqual(['Calibri'])
  })

  test('a container with DejaVu and Liberation is Linux', () => {
    const r = inferOsFromFonts(['DejaVu Sans', 'DejaVu Serif', 'Liberation Sans', 'Arial', 'Helvetica'])
    expect(r.os).toBe('linux')
    expect(r.confidence).toBe('strong')
  })

  test('Apple fonts win over an Office install on a Mac', () => {
    const r = inferOsFromFonts(['Helvetica Neue', 'Menlo', 'Geneva', 'Lucida Grande', 'Calibri', 'Cambria', 'Consolas'])
    expect(r.os).toBe('apple')
    expect(r.apps.office).toEqual([])
  })

  test('Android font aliases are Android', () => {
    expect(inferOsFromFonts(['sans-serif-condensed', 'casual', 'Roboto']).os).toBe('android')
  })

  test('only weak markers give weak confidence, none give no OS', () => {
    expect(inferOsFromFonts(['Calibri', 'Cambria']).confidence).toBe('weak')
    const none = inferOsFromFonts(['Arial', 'Verdana'])
    expect(none.os).toBeNull()
    expect(none.confidence).toBe('none')
  })

  test('matches names case-insensitively and reports application fonts', () => {
    const r = inferOsFromFonts(['segoe ui', 'MARLETT', 'Myriad Pro', 'Century Gothic'])
    expect(r.os).toBe('windows')
    expect(r.apps).toEqual({ office: ['Century Gothic'], adobe: ['Myriad Pro'] })
  })

  test('the tested list has each family once and no OS marker is a metric-alias-prone core font', () => {
    expect(new Set(FONT_LIST).size).toBe(FONT_LIST.length)
    const markers = Object.values(FONT_MARKERS).flatMap((m) => [...m.strong, ...m.weak])
    for (const alias of ['Arial', 'Times New Roman', 'Courier New', 'Helvetica', 'MS Gothic', 'SimSun']) expect(markers).not.toContain(alias)
  })
})

describe('system fonts', () => {
  test('Windows UI fonts, Apple system fonts and the Chromium Linux default', () => {
    expect(osFromSystemFont('"Segoe UI"')).toEqual(['windows'])
    expect(osFromSystemFont('Tahoma')).toEqual(['windows'])
    expect(osFromSystemFont('-apple-system')).toEqual(['apple'])
    expect(osFromSystemFont('system-ui')).toEqual(['apple'])
    expect(osFromSystemFont('Arial')).toEqual(['linux', 'android'])
    expect(osFromSystemFont('Cantarell')).toEqual(['linux', 'android'])
    expect(osFromSystemFont('Comic Sans MS')).toBeNull()
  })
})

describe('claimed OS', () => {
  const MAC_SAFARI = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15'
  const IOS_CHROME = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/124.0.6367.88 Mobile/15E148 Safari/604.1'

  test('maps claimed OSes and client-hint platforms to font families', () => {
    expect(familyOfClaimedOs(osFromUserAgent(MAC_SAFARI))).toBe('apple')
    expect(familyOfClaimedOs(osFromUserAgent(IOS_CHROME))).toBe('apple')
    expect(familyOfClaimedOs('chromeos')).toBe('linux')
    expect(familyOfClaimedOs('unknown')).toBeNull()
    expect(osFromPlatformHint('"macOS"')).toBe('mac')
    expect(osFromPlatformHint('"Chrome OS"')).toBe('chromeos')
    expect(osFromPlatformHint(undefined)).toBeUndefined()
  })
})
