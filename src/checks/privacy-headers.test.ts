import { describe, expect, test } from 'bun:test'
import type { HttpHeadersSignals } from '../../common/signals/http-headers'
import { runChecks } from '../core/judge'
import { dntHeader, gpcHeader } from './privacy-headers'

const run = (privacy: { globalPrivacyControl: boolean | null; doNotTrack: string | null }, headers: Array<[string, string]>) =>
  runChecks([[dntHeader, 10], [gpcHeader, 10]], { privacy: { ok: true, value: privacy, ms: 1 } } as unknown as HttpHeadersSignals, { ip: '192.0.2.1', userAgent: 'x', headers, receivedAt: 0 }, {}).checks.map((c) => c.verdict)

describe('dnt-header and gpc-header', () => {
  test('pass when the header and navigator agree, either way', () => {
    expect(run({ globalPrivacyControl: null, doNotTrack: null }, [])).toEqual(['pass', 'pass'])
    expect(run({ globalPrivacyControl: true, doNotTrack: '1' }, [['dnt', '1'], ['sec-gpc', '1']])).toEqual(['pass', 'pass'])
  })
  test('only warn when one side is set without the other (an extension can do that)', () => {
    expect(run({ globalPrivacyControl: true, doNotTrack: '1' }, [])).toEqual(['warn', 'warn'])
    expect(run({ globalPrivacyControl: false, doNotTrack: null }, [['dnt', '1'], ['sec-gpc', '1']])).toEqual(['warn', 'warn'])
  })
})
