import { describe, expect, test } from 'bun:test'
import { runChecks } from '../core/judge'
import type { ServerObservation } from '../core/tools/observation'
import { parseSyn, type SynRecord } from '../evidence/tcp-syn'
import { tcpSynOs } from './tcp-syn-os'

const WINDOWS_CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36'
const LINUX_CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36'
const ANDROID_CHROME = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36'
const MAC_SAFARI = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15'
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1'

const tcp = (ttl: number, window: number, options: number[]): SynRecord => {
  const opts = [...options]
  while (opts.length % 4) opts.push(0)
  const t = [0, 80, 1, 187, 0, 0, 0, 1, 0, 0, 0, 0, ((20 + opts.length) / 4) << 4, 2, window >> 8, window & 0xff, 0, 0, 0, 0, ...opts]
  return parseSyn(Uint8Array.from([0x45, 0, 0, 20 + t.length, 0, 0, 0x40, 0, ttl, 6, 0, 0, 10, 0, 0, 1, 10, 0, 0, 2, ...t]))!
}
const WINDOWS = tcp(120, 64240, [2, 4, 5, 180, 1, 3, 3, 8, 1, 1, 4, 2])
const LINUX = tcp(61, 64240, [2, 4, 5, 180, 4, 2, 8, 10, 0, 0, 0, 1, 0, 0, 0, 0, 1, 3, 3, 7])
const APPLE = tcp(58, 65535, [2, 4, 5, 180, 1, 3, 3, 6, 1, 1, 8, 10, 0, 0, 0, 1, 0, 0, 0, 0, 4, 2, 0])
const TUNED = tcp(250, 8192, [2, 4, 5, 180])

const TLS = { ja4: 't13d1516h2_8daaf6152771_d8a2da3f94cd', ja3n_hash: 'x', ciphers: [], extensions: [], alpn: ['h2'] }
const obs = (ua: string, syn: SynRecord | null, o: { proxy?: boolean; headers?: Array<[string, string]> } = {}): ServerObservation => ({
  ip: '81.2.69.23',
  userAgent: ua,
  headers: [['user-agent', ua], ...(o.headers ?? [])],
  receivedAt: 0,
  evidence: [{ kind: 'tls', data: { ...TLS, syn: syn && { ...syn, proxy: !!o.proxy } }, observedAt: 'x' }],
})
const judge = (o: ServerObservation, signals: Record<string, unknown> = {}) => runChecks([[tcpSynOs, 30]], signals, o, {}).checks[0]!

describe('tcp-syn-os', () => {
  test('each claimed operating system over its own kernel passes', () => {
    for (const [ua, syn] of [
      [WINDOWS_CHROME, WINDOWS],
      [LINUX_CHROME, LINUX],
      [ANDROID_CHROME, LINUX],
      [MAC_SAFARI, APPLE],
      [IPHONE, APPLE],
    ] as const) expect(judge(obs(ua, syn)).verdict, ua).toBe('pass')
  })
  test('a browser claiming Windows over a Linux stack warns (never fails: a TCP-terminating middlebox does the same to a person)', () => {
    const c = judge(obs(WINDOWS_CHROME, LINUX))
    expect(c.verdict).toBe('warn')
    expect(c.observed).toBe('JA4T 64240_2-4-8-1-3_1460_7, TTL 61 (initial 64, 3 hops): Linux or Android, not Windows — another machine\'s kernel, or a middlebox that terminates TCP in between')
    expect(c.expected).toBe('a Windows SYN, as the claimed windows sends')
    expect(judge(obs(IPHONE, WINDOWS)).verdict).toBe('warn')
    expect(judge(obs(MAC_SAFARI, LINUX)).verdict).toBe('warn')
  })
  test('Sec-CH-UA-Platform names the system when the User-Agent does not', () => {
    expect(judge(obs('Mozilla/5.0', LINUX, { headers: [['sec-ch-ua-platform', '"Windows"']] })).verdict).toBe('warn')
    expect(judge(obs('Mozilla/5.0', WINDOWS, { headers: [['sec-ch-ua-platform', '"Windows"']] })).verdict).toBe('pass')
  })
  test("the page's navigator.platform names it when neither header does (bot-detector's signals)", () => {
    const nav = (platform: string) => ({ navigator: { ok: true, value: { platform }, ms: 1 } })
    expect(judge(obs('Mozilla/5.0', LINUX), nav('Win32')).verdict).toBe('warn')
    expect(judge(obs('Mozilla/5.0', LINUX), nav('Linux x86_64')).verdict).toBe('pass')
    expect(judge(obs('Mozilla/5.0', APPLE), nav('MacIntel')).verdict).toBe('pass')
    // The User-Agent header comes first.
    expect(judge(obs(LINUX_CHROME, LINUX), nav('Win32')).verdict).toBe('pass')
  })
  test('not judged: no SYN, a trusted proxy\'s SYN, no claimed system; a stack of no known default passes, said so', () => {
    expect(judge(obs(WINDOWS_CHROME, null))).toMatchObject({ verdict: 'na', expected: expect.stringContaining('TCP_SAVE_SYN') })
    expect(judge(obs(WINDOWS_CHROME, LINUX, { proxy: true }))).toMatchObject({ verdict: 'na', observed: expect.stringContaining('trusted proxy') })
    expect(judge(obs('curl/8.5.0', LINUX)).verdict).toBe('na')
    expect(judge(obs(WINDOWS_CHROME, TUNED))).toMatchObject({ verdict: 'pass', observed: expect.stringContaining('no known default stack') })
  })
})
