import { describe, expect, test } from 'bun:test'
import { server, browserIn, byId, judge } from '../core/tools/timezone-geo.fixture'

describe('preferred-languages: navigator.languages against the Intl locale and Accept-Language', () => {
  test('timezone-geo judges Accept-Language with the one accept-language-vs-languages: the same list passes, another fails, a reduced header warns, none is na', () => {
    const id = 'accept-language-vs-languages'
    expect(byId(judge(browserIn('Europe/Berlin')).checks, id).verdict).toBe('pass')
    expect(byId(judge(browserIn('Europe/Berlin'), server('en-US,en;q=0.9')).checks, id).verdict).toBe('fail')
    expect(byId(judge(browserIn('Europe/Berlin'), server('de,en;q=0.5')).checks, id).verdict).toBe('fail')
    expect(byId(judge(browserIn('Europe/Berlin'), server('de-DE')).checks, id).verdict).toBe('warn')
    expect(byId(judge(browserIn('Europe/Berlin'), server(null)).checks, id).verdict).toBe('na')
    expect(byId(judge(browserIn('Europe/Berlin')).checks, id).source).toBe('server')
  })
})
