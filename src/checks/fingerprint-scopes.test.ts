import { describe, expect, test } from 'bun:test'
import { scopeMismatches } from './scope-consistency'
import { CHROME_UA, desktopChrome, fail, plain, runOne, scope } from '../core/tools/browser-fingerprint.fixture'
import { fpIframeConsistency, fpWorkerConsistency } from './fingerprint-scopes'

describe('the page, iframe and worker snapshots of browser-fingerprint', () => {
  test('scopeMismatches lists differing fields and skips fields one side lacks', () => {
    expect(scopeMismatches(scope(), scope(CHROME_UA, { deviceMemory: null, webdriver: null }))).toEqual([])
    expect(scopeMismatches(scope(), scope(CHROME_UA, { hardwareConcurrency: 4, languages: ['en-US'] }))).toEqual(['languages: ["de-DE","de","en"] ≠ ["en-US"]', 'hardwareConcurrency: 8 ≠ 4'])
  })
})

describe('fp-iframe-consistency and fp-worker-consistency', () => {
  test('pass the same snapshot everywhere and fail a value overridden in the page only', () => {
    expect(runOne(fpIframeConsistency)).toMatchObject({ verdict: 'pass', observed: 'same 10 values in the page and the iframe' })
    const s = desktopChrome()
    s.workerScope = plain(scope(CHROME_UA, { hardwareConcurrency: 4 }))
    expect(runOne(fpWorkerConsistency, s)).toMatchObject({ verdict: 'fail', observed: 'hardwareConcurrency: 8 ≠ 4' })
  })
  test('say which reading is missing', () => {
    const s = desktopChrome()
    s.workerScope = fail('blocked', 'cannot start a worker')
    expect(runOne(fpWorkerConsistency, s)).toMatchObject({ verdict: 'na', expected: 'no worker reading: blocked: cannot start a worker' })
    s.pageScope = fail('error', 'threw')
    expect(runOne(fpIframeConsistency, s)).toMatchObject({ verdict: 'na', expected: 'no iframe reading: error: threw' })
  })
})
