// A slow device stays truthful (issue 36): a probe that timed out — the page's per-signal
// timeout (probes/core/collect.ts), or a probe's own wait such as the nested frame of the
// storage-partition probe — makes the checks that need it `na`, and never turns a person's
// check into a failed one. Each person below (the tools' own fixtures, recorded from real
// browsers) is judged once as recorded, then with each signal timed out in turn, then with all
// of them timed out at once.

import { describe, expect, test } from 'bun:test'
import type { ToolId } from '../../../common/tools'
import type { JudgeContext } from '../../checks/define'
import type { Check } from '../scoring'
import type { ServerObservation } from './observation'
import { TOOL_DEFINITIONS } from './registry'
import { chromeServer, humanChrome, linuxChromium, CHROME_UA, LINUX_UA, CHROMIUM_HINTS } from './bot-detector.fixture'
import { desktopChrome, defaultFirefox, requestFrom } from './browser-fingerprint.fixture'
import { CHROMIUM_PERSON, CHROMIUM_UA, FIREFOX_PERSON, FIREFOX_UA, server as canvasServer } from './canvas-fingerprint.fixture'
import { signals as dnsSignals, server as dnsServer } from './dns-leak.fixture'
import { signals as windowsFonts, server as fontServer, WIN_CHROME } from './font-detection.fixture'
import { chromium156 as permissionsChromium, firefox153 as permissionsFirefox, CHROMIUM_156_UA, FIREFOX_153_UA } from './permissions-api.fixture'
import { chromium156 as screenChromium, firefox153 as screenFirefox, CHROMIUM_156_SERVER, FIREFOX_153_SERVER } from './screen-display.fixture'
import { browserIn, server as zoneServer } from './timezone-geo.fixture'
import { ice, MDNS_A, nativeApi, devices, server as webrtcServer } from './webrtc-leak.fixture'

interface Person {
  tool: ToolId
  who: string
  signals: Record<string, unknown>
  server: ServerObservation
  ctx?: JudgeContext
}

const observed = (userAgent: string): ServerObservation => ({ ip: '203.0.113.7', userAgent, headers: [['user-agent', userAgent]], receivedAt: 1_800_000_000_000 })

/** Chrome's POST of a task, its headers in Chrome's order (as src/core/tools/http-headers.test.ts has them). */
function chromePost(): ServerObservation {
  const headers: Array<[string, string]> = [
    ['host', 'antibot.example'], ['connection', 'keep-alive'], ['content-length', '900'],
    ['sec-ch-ua-platform', '"Windows"'], ['user-agent', CHROME_UA], ['sec-ch-ua', '"Google Chrome";v="131", "Chromium";v="131", "Not_A Brand";v="24"'],
    ['content-type', 'application/json'], ['sec-ch-ua-mobile', '?0'], ['accept', '*/*'], ['origin', 'https://antibot.example'],
    ['sec-fetch-site', 'same-origin'], ['sec-fetch-mode', 'cors'], ['sec-fetch-dest', 'empty'], ['referer', 'https://antibot.example/tools/x'],
    ['accept-encoding', 'gzip, deflate, br, zstd'], ['accept-language', 'en-US,en;q=0.9'],
  ]
  return { ip: '203.0.113.7', userAgent: CHROME_UA, headers, receivedAt: Date.UTC(2025, 0, 1) }
}

const PEOPLE: Person[] = [
  { tool: 'bot-detector', who: 'Chrome on Windows', signals: humanChrome(), server: chromeServer() },
  { tool: 'bot-detector', who: 'Chromium on Linux', signals: linuxChromium(), server: chromeServer(LINUX_UA, CHROMIUM_HINTS) },
  { tool: 'browser-fingerprint', who: 'Chrome on Windows', signals: desktopChrome(), server: requestFrom() },
  { tool: 'browser-fingerprint', who: 'Firefox', signals: defaultFirefox(), server: requestFrom('Mozilla/5.0 (X11; Linux x86_64; rv:153.0) Gecko/20100101 Firefox/153.0') },
  { tool: 'canvas-fingerprint', who: 'Chromium', signals: CHROMIUM_PERSON, server: canvasServer(CHROMIUM_UA) },
  { tool: 'canvas-fingerprint', who: 'Firefox', signals: FIREFOX_PERSON, server: canvasServer(FIREFOX_UA) },
  { tool: 'dns-leak', who: 'Chrome', signals: dnsSignals, server: dnsServer('81.2.69.160') },
  { tool: 'font-detection', who: 'Chrome on Windows', signals: windowsFonts(), server: fontServer(WIN_CHROME) },
  { tool: 'permissions-api', who: 'Chromium 156', signals: permissionsChromium(), server: observed(CHROMIUM_156_UA) },
  { tool: 'permissions-api', who: 'Firefox 153', signals: permissionsFirefox(), server: observed(FIREFOX_153_UA) },
  { tool: 'screen-display', who: 'Chromium 156', signals: screenChromium(), server: CHROMIUM_156_SERVER },
  { tool: 'screen-display', who: 'Firefox 153', signals: screenFirefox(), server: FIREFOX_153_SERVER },
  { tool: 'timezone-geo', who: 'Chrome in Berlin', signals: browserIn('Europe/Berlin'), server: zoneServer() },
  { tool: 'webrtc-leak', who: 'Chrome', signals: { api: nativeApi, ice: ice([MDNS_A]), devices: devices(1, 1, 1) }, server: webrtcServer('81.2.69.160') },
]

