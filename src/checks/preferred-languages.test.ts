import { describe, expect, test } from 'bun:test'
import { server, browserIn, byId, judge } from '../core/tools/timezone-geo.fixture'

describe('preferred-languages: navigator.languages against the Intl locale and Accept-Language', () => {
  test('Accept-Language: same first language passes, another base fails, missing header warns', () => {
    expect(byId(judge(browserIn('Europe/Berlin')).checks, 'accept-language-match').verdict).toBe('pass')
    expect(byId(judge(browserIn('Europe/Berlin'), server('en-US,en;q=0.9')).checks, 'accept-language-match').verdict).toBe('fail')
    expect(byId(judge(browserIn('Europe/Berlin'), server('de,en;q=0.5')).checks, 'accept-language-match').verdict).toBe('warn')
    expect(byId(judge(browserIn('Europe/Berlin'), server(null)).checks, 'accept-language-match').verdict).toBe('warn')
    const accepted = byId(judge(browserIn('Europe/Berlin')).checks, 'accept-language-match')
    expect(accepted.source).toBe('server')
  })
})
