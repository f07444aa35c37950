import { describe, expect, test } from 'bun:test'
import type { BotDetectorSignals } from '../../common/signals/bot-detector'
import { runChecks, type WeightedCheck } from '../core/judge'
import { windowChrome, windowFitsScreen } from './window-geometry'
import { ok, humanChrome, judge, SPIDERMONKEY, V8 } from '../core/tools/bot-detector.fixture'

const server = { ip: '203.0.113.7', userAgent: 'x', headers: [], receivedAt: 0 }
const run = (check: WeightedCheck<BotDetectorSignals>[0], s: Partial<BotDetectorSignals>) => {
  const j = runChecks([[check, 10]], s as BotDetectorSignals, server, {})
  return { check: j.checks[0]!, labels: j.labels }
}
const FULL = { width: 1280, height: 720, availWidth: 1280, availHeight: 720, colorDepth: 24 }
const FILLS = { innerWidth: 1280, innerHeight: 720, outerWidth: 1280, outerHeight: 720 }
const gl = (renderer: string) => ok({ vendor: 'WebKit', renderer: 'WebKit WebGL', unmaskedVendor: 'Google Inc.', unmaskedRenderer: renderer })

describe('window geometry', () => {
  test('a window of size 0 fails; one the size of its page only warns (full screen)', () => {
    expect(run(windowChrome, { window: ok({ ...FILLS, outerWidth: 0 }) }).check.verdict).toBe('fail')
    expect(run(windowChrome, { window: ok(FILLS) }).check.verdict).toBe('warn')
  })

  test('Firefox resisting fingerprinting (SpiderMonkey; window, page and screen one size) passes; the same sizes on V8 warn', () => {
    // Firefox ESR 153 with privacy.resistFingerprinting on a 1920×1080 Xvfb screen (issue 11).
    const rfp = { window: ok({ innerWidth: 1400, innerHeight: 900, outerWidth: 1400, outerHeight: 900 }), screen: ok({ width: 1400, height: 900, availWidth: 1400, availHeight: 900, colorDepth: 24 }) }
    const gecko = run(windowChrome, { ...rfp, engine: ok(SPIDERMONKEY) }).check
    expect(gecko.verdict).toBe('pass')
    expect(gecko.expected).toContain("judged by SpiderMonkey (Gecko), the engine the page's error messages show")
    const v8 = run(windowChrome, { ...rfp, engine: ok(V8) }).check
    expect(v8.verdict).toBe('warn')
    expect(v8.expected).toContain('judged by V8 (Blink)')
    expect(run(windowChrome, rfp).check.verdict).toBe('warn')
    expect(run(windowChrome, { ...rfp, engine: ok(SPIDERMONKEY), screen: ok(FULL) }).check.verdict).toBe('warn')
    expect(run(windowChrome, { ...rfp, engine: ok(SPIDERMONKEY), window: ok({ ...FILLS, outerWidth: 0 }) }).check.verdict).toBe('fail')
  })

  test('a chromeless window filling a taskbar-less screen names headless only when drawn without a GPU, and costs nothing', () => {
    const soft = run(windowFitsScreen, { window: ok(FILLS), screen: ok(FULL), webgl: gl('ANGLE (Google, SwiftShader Device)') })
    expect(soft.check.verdict).toBe('pass')
    expect([...soft.labels]).toEqual(['headless'])
    expect([...run(windowFitsScreen, { window: ok(FILLS), screen: ok(FULL), webgl: gl('ANGLE (NVIDIA GeForce RTX 3060)') }).labels]).toEqual([])
  })
})

describe('window geometry in bot-detector', () => {
  test('a window larger than the screen fails (headless keeps an 800×600 screen); maximised borders do not', () => {
    const s = humanChrome()
    s.screen = ok({ width: 800, height: 600, availWidth: 800, availHeight: 600, colorDepth: 24 })
    s.window = ok({ innerWidth: 1400, innerHeight: 813, outerWidth: 1400, outerHeight: 900 })
    expect(judge(s).byId('window-fits-screen').verdict).toBe('fail')
    s.screen = ok({ width: 1920, height: 1080, availWidth: 1920, availHeight: 1040, colorDepth: 24 })
    s.window = ok({ innerWidth: 1920, innerHeight: 945, outerWidth: 1936, outerHeight: 1056 })
    expect(judge(s).byId('window-fits-screen').verdict).toBe('pass')
  })

  test("a person's window larger than a real screen only warns: two monitors, or GNOME Web's 1024×768 on a 960×540 scaled screen", () => {
    const s = humanChrome()
    s.screen = ok({ width: 960, height: 540, availWidth: 960, availHeight: 540, colorDepth: 24 })
    s.window = ok({ innerWidth: 1024, innerHeight: 721, outerWidth: 1024, outerHeight: 768 })
    expect(judge(s).byId('window-fits-screen')).toMatchObject({ verdict: 'warn', observed: 'outer 1024×768, screen 960×540' })
    s.screen = ok({ width: 1920, height: 1080, availWidth: 1920, availHeight: 1040, colorDepth: 24 })
    s.window = ok({ innerWidth: 3200, innerHeight: 945, outerWidth: 3200, outerHeight: 1040 })
    expect(judge(s).byId('window-fits-screen').verdict).toBe('warn')
  })
})
