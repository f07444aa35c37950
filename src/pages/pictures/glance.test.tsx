// The at-a-glance pictures as a report draws them from real judged results: bot-detector on
// Playwright's headless Chromium, ip-leak and vpn-detector behind a British home line,
// timezone-geo in Berlin behind a US address, tls-fingerprint on Chromium's captured
// ClientHello. Each is an SVG with role="img" and a <title> saying its facts in words.

import { describe, expect, test } from 'bun:test'
import { summarize } from '../../core/scoring'
import { assembleResults } from '../../core/tools/assemble'
import { playwrightHeadless } from '../../core/tools/bot-detector.fixture'
import { browserIn, server as tzServer } from '../../core/tools/timezone-geo.fixture'
import { tlsFingerprint } from '../../core/tools/tls-fingerprint'
import { fixture } from '../../evidence/fixtures/load'
import { parseClientHello } from '../../evidence/tls-client-hello'
import { tlsRecord } from '../../evidence/tls-records'
import { fakeLookup, NETWORKS } from '../../../tests/support/fake-ipdb'
import { missing, ok } from '../../../tests/support/signals'
import type { ToolId } from '../../../common/tools'
import type { ReportResults } from '../report-results'
import { ToolPicture } from './index'

const CTX = { lookupIp: fakeLookup({ '81.2.69.160': NETWORKS.aaisp, '73.0.0.1': NETWORKS.comcast }) }

function judged(tool: ToolId, signals: unknown, server: Parameters<typeof assembleResults>[2]): ReportResults {
  const r = assembleResults(tool, { signals }, server, CTX)
  if (!r.ok) throw new Error(r.error)
  return r.results as ReportResults
}

const picture = async (tool: ToolId, results: ReportResults) => String(await ToolPicture({ tool, results }))
const svgOf = (html: string, name: string) => {
  const m = new RegExp(`<figure class="picture glance" data-picture="${name}"[^>]*>(<svg [^>]*>)<title id="([^"]+)">([^<]*)</title>`).exec(html)
  if (!m) throw new Error(`no ${name} picture in ${html.slice(0, 300)}`)
  return { svg: m[1]!, id: m[2]!, title: m[3]!.replaceAll('&#x27;', "'").replaceAll('&amp;', '&') }
}

describe('the glance pictures in the reports', () => {
  test('bot-detector: the verdict gauge with the score, the verdict word and the four kinds of findings', async () => {
    const h = playwrightHeadless()
    const results = judged('bot-detector', h.signals, h.server)
    const html = await picture('bot-detector', results)
    const { svg, id, title } = svgOf(html, 'verdict')
    expect(svg).toContain('role="img"')
    expect(svg).toContain(`aria-labelledby="${id}"`)
    expect(svg).toContain('viewBox="0 0 320 ')
    expect(title).toStartWith(`Verdict: bot, score ${results.summary.score} of 100`)
    for (const kind of ['Automation markers', 'Lies', 'Consistency', 'Server evidence']) expect(title).toContain(`${kind}: `)
    const failed = results.checks.filter((c) => c.verdict === 'fail').length
    const drawn = [...html.matchAll(/data-verdict="fail" data-count="(\d+)"/g)].reduce((n, m) => n + Number(m[1]), 0)
    expect(drawn).toBe(failed)
    // The findings by kind stay below it.
    expect(html.indexOf('data-picture="verdict"')).toBeLessThan(html.indexOf('data-picture="findings"'))
  })

  test('ip-leak and vpn-detector: the address’s country and network from the IP database', async () => {
    const ice = ok({ candidates: [], sdp: 'c=IN IP4 0.0.0.0', gathering: 'complete' as const, gatheringMs: 150, errors: [] })
    const server = { ip: '81.2.69.160', userAgent: 'Mozilla/5.0', headers: [['accept', '*/*']] as Array<[string, string]>, receivedAt: 0 }
    const reach = (url: string, reachable: boolean) => ({ url, reachable, ms: 3, error: reachable ? null : 'Failed to fetch' })
    const families = ok({ ipv4: reach('http://81.2.69.1/healthz', true), ipv6: reach('http://[2001:db8::1]/healthz', false) })
    const html = await picture('ip-leak', judged('ip-leak', { ice, families }, server))
    const { title } = svgOf(html, 'network')
    expect(html).toContain('data-country="GB" data-network="AS20712 Andrews & Arnold Ltd"')
    expect(title).toStartWith('The address 81.2.69.160 is in United Kingdom (GB), network AS20712 Andrews & Arnold Ltd: ')
    expect(html).toContain('data-picture="addresses"')
    const vpn = await picture('vpn-detector', judged('vpn-detector', { ice, zone: missing('timeout', 'no answer'), languages: missing('timeout', 'no answer'), rtt: missing('timeout', 'no answer'), lookups: missing('timeout', 'no answer') }, server))
    expect(svgOf(vpn, 'network').title).toContain('United Kingdom (GB)')
  })

  test('timezone-geo: a browser in Berlin behind a US address is drawn off the country’s offsets', async () => {
    const html = await picture('timezone-geo', judged('timezone-geo', browserIn('Europe/Berlin'), { ...tzServer(), ip: '73.0.0.1' }))
    const { title } = svgOf(html, 'zone')
    expect(html).toContain('data-country="US" data-fits="false"')
    expect(title).toContain("The browser's time zone is Europe/Berlin")
    expect(title).toContain('The address is in United States')
    expect(html).toContain('The zone does not fit the address’s country.')
  })

  test('tls-fingerprint: Chromium’s JA4 split in three parts, GREASE and ALPN; nothing drawn without a handshake', async () => {
    const hello = parseClientHello(fixture('tls-chromium-ip.hex'))
    if (!hello.ok) throw new Error('fixture')
    const rec = tlsRecord(hello.value, { protocol: 'TLSv1.3', alpn: 'h2', cipher: 'TLS_AES_128_GCM_SHA256' })
    const evidence = [{ kind: 'tls' as const, data: rec, observedAt: 'x' }]
    const ua = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36'
    const { checks, sections } = tlsFingerprint.judge(
      {
        navigator: ok({ userAgent: ua, platform: 'Linux x86_64' }),
        uaData: ok({ brands: [{ brand: 'Chromium', version: '156' }], mobile: false, platform: 'Linux', high: null, highError: null }),
        stack: ok({ pageProtocol: 'https:', secureContext: true, navigationProtocol: 'h2', fetchProtocol: 'h2', navigationTls: true }),
        connection: ok({ type: null, effectiveType: '4g', rtt: 50, downlink: 10, saveData: false }),
        evidence: ok({ port: 8443, nonce: 'n' }),
      } as never, { ip: '81.2.69.160', userAgent: ua, headers: [['user-agent', ua]], receivedAt: 0, evidence: evidence as never })
    const results = { ...(sections as object), checks, summary: summarize(checks), server: { evidence } } as ReportResults
    const html = await picture('tls-fingerprint', results)
    const { title } = svgOf(html, 'tls-hello')
    expect(html).toContain(`data-ja4="${rec.ja4}" data-grease="true" data-alpn="h2,http/1.1"`)
    for (const part of rec.ja4.split('_')) expect(html).toContain(`>${part}</text>`)
    expect(title).toContain('GREASE values present')
    expect(await picture('tls-fingerprint', { ...results, tls: { ja4: null, alpn: null } })).toBe('')
  })
})
