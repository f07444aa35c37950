import { describe, expect, test } from 'bun:test'
import { scopeMismatches } from './scope-consistency'
import { ok, CHROME_UA, HEADLESS_UA, scope, humanChrome, judge } from '../core/tools/bot-detector.fixture'

describe('scopeMismatches', () => {
  test('scope mismatches ignore fields one side lacks', () => {
    const a = scope(CHROME_UA)
    expect(scopeMismatches(a, { ...a, webdriver: null, deviceMemory: null })).toEqual([])
    expect(scopeMismatches(a, { ...a, platform: 'Linux x86_64' })).toEqual(['platform: "Win32" ≠ "Linux x86_64"'])
  })

  test('a field one side could not read is never a mismatch, whichever field it is', () => {
    const a = scope(CHROME_UA)
    expect(scopeMismatches(a, { ...a, timeZone: null, hardwareConcurrency: null, uaPlatform: null, uaBrands: null })).toEqual([])
    expect(scopeMismatches({ ...a, deviceMemory: null }, a)).toEqual([])
  })

  test('every differing field is named, in schema order, with userAgentData members spelled out', () => {
    const a = scope(CHROME_UA)
    expect(scopeMismatches(a, { ...a, hardwareConcurrency: 4, languages: ['en-US'], timezoneOffset: -60, uaPlatform: 'Linux' })).toEqual([
      'languages: ["en-GB","en"] ≠ ["en-US"]',
      'hardwareConcurrency: 8 ≠ 4',
      'timezoneOffset: 0 ≠ -60',
      'userAgentData.platform: "Windows" ≠ "Linux"',
    ])
  })
})

describe('iframe and worker consistency in bot-detector', () => {
  test('a worker or iframe that disagrees with the page fails its consistency check', () => {
    const s = humanChrome()
    s.worker = ok(scope(HEADLESS_UA, { webdriver: null, hardwareConcurrency: 2 }))
    s.iframe = ok(scope(CHROME_UA, { webdriver: true, timeZone: 'UTC' }))
    const r = judge(s)
    expect(r.byId('worker-consistency').verdict).toBe('fail')
    expect(r.byId('iframe-consistency').observed).toEqual(['webdriver: false ≠ true', 'timeZone: "Europe/London" ≠ "UTC"'])
    expect(r.sections.leaks.webdriver).toBe(true)
  })
})
