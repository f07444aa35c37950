import { describe, expect, test } from 'bun:test'
import { isAutomationApi } from './native-apis'

describe('native APIs', () => {
  test('automation APIs are told apart from fingerprinting APIs', () => {
    expect(isAutomationApi('Navigator.webdriver')).toBe(true)
    expect(isAutomationApi('Function.toString')).toBe(true)
    expect(isAutomationApi('window.outerHeight')).toBe(true)
    expect(isAutomationApi('Navigator.userAgent')).toBe(false)
    expect(isAutomationApi('HTMLCanvasElement.toDataURL')).toBe(false)
    expect(isAutomationApi('console.debug')).toBe(false)
  })
})
