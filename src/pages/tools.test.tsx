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
