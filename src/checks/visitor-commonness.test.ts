import { describe, expect, test } from 'bun:test'
import { desktopChrome, fail, requestFrom, runOne } from '../core/tools/browser-fingerprint.fixture'
import { COMMON_ADDRESSES, countedCommonness, fpCommonness } from './visitor-commonness'
import type { BrowserFingerprintSignals } from '../../common/signals/browser-fingerprint'

describe('fp-commonness', () => {
  test('is na without a count, or without a visitor id', () => {
    expect(runOne(fpCommonness).verdict).toBe('na')
    const s = desktopChrome()
    for (const k of Object.keys(s) as Array<keyof BrowserFingerprintSignals>) (s as Record<string, unknown>)[k] = fail('timeout', 'no answer')
    expect(runOne(fpCommonness, s, requestFrom(), { fingerprintSeen: { tasks: 9, addresses: 9 } })).toMatchObject({ verdict: 'na', expected: 'no visitor id: no component was read reliably' })
  })
  test(`warns from ${COMMON_ADDRESSES} other addresses, never fails`, () => {
    expect(runOne(fpCommonness, desktopChrome(), requestFrom(), { fingerprintSeen: { tasks: 4, addresses: COMMON_ADDRESSES - 1 } }).verdict).toBe('pass')
    expect(runOne(fpCommonness, desktopChrome(), requestFrom(), { fingerprintSeen: { tasks: 900, addresses: 800 } }).verdict).toBe('warn')
  })
  test('countedCommonness is the count only when there is a visitor id and a count', () => {
    expect(countedCommonness('abc', { tasks: 2, addresses: 1 })).toEqual({ tasks: 2, addresses: 1 })
    expect(countedCommonness(null, { tasks: 2, addresses: 1 })).toBeNull()
    expect(countedCommonness('abc', { error: 'the query failed' })).toBeNull()
    expect(countedCommonness('abc', undefined)).toBeNull()
  })
})
