import { describe, expect, test } from 'bun:test'
import { humanChrome, judge, missing, ok, SPIDERMONKEY } from '../core/tools/bot-detector.fixture'

// What Chromium 156 launched by Playwright or patchright reported (--disable-features=ThirdPartyStoragePartitioning).
const DENIED = { state: 'denied', error: "SecurityError: Failed to read the 'localStorage' property from 'Window': Access is denied for this document.", withResolvers: true } as const
const ANDROID_UA = 'Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/AP1A; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/156.0.0.0 Mobile Safari/537.36'

describe('storage-partitioning', () => {
  test('partitioned storage passes; refused or shared storage on Blink fails as a launch flag, alone enough for bot', () => {
    const s = humanChrome()
    expect(judge(s).byId('storage-partitioning').verdict).toBe('pass')
    s.partition = ok(DENIED)
    const r = judge(s)
    expect(r.byId('storage-partitioning').verdict).toBe('fail')
    expect(r.byId('storage-partitioning').observed).toContain('refused localStorage (SecurityError')
    expect(r.byId('storage-partitioning').expected).toBe("its own, partitioned localStorage (judged by V8 (Blink), the engine the page's error messages show)")
    expect(r.sections.frameworks).toEqual(['automation-flags'])
    expect(r.sections.verdict).toBe('bot')
    s.partition = ok({ state: 'shared', error: null, withResolvers: true })
    expect(judge(s).byId('storage-partitioning').observed).toContain("shares the page's localStorage")
    expect(judge(s).byId('storage-partitioning').verdict).toBe('fail')
  })

  test('judged by the engine the page runs on: unpartitioned storage on SpiderMonkey is not applicable whatever the user agent says', () => {
    const s = humanChrome()
    s.engine = ok(SPIDERMONKEY)
    s.partition = ok({ state: 'shared', error: null, withResolvers: true })
    const c = judge(s).byId('storage-partitioning')
    expect(c.verdict).toBe('na')
    expect(c.expected).toContain("judged by SpiderMonkey (Gecko), the engine the page's error messages show")
    s.partition = ok({ state: 'partitioned', error: null, withResolvers: true })
    expect(judge(s).byId('storage-partitioning').verdict).toBe('pass')
    s.engine = missing()
    s.partition = ok(DENIED)
    expect(judge(s).byId('storage-partitioning')).toMatchObject({ verdict: 'na', expected: expect.stringContaining('the page did not report its error messages') })
  })

  test('an old Blink (before Promise.withResolvers) is not applicable; Android (WebView in apps) only warns; no signal is not applicable', () => {
    const s = humanChrome()
    s.partition = ok({ ...DENIED, withResolvers: false })
    expect(judge(s).byId('storage-partitioning').verdict).toBe('na')
    s.partition = ok(DENIED)
    if (!s.navigator.ok) throw new Error('the fixture has a navigator')
    s.navigator = ok({ ...s.navigator.value, userAgent: ANDROID_UA })
    expect(judge(s).byId('storage-partitioning').verdict).toBe('warn')
    s.partition = missing()
    expect(judge(s).byId('storage-partitioning').verdict).toBe('na')
  })
})
