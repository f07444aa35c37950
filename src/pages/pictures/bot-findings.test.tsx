import { expect, test } from 'bun:test'
import { botDetector } from '../../core/tools/bot-detector'
import { BotFindings, CLIENT_KINDS, kindOf } from './bot-findings'

test('every client-side bot-detector check has a kind, and the list names no check the tool does not run', () => {
  const client = botDetector.checks.filter(([c]) => c.source === 'client').map(([c]) => c.id)
  expect(client.filter((id) => !(id in CLIENT_KINDS))).toEqual([])
  const ids = new Set(botDetector.checks.map(([c]) => c.id))
  expect(Object.keys(CLIENT_KINDS).filter((id) => !ids.has(id))).toEqual([])
})

test('a finding the server made is server evidence, whatever the check', () => {
  expect(kindOf({ id: 'webdriver-flag', source: 'client' })).toBe('markers')
  expect(kindOf({ id: 'tls-fingerprint', source: 'server' })).toBe('server')
  expect(kindOf({ id: 'stealth-lies', source: 'client' })).toBe('lies')
})

test('a fired check is listed by what it found, not by its passing condition', async () => {
  const checks = [
    { id: 'webdriver-flag', name: 'navigator.webdriver is not true', source: 'client' as const, verdict: 'fail' as const, points: 60, observed: true, expected: 'false', why: 'w' },
    { id: 'cdp-runtime', name: 'No DevTools protocol client listening', source: 'client' as const, verdict: 'warn' as const, points: 10, observed: 1, expected: '0', why: 'w' },
    { id: 'headless-ua', name: 'User agent does not say HeadlessChrome', source: 'client' as const, verdict: 'pass' as const, points: 0, observed: 'x', expected: 'y', why: 'w' },
  ]
  const html = await BotFindings({ checks })
  expect(html).toContain('>navigator.webdriver is true</a>')
  expect(html).toContain('>a DevTools protocol client is listening</a>')
  expect(html).not.toContain('is not true')
  expect(html).not.toContain('HeadlessChrome')
  expect(html).toContain('2 found')
})
