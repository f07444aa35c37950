import { describe, expect, test } from 'bun:test'
import { brandsClaim, engineClaim, familiesAgree, isGreaseBrand, parseBrandList, parseSfBoolean, parseSfString, parseUserAgent, uaHintMismatches } from './user-agent'

const UA = {
  chromeWin: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  headless: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36',
  edge: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.2478.51',
  opera: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/122.0.0.0 Safari/537.36 OPR/108.0.0.0',
  firefox: 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0',
  safari: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
  chromeIos: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/124.0.6367.88 Mobile/15E148 Safari/604.1',
  chromeAndroid: 'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36',
  phantom: 'Mozilla/5.0 (Unknown; Linux x86_64) AppleWebKit/538.1 (KHTML, like Gecko) PhantomJS/2.1.1 Safari/538.1',
  googlebot: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  cubot: 'Mozilla/5.0 (Linux; Android 10; CUBOT X30) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36',
}

describe('parseUserAgent', () => {
  test('reads desktop Chrome on Windows with its major version', () => {
    expect(parseUserAgent(UA.chromeWin)).toEqual({ family: 'chrome', engine: 'blink', version: 124, os: 'windows', mobile: false, headless: false, tool: null })
  })
  test('flags HeadlessChrome as headless Chrome', () => {
    const p = parseUserAgent(UA.headless)
    expect([p.family, p.version, p.os, p.headless]).toEqual(['chrome', 156, 'linux', true])
  })
  test('names Edge and Opera but keeps the Chromium major version', () => {
    expect(parseUserAgent(UA.edge)).toMatchObject({ family: 'edge', version: 124 })
    expect(parseUserAgent(UA.opera)).toMatchObject({ family: 'opera', version: 122 })
  })
  test('reads Firefox as Gecko and Safari as WebKit', () => {
    expect(parseUserAgent(UA.firefox)).toMatchObject({ family: 'firefox', engine: 'gecko', version: 125, os: 'linux' })
    expect(parseUserAgent(UA.safari)).toMatchObject({ family: 'safari', engine: 'webkit', version: 17, os: 'mac' })
  })
  test('treats every iOS browser as WebKit', () => {
    expect(parseUserAgent(UA.chromeIos)).toMatchObject({ family: 'chrome', engine: 'webkit', os: 'ios', mobile: true, version: 124 })
  })
  test('reads Android phones as mobile', () => {
    expect(parseUserAgent(UA.chromeAndroid)).toMatchObject({ os: 'android', mobile: true })
  })
  test('names HTTP libraries, PhantomJS, crawlers and empty strings as tools', () => {
    expect(parseUserAgent('curl/8.5.0')).toMatchObject({ family: 'tool', tool: 'curl' })
    expect(parseUserAgent('python-requests/2.31.0')).toMatchObject({ family: 'tool', tool: 'python' })
    expect(parseUserAgent(UA.phantom)).toMatchObject({ family: 'tool', tool: 'phantomjs', headless: true })
    expect(parseUserAgent(UA.googlebot)).toMatchObject({ family: 'tool', tool: 'bot' })
    expect(parseUserAgent('')).toMatchObject({ family: 'tool', tool: 'empty' })
  })
  test('does not mistake a phone model ending in "bot" for a crawler', () => {
    expect(parseUserAgent(UA.cubot).family).toBe('chrome')
  })
})

