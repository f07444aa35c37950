import { expect, test } from 'bun:test'
import type { Check } from '../core/scoring'
import { ReportFragment, type ReportResults } from './report'

const summary = { total: 1, passed: 0, failed: 1, warnings: 0, score: 40 }
const checks: Check[] = [{ id: 'webdriver-flag', name: 'navigator.webdriver is not true', verdict: 'fail', observed: 'navigator.webdriver', expected: 'false', source: 'client', why: '', points: 60 }]
const results = (r: Partial<ReportResults>): ReportResults => ({ summary, checks, tested: true, ...r })

test('the report names the frameworks bot-detector recognised as badges, escaped', async () => {
  const html = await ReportFragment({ tool: 'bot-detector', results: results({ verdict: 'bot', frameworks: ['playwright', 'cdp', '<img>'] }) })
  expect(html).toContain('<li class="badge v-fail">playwright</li><li class="badge v-fail">cdp</li><li class="badge v-fail">&lt;img&gt;</li>')
})

test('no frameworks line when none were recognised or the tool has none', async () => {
  expect(await ReportFragment({ tool: 'bot-detector', results: results({ verdict: 'human', frameworks: [] }) })).not.toContain('data-frameworks')
  expect(await ReportFragment({ tool: 'ip-leak', results: results({}) })).not.toContain('data-frameworks')
})

test('a task whose main evidence was not collected says "Not tested", why and where, instead of a score', async () => {
  const clean = { total: 3, passed: 3, failed: 0, warnings: 0, score: 100 }
  const untested = { reason: 'handshake not tested: certificate not trusted', url: 'https://127.0.0.1:3443/tools/tls-fingerprint' }
  const html = await ReportFragment({ tool: 'tls-fingerprint', results: results({ summary: clean, checks: [], tested: false, untested, verdict: 'Handshake not tested: …' }) })
  expect(html).toContain('Not tested')
  expect(html).toContain('data-tested="false"')
  expect(html).toContain('Handshake not tested: certificate not trusted.')
  expect(html).not.toContain('score out of 100')
  expect(html).not.toContain('<div class="score">100</div>')
  // One click to where it can be tested, and what the certificate warning there means.
  expect(html).toContain('<a class="button-primary" href="https://127.0.0.1:3443/tools/tls-fingerprint">Run it over HTTPS</a>')
  expect(html).toContain('data-certificate-note')
  const tested = await ReportFragment({ tool: 'tls-fingerprint', results: results({ summary: clean, checks: [] }) })
  expect(tested).toContain('score out of 100')
  expect(tested).toContain('data-tested="true"')
})

test('each check is a row whose cells carry their column name (the blocks of a narrow screen), values breakable after dots', async () => {
  const html = String(await ReportFragment({ tool: 'bot-detector', results: results({}) }))
  expect(html).toContain('<td class="c-observed" data-label="Observed"><code>navigator.<wbr>webdriver</code></td>')
  for (const label of ['Check', 'Verdict', 'Expected', 'Why it matters']) expect(html).toContain(`data-label="${label}"`)
})

test('the ruleset that judged the task is named in small print, when the task has one', async () => {
  const html = String(await ReportFragment({ tool: 'ip-leak', results: results({ ruleset: 'r1-0123456789abcdef' }) }))
  expect(html).toContain('<p class="hint" data-ruleset>Judged under ruleset r1-0123456789abcdef')
  // Inside the folded checks, after the table.
  expect(html.indexOf('data-ruleset')).toBeGreaterThan(html.indexOf('<details class="checks-fold"'))
  expect(html.indexOf('data-ruleset')).toBeLessThan(html.indexOf('</details>'))
  expect(String(await ReportFragment({ tool: 'ip-leak', results: results({}) }))).not.toContain('data-ruleset')
})

test('tls-fingerprint: a proven browser whose connection a middlebox re-encrypts reads it in the headline, in plain words (issue 56)', async () => {
  const { REENCRYPTED_TEXT } = await import('../core/tools/tls-fingerprint')
  const warned: Check = { id: 'tls-interception', name: 'The connection reaches the service as the browser made it', verdict: 'warn', observed: '…', expected: '…', source: 'server', why: '', points: 5 }
  const clean = { total: 1, passed: 0, failed: 0, warnings: 1, score: 95 }
  const html = String(await ReportFragment({ tool: 'tls-fingerprint', results: results({ summary: clean, checks: [warned], verdict: `The client claims chrome 156 (blink) on linux, consistently. ${REENCRYPTED_TEXT}` }) }))
  expect(html).toContain('decrypted and re-encrypted on its way here, by a proxy, security software or a company gateway')
  expect(html).toContain('It is not held against you')
})

test('the report leads with the answer: the headline, then what was found, then every check folded in a closed <details>', async () => {
  const html = String(await ReportFragment({ tool: 'ip-leak', results: results({}) }))
  const headline = html.indexOf('class="headline"')
  const found = html.indexOf('class="report-findings"')
  const fold = html.indexOf('<details class="checks-fold" data-checks>')
  expect([headline >= 0, found > headline, fold > found]).toEqual([true, true, true])
  expect(html).not.toContain('<details class="checks-fold" data-checks open')
  // The finding is said by what was found, and links to its row.
  expect(html).toContain('<a href="#check-webdriver-flag">')
  expect(html).toContain('<tr id="check-webdriver-flag"')
})

test('nothing failed or warned: the findings say so in one line', async () => {
  const passed: Check = { ...checks[0]!, verdict: 'pass', points: 0 }
  const html = String(await ReportFragment({ tool: 'ip-leak', results: results({ checks: [passed], summary: { total: 1, passed: 1, failed: 0, warnings: 0, score: 100 } }) }))
  expect(html).toContain('<p class="found-none">Nothing failed or warned.</p>')
})
