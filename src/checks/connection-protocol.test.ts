import { describe, expect, test } from 'bun:test'
import type { TlsFingerprintSignals } from '../../common/signals/tls-fingerprint'
import { runChecks } from '../core/judge'
import { nextHopProtocol } from './connection-protocol'

const CHROME_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36'

describe('next-hop-protocol', () => {
  const stack = (pageProtocol: string, p: string | null) => ({ stack: { ok: true, value: { pageProtocol, secureContext: pageProtocol === 'https:', navigationProtocol: p, fetchProtocol: p, navigationTls: pageProtocol === 'https:' }, ms: 1 } }) as unknown as TlsFingerprintSignals
  const hop = (s: TlsFingerprintSignals) => runChecks([[nextHopProtocol, 15]], s, { ip: '192.0.2.1', userAgent: CHROME_UA, headers: [], receivedAt: 0 }, {}).checks[0]!.verdict
  test('h2 over https: passes; h2 over plain http: is a lie; a hidden protocol is na', () => {
    expect(hop(stack('https:', 'h2'))).toBe('pass')
    expect(hop(stack('http:', 'h2'))).toBe('fail')
    expect(hop(stack('https:', null))).toBe('na')
  })
})
