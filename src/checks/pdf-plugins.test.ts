import { describe, expect, test } from 'bun:test'
import { desktopChrome, PDF, plain, requestFrom, runOne, twice } from '../core/tools/browser-fingerprint.fixture'
import { SPIDERMONKEY } from '../core/tools/bot-detector.fixture'
import { fpPlugins } from './pdf-plugins'

const ANDROID_UA = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36'

describe('fp-plugins', () => {
  test('passes the five PDF viewers, and none on a phone', () => {
    expect(runOne(fpPlugins).verdict).toBe('pass')
    const s = desktopChrome()
    s.navigator = twice({ userAgent: ANDROID_UA, appVersion: ANDROID_UA.slice(8), platform: 'Linux armv8l', vendor: 'Google Inc.', productSub: '20030107', oscpu: null, cpuClass: null })
    s.plugins = twice({ plugins: [], mimeTypes: 0, pdfViewerEnabled: false, nativePrototypes: true })
    expect(runOne(fpPlugins, s, requestFrom(ANDROID_UA)).verdict).toBe('pass')
  })
  test('warns on one inconsistency and fails on a list that is not a PluginArray', () => {
    const s = desktopChrome()
    s.plugins = twice({ plugins: PDF, mimeTypes: 2, pdfViewerEnabled: false, nativePrototypes: true })
    expect(runOne(fpPlugins, s)).toMatchObject({ verdict: 'warn', observed: 'pdfViewerEnabled false with 5 plugins' })
    s.plugins = twice({ plugins: PDF, mimeTypes: 2, pdfViewerEnabled: true, nativePrototypes: false })
    expect(runOne(fpPlugins, s).verdict).toBe('fail')
  })
  test('an empty list on a desktop warns on V8 only (old headless Chromium), judged by the engine the page runs on', () => {
    const s = desktopChrome()
    s.plugins = twice({ plugins: [], mimeTypes: 0, pdfViewerEnabled: null, nativePrototypes: true })
    expect(runOne(fpPlugins, s)).toMatchObject({ verdict: 'warn', observed: 'no plugins on a desktop V8 (Blink) engine (old headless mode)', expected: expect.stringContaining("judged by V8 (Blink), the engine the page's error messages show") })
    s.engine = plain(SPIDERMONKEY)
    expect(runOne(fpPlugins, s)).toMatchObject({ verdict: 'pass', expected: expect.stringContaining('judged by SpiderMonkey (Gecko)') })
  })
})
