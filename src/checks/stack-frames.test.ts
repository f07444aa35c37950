import { describe, expect, test } from 'bun:test'
import { frameworkOfFrame, pollsForResult } from './stack-frames'
import { ok, humanChrome, judge } from '../core/tools/bot-detector.fixture'

describe('stack frames', () => {
  test('stack frames map to their framework', () => {
    expect(frameworkOfFrame('at pptr:evaluate;x:1:2')).toBe('puppeteer')
    expect(frameworkOfFrame('at __puppeteer_evaluation_script__:3:10')).toBe('puppeteer')
    expect(frameworkOfFrame('at UtilityScript.evaluate (<anonymous>:372:16)')).toBe('playwright')
    expect(frameworkOfFrame('at predicate (eval at evaluate (:370:30), <anonymous>:7:27)')).toBe('playwright')
    expect(frameworkOfFrame('at <anonymous>:1:1')).toBe('unknown-eval')
    expect(frameworkOfFrame('at chrome-extension://abc/content.js:4:2')).toBeNull()
  })
})

describe('stack frames in bot-detector', () => {
  test('Playwright bindings and Puppeteer sourceURLs name their framework', () => {
    const s = humanChrome()
    s.globals = ok({ window: ['__playwright__binding__', '__playwright__binding__controller__'], document: [], attributes: [] })
    s.stack = ok({ hooked: 10, calls: 2, frames: ['at pptr:evaluate;file:///x.js:3:9 (pptr:evaluate;file:///x.js:3:9:1:15)'] })
    const r = judge(s)
    expect(r.byId('playwright-globals').verdict).toBe('fail')
    expect(r.byId('stack-sourceurl').verdict).toBe('fail')
    expect(r.sections.frameworks).toEqual(expect.arrayContaining(['playwright', 'puppeteer']))
  })

  test('anonymous evaluated frames only warn (code typed into DevTools looks the same)', () => {
    const s = humanChrome()
    s.stack = ok({ hooked: 10, calls: 2, frames: ['at <anonymous>:1:10'] })
    const r = judge(s)
    expect(r.byId('stack-sourceurl').verdict).toBe('warn')
    expect(r.sections.verdict).toBe('human')
  })
})

describe('evaluated code polling for the result', () => {
  test("a raw DevTools client's Runtime.evaluate reading data-task fails and makes the verdict bot", () => {
    const s = humanChrome()
    // What the raw-DevTools matrix client left (tests/matrix/devtools-clients.ts).
    s.stack = ok({ hooked: 15, calls: 42, frames: ['at <anonymous>:1:10', 'at <anonymous>:1:27'], reads: ['body', 'dataset', 'dataset.task', 'dataset.error'] })
    const r = judge(s)
    expect(r.byId('stack-sourceurl')).toMatchObject({ verdict: 'fail', observed: expect.arrayContaining(['code evaluated in the page polled for its result: dataset.task, dataset.error']) })
    expect(r.sections.frameworks).toContain('cdp')
    expect(r.sections.verdict).toBe('bot')
  })

  test('what evaluated code asked for that is not the result only warns', () => {
    const s = humanChrome()
    s.stack = ok({ hooked: 15, calls: 3, frames: ['at <anonymous>:1:10'], reads: ['body', 'querySelector(#main)'] })
    expect(judge(s).byId('stack-sourceurl').verdict).toBe('warn')
  })

  test('pollsForResult names the reads of the task, its error and its status line', () => {
    expect(pollsForResult(['dataset.task', 'getAttribute(data-task)', 'querySelector(body[data-task])', 'getElementById(status)', 'dataset.error', 'body', 'dataset.nonce', 'querySelector(.taskbar)'])).toEqual([
      'dataset.task',
      'getAttribute(data-task)',
      'querySelector(body[data-task])',
      'getElementById(status)',
      'dataset.error',
    ])
  })
})
