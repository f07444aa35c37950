import { describe, expect, test } from 'bun:test'
import { humanChrome, JSC, judge, ok, SPIDERMONKEY } from '../core/tools/bot-detector.fixture'
import { isAutomationApi, isEngineDataProperty } from './native-apis'

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

  test("JavaScriptCore's own data property Notification.permission is no lie there, and only there", () => {
    const valueOnly = { api: 'Notification.permission', tests: ['value'] }
    expect(isEngineDataProperty(valueOnly, 'webkit')).toBe(true)
    expect(isEngineDataProperty(valueOnly, 'blink')).toBe(false)
    expect(isEngineDataProperty(valueOnly, 'gecko')).toBe(false)
    expect(isEngineDataProperty(valueOnly, 'unknown')).toBe(false)
    // A getter put there by a stealth patch fails the other tests on every engine.
    expect(isEngineDataProperty({ api: 'Notification.permission', tests: ['toString', 'prototype'] }, 'webkit')).toBe(false)
    expect(isEngineDataProperty({ api: 'Navigator.webdriver', tests: ['value'] }, 'webkit')).toBe(false)
  })
})

describe('stealth-lies by the engine the page runs on', () => {
  // What GNOME Web (WebKitGTK 2.50) reports: Notification.permission is a data property.
  const withNotificationValue = (engine: typeof JSC) => {
    const s = humanChrome()
    s.lies = ok({ tested: 50, lies: [{ api: 'Notification.permission', tests: ['value'] }] })
    s.engine = ok(engine)
    return judge(s).byId('stealth-lies')
  }

  test('passes on JavaScriptCore and says why in the expectation', () => {
    const c = withNotificationValue(JSC)
    expect(c.verdict).toBe('pass')
    expect(c.expected).toContain('Notification.permission a data property, as the engine defines it')
    expect(c.expected).toContain('judged by JavaScriptCore (WebKit)')
  })

  test('fails on SpiderMonkey and V8, whose Notification.permission is a getter', () => {
    expect(withNotificationValue(SPIDERMONKEY).verdict).toBe('fail')
    const s = humanChrome()
    s.lies = ok({ tested: 50, lies: [{ api: 'Notification.permission', tests: ['value'] }] })
    expect(judge(s).byId('stealth-lies')).toMatchObject({ verdict: 'fail', observed: ['Notification.permission: value'] })
  })

  test('a patched getter on JavaScriptCore still fails', () => {
    const s = humanChrome()
    s.lies = ok({ tested: 50, lies: [{ api: 'Notification.permission', tests: ['toString', 'own-keys'] }] })
    s.engine = ok(JSC)
    expect(judge(s).byId('stealth-lies').verdict).toBe('fail')
  })
})
