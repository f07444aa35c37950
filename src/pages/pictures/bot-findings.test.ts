import { expect, test } from 'bun:test'
import { botDetector } from '../../core/tools/bot-detector'
import { CLIENT_KINDS, kindOf } from './bot-findings'

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