describe('brand lists', () => {
  test('parses Sec-CH-UA with escapes and the GREASE brand', () => {
    expect(parseBrandList('"Not:A-Brand";v="8", "Chromium";v="156"')).toEqual([
      { brand: 'Not:A-Brand', version: '8' },
      { brand: 'Chromium', version: '156' },
    ])
    expect(parseBrandList('" Not\\"A;Brand";v="99"')).toEqual([{ brand: ' Not"A;Brand', version: '99' }])
    expect(parseBrandList('')).toEqual([])
  })
  test('rejects values that are not brand lists', () => {
    expect(parseBrandList('Chromium 124')).toBeNull()
    expect(parseBrandList('"Chromium";v=124')).toBeNull()
  })
  test('recognises the GREASE spellings', () => {
    for (const b of ['Not A(Brand', 'Not:A-Brand', 'Not/A)Brand', ';Not A Brand', 'Not_A Brand', 'Not)A;Brand']) expect(isGreaseBrand(b)).toBe(true)
    expect(isGreaseBrand('Chromium')).toBe(false)
  })
  test('picks the most specific brand', () => {
    const chrome = [{ brand: 'Chromium', version: '124' }, { brand: 'Google Chrome', version: '124' }, { brand: 'Not-A.Brand', version: '99' }]
    expect(brandsClaim(chrome)).toEqual({ family: 'chrome', version: 124, grease: true, headless: false })
    expect(brandsClaim([{ brand: 'Chromium', version: '156' }])).toEqual({ family: 'chromium', version: 156, grease: false, headless: false })
    expect(brandsClaim([{ brand: 'HeadlessChrome', version: '120' }]).headless).toBe(true)
  })
  test('lets every Chromium fork show just "Chromium"', () => {
    expect(familiesAgree('chrome', 'chromium')).toBe(true)
    expect(familiesAgree('chrome', 'brave')).toBe(true)
    expect(familiesAgree('edge', 'chrome')).toBe(false)
    expect(familiesAgree('firefox', 'chromium')).toBe(false)
  })
  test('parses Structured Field strings and booleans', () => {
    expect(parseSfString('"x86"')).toBe('x86')
    expect(parseSfString('""')).toBe('')
    expect(parseSfString('x86')).toBeNull()
    expect(parseSfBoolean('?1')).toBe(true)
    expect(parseSfBoolean('?0')).toBe(false)
    expect(parseSfBoolean('1')).toBeNull()
  })
})

describe('uaHintMismatches', () => {
  const chromeBrands = [{ brand: 'Google Chrome', version: '124' }, { brand: 'Chromium', version: '124' }, { brand: 'Not-A.Brand', version: '99' }]
  test('is empty for a consistent Chrome', () => {
    expect(uaHintMismatches(parseUserAgent(UA.chromeWin), { brands: chromeBrands, platform: 'Windows', mobile: false })).toEqual([])
  })
  test('is empty for Opera, whose own brand version differs from Chromium', () => {
    const brands = [{ brand: 'Opera', version: '108' }, { brand: 'Chromium', version: '122' }, { brand: 'Not(A:Brand', version: '24' }]
    expect(uaHintMismatches(parseUserAgent(UA.opera), { brands, platform: 'Windows', mobile: false })).toEqual([])
  })
  test('names a spoofed version, OS and mobile flag', () => {
    const m = uaHintMismatches(parseUserAgent(UA.chromeWin), { brands: [{ brand: 'Chromium', version: '156' }], platform: 'Linux', mobile: true })
    expect(m).toHaveLength(3)
    expect(m[0]).toContain('version 124')
  })
  test('names a Firefox User-Agent next to Chromium hints', () => {
    expect(uaHintMismatches(parseUserAgent(UA.firefox), { brands: chromeBrands })[0]).toContain('firefox')
  })
})

describe('engineClaim', () => {
  const WIN_CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
  const MAC_SAFARI = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15'
  const IOS_CHROME = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/124.0.6367.88 Mobile/15E148 Safari/604.1'
  const ANDROID = 'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36'
  const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0'
  const HEADLESS = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36'
  const EDGE = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Edg/120.0.2210.91'

  test('parses OS, engine and engine version', () => {
    expect(engineClaim(WIN_CHROME)).toEqual({ os: 'windows', engine: 'blink', browser: 'chrome', major: 131, mobile: false })
    expect(engineClaim(MAC_SAFARI)).toEqual({ os: 'mac', engine: 'webkit', browser: 'safari', major: 17, mobile: false })
    expect(engineClaim(IOS_CHROME)).toMatchObject({ os: 'ios', engine: 'webkit', browser: 'chrome', mobile: true })
    expect(engineClaim(ANDROID)).toMatchObject({ os: 'android', engine: 'blink', major: 124, mobile: true })
    expect(engineClaim(FIREFOX)).toEqual({ os: 'linux', engine: 'gecko', browser: 'firefox', major: 128, mobile: false })
    expect(engineClaim(HEADLESS)).toMatchObject({ os: 'linux', engine: 'blink', browser: 'headless-chrome', major: 156 })
    expect(engineClaim(EDGE)).toMatchObject({ engine: 'blink', browser: 'edge', major: 120 })
    expect(engineClaim('curl/8.5.0')).toEqual({ os: 'unknown', engine: 'unknown', browser: 'unknown', major: null, mobile: false })
  })
})