const TIMED_OUT = { ok: false as const, error: { kind: 'timeout' as const, message: 'no answer within 3000 ms' }, ms: 3000 }

function judged(p: Person, signals: Record<string, unknown>): Check[] {
  return TOOL_DEFINITIONS[p.tool].judge(signals as never, p.server, p.ctx ?? {}).checks
}
const verdictOf = (checks: Check[]) => new Map(checks.map((c) => [c.id, c.verdict]))
/** The checks that fail now but did not as recorded, with what they said. */
function newlyFailed(before: Check[], after: Check[]): string[] {
  const was = verdictOf(before)
  return after.filter((c) => c.verdict === 'fail' && was.get(c.id) !== 'fail').map((c) => `${c.id}: ${String(c.observed)}`)
}
const needsOf = (tool: ToolId) => new Map(TOOL_DEFINITIONS[tool].checks.map(([def]) => [def.id, def.needs as readonly string[]]))

describe('a probe that timed out', () => {
  for (const p of PEOPLE) {
    test(`${p.tool}, ${p.who}: each signal timed out in turn makes its checks na and fails nothing`, () => {
      const before = judged(p, p.signals)
      const needs = needsOf(p.tool)
      for (const name of Object.keys(p.signals)) {
        const after = judged(p, { ...p.signals, [name]: TIMED_OUT })
        expect({ name, failed: newlyFailed(before, after) }).toEqual({ name, failed: [] })
        const notNa = after.filter((c) => needs.get(c.id)?.includes(name) && c.verdict !== 'na').map((c) => c.id)
        expect({ name, notNa }).toEqual({ name, notNa: [] })
        for (const c of after.filter((c) => needs.get(c.id)?.includes(name))) expect(c.expected).toContain('timeout: no answer within 3000 ms')
      }
    })
    test(`${p.tool}, ${p.who}: every signal timed out at once fails nothing`, () => {
      const before = judged(p, p.signals)
      const all = Object.fromEntries(Object.keys(p.signals).map((n) => [n, TIMED_OUT]))
      expect(newlyFailed(before, judged(p, all))).toEqual([])
    })
  }

  // The tools without a person's fixture: every signal their schema declares timed out, for a
  // Chrome whose request the server saw as a person's.
  for (const tool of Object.keys(TOOL_DEFINITIONS) as ToolId[]) {
    test(`${tool}: a page whose every probe timed out fails no check`, () => {
      const props = (TOOL_DEFINITIONS[tool].signals as { properties?: Record<string, unknown> }).properties ?? {}
      const all = Object.fromEntries(Object.keys(props).map((n) => [n, TIMED_OUT]))
      expect(Object.keys(all).length).toBeGreaterThan(0)
      const checks = TOOL_DEFINITIONS[tool].judge(all as never, chromePost(), {}).checks
      expect(checks.filter((c) => c.verdict === 'fail').map((c) => `${c.id}: ${JSON.stringify(c.observed)}`)).toEqual([])
    })
  }

  test('the storage-partition probe timing out makes storage-partitioning na on Chromium, which fails when the nested frame shares storage', () => {
    const person = { tool: 'bot-detector' as const, who: '', signals: linuxChromium(), server: chromeServer(LINUX_UA, CHROMIUM_HINTS) }
    const partitionTimeout = { ok: false as const, error: { kind: 'timeout' as const, message: 'the nested frame did not load within 2500 ms' }, ms: 2504 }
    const check = (partition: unknown) => judged(person, { ...person.signals, partition }).find((c) => c.id === 'storage-partitioning')!
    expect(check(partitionTimeout).verdict).toBe('na')
    expect(check(partitionTimeout).expected).toBe('timeout: the nested frame did not load within 2500 ms')
    expect(check(TIMED_OUT).verdict).toBe('na')
    // The control: the same person with Playwright's switch (a shared nested frame) fails.
    expect(check({ ok: true, value: { state: 'shared', error: null, withResolvers: true }, ms: 40 }).verdict).toBe('fail')
  })
})
