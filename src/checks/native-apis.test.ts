import { describe, expect, test } from 'bun:test'
import { isAutomationApi } from './native-apis'

describe('native APIs', () => {
  test('automation APIs are told apart from fingerprinting APIs', () => {
    expect(isAutomationApi('Navigator.webdriver')).toBe(true)
    expect(isAutomationApi('Function.toString')).toBe(true)
    expect(isAutomationApi('window.outerHeight')).toBe(true)
    expect(isAutomationApi('Navigator.userAgent')).toBe(false)
    // puppeteer-real-browser redefines these to hide CDP's Input.dispatchMouseEvent coordinates.
    expect(isAutomationApi('MouseEvent.screenX')).toBe(true)
    expect(isAutomationApi('MouseEvent.screenY')).toBe(true)
    expect(isAutomationApi('MouseEvent.clientX')).toBe(false)
    expect(isAutomationApi('HTMLCanvasElement.toDataURL')).toBe(false)
    expect(isAutomationApi('console.debug')).toBe(false)
  })
})
