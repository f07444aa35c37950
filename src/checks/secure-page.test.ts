import { describe, expect, test } from 'bun:test'
import { securePage } from './secure-page'

const context = (secureContext: boolean, protocol: string, hostname: string) => ({ secureContext, protocol, hostname })
const CHROME_UA_DATA = { brands: [{ brand: 'Google Chrome', version: '131' }, { brand: 'Chromium', version: '131' }, { brand: 'Not_A Brand', version: '24' }], mobile: false, platform: 'Windows', high: null, highError: null }

describe('securePage', () => {
  test("a person's Chrome on an https: page is in a secure context", () => {
    expect(securePage({ context: context(true, 'https:', 'antibot.example'), uaData: CHROME_UA_DATA })).toBe(true)
  })

  test("Firefox (no userAgentData) takes the page's word: https: is secure", () => {
    expect(securePage({ context: context(true, 'https:', 'antibot.example') })).toBe(true)
  })

  test('http://localhost is a secure context, plain http: elsewhere is not', () => {
    expect(securePage({ context: context(true, 'http:', 'localhost') })).toBe(true)
    expect(securePage({ context: context(false, 'http:', 'antibot.example') })).toBe(false)
  })

  test("the page's own word wins over a userAgentData object", () => {
    // A script can define navigator.userAgentData anywhere; the context signal is what decides.
    expect(securePage({ context: context(false, 'http:', 'antibot.example'), uaData: CHROME_UA_DATA })).toBe(false)
  })

  test('without the context signal, userAgentData (secure contexts only in Chromium) implies a secure page', () => {
    expect(securePage({ uaData: CHROME_UA_DATA })).toBe(true)
    // Firefox and Safari never have userAgentData: without the context signal nothing shows the page is secure.
    expect(securePage({})).toBe(false)
  })
})
