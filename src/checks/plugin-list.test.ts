import { describe, expect, test } from 'bun:test'
import { ok, PDF_PLUGINS, humanChrome, judge } from '../core/tools/bot-detector.fixture'

describe('plugins in bot-detector', () => {
  test('plugins: fake arrays fail, none with a PDF viewer fails, none on a desktop warns, none on mobile passes', () => {
    const s = humanChrome()
    s.plugins = ok({ plugins: PDF_PLUGINS, mimeTypes: 2, pdfViewerEnabled: true, nativePrototypes: false })
    expect(judge(s).byId('plugins').verdict).toBe('fail')
    s.plugins = ok({ plugins: [], mimeTypes: 0, pdfViewerEnabled: true, nativePrototypes: true })
    expect(judge(s).byId('plugins').verdict).toBe('fail')
    s.plugins = ok({ plugins: [], mimeTypes: 0, pdfViewerEnabled: false, nativePrototypes: true })
    expect(judge(s).byId('plugins').verdict).toBe('warn')
    const android = 'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36'
    s.navigator = ok({ ...(s.navigator.ok ? s.navigator.value : ({} as never)), userAgent: android })
    expect(judge(s).byId('plugins').verdict).toBe('pass')
  })
})
