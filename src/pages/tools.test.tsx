import { expect, test } from 'bun:test'
import type { Check } from '../core/scoring'
import { ReportFragment } from './tools'

const summary = { total: 1, passed: 0, failed: 1, warnings: 0, score: 40 }
const checks: Check[] = [{ id: 'webdriver-flag', name: 'navigator.webdriver is not true', verdict: 'fail', observed: true, expected: 'false', source: 'client', why: '', points: 60 }]

test('the report names the frameworks bot-detector recognised, escaped', async () => {
  const html = await ReportFragment({ tool: 'bot-detector', summary, checks, verdict: 'bot', frameworks: ['playwright', 'cdp', '<img>'] })
  expect(html).toContain('<div data-frameworks>Recognised: playwright, cdp, &lt;img&gt;</div>')
})

test('no frameworks line when none were recognised or the tool has none', async () => {
  expect(await ReportFragment({ tool: 'bot-detector', summary, checks, verdict: 'human', frameworks: [] })).not.toContain('data-frameworks')
  expect(await ReportFragment({ tool: 'ip-leak', summary, checks })).not.toContain('data-frameworks')
})

test('an untested handshake is not shown as a clean score: the label says so, with the HTTPS link', async () => {
  const clean = { total: 3, passed: 3, failed: 0, warnings: 0, score: 100 }
  const html = await ReportFragment({ tool: 'tls-fingerprint', summary: clean, checks: [], verdict: 'Handshake not tested: …', untestedHandshake: { reason: 'certificate not trusted', httpsUrl: 'https://127.0.0.1:3443/tools/tls-fingerprint' } })
  expect(html).toContain('incomplete: handshake not tested')
  expect(html).not.toContain('score out of 100')
  expect(html).toContain('<a href="https://127.0.0.1:3443/tools/tls-fingerprint">https://127.0.0.1:3443/tools/tls-fingerprint</a>')
  expect(await ReportFragment({ tool: 'tls-fingerprint', summary: clean, checks: [] })).toContain('score out of 100')
})
