import { describe, expect, test } from 'bun:test'
import { runChecks } from '../core/judge'
import { uaHeaderVsNavigator } from './ua-header'

const UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36'
const run = (header: string, navigatorUa: string) =>
  runChecks([[uaHeaderVsNavigator, 40]], { navigator: { ok: true as const, value: { userAgent: navigatorUa }, ms: 1 } }, { ip: '192.0.2.1', userAgent: header, headers: [['user-agent', header]], receivedAt: 0 }, {}).checks[0]!

describe('ua-header-vs-navigator', () => {
  test('passes identical strings', () => {
    expect(run(UA, UA)).toMatchObject({ verdict: 'pass', observed: 'identical' })
  })
  test('fails a header other than navigator.userAgent, showing both', () => {
    expect(run(UA.replace('124', '120'), UA)).toMatchObject({ verdict: 'fail', observed: { header: UA.replace('124', '120'), navigator: UA } })
  })
})
