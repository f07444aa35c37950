import { describe, expect, test } from 'bun:test'
import type { Check } from '../core/scoring'
import { verdictOf } from './automation-verdict'

describe('bot-detector verdict', () => {
  test('verdict bands: a decisive failure is a bot whatever the score', () => {
    const c = (id: string, verdict: Check['verdict']): Check => ({ id, name: id, verdict, observed: null, expected: '', source: 'client', why: '', points: 0 })
    expect(verdictOf([c('webdriver-flag', 'fail')], 90)).toBe('bot')
    expect(verdictOf([c('notification-permission', 'fail')], 75)).toBe('suspicious')
    expect(verdictOf([], 40)).toBe('bot')
    expect(verdictOf([], 80)).toBe('human')
    // Three core probes unanswered (here timed out: a warning, no failure): not enough to call it human.
    const unanswered: Check = { ...c('probe-integrity', 'warn'), observed: ['webdriver: timeout: x', 'page: timeout: x', 'window: timeout: x'] }
    expect(verdictOf([unanswered], 85)).toBe('suspicious')
    expect(verdictOf([{ ...unanswered, observed: ['webdriver: timeout: x'] }], 85)).toBe('human')
  })
})
