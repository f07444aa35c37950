import { describe, expect, test } from 'bun:test'
import { phantomjsTraces } from './framework-globals'
import { checksFromSpecScoring } from './spec-scoring'

/** What a client that runs its own tests sends in the interface spec's shape (only the parts read here). */
const spec = (scoring: Record<string, string>, leaks: Record<string, boolean>) => ({ scoring, leaks })

describe('checksFromSpecScoring', () => {
  test("a client's own run in a person's Chrome: three passing checks, no points", () => {
    const checks = checksFromSpecScoring(spec({ webdriver: 'pass', selenium: 'pass', phantomjs: 'pass' }, { webdriver: false, selenium: false, phantomjs: false }))
    expect(checks.map((c) => [c.id, c.verdict, c.points, c.observed])).toEqual([
      ['webdriver', 'pass', 0, false],
      ['selenium', 'pass', 0, false],
      ['phantomjs', 'pass', 0, false],
    ])
    expect(checks.every((c) => c.source === 'client' && c.expected === 'false')).toBe(true)
  })

  test('a Selenium-driven browser the client caught: webdriver and selenium fail with their leaks, 60 points each', () => {
    const checks = checksFromSpecScoring(spec({ webdriver: 'fail', selenium: 'fail', phantomjs: 'pass' }, { webdriver: true, selenium: true, phantomjs: false }))
    expect(checks).toMatchObject([
      { id: 'webdriver', verdict: 'fail', points: 60, observed: true, name: 'No WebDriver flag' },
      { id: 'selenium', verdict: 'fail', points: 60, observed: true, name: 'No Selenium traces' },
      { id: 'phantomjs', verdict: 'pass', points: 0, observed: false },
    ])
  })

  test('a warning costs half the weight', () => {
    const [webdriver] = checksFromSpecScoring(spec({ webdriver: 'warn', selenium: 'pass', phantomjs: 'pass' }, { webdriver: false, selenium: false, phantomjs: false }))
    expect(webdriver).toMatchObject({ verdict: 'warn', points: 30 })
  })

  test("PhantomJS keeps the page's own check id, name and text", () => {
    const phantom = checksFromSpecScoring(spec({ webdriver: 'pass', selenium: 'pass', phantomjs: 'fail' }, { webdriver: false, selenium: false, phantomjs: true }))[2]!
    expect(phantom).toMatchObject({ id: phantomjsTraces.id, name: phantomjsTraces.name, why: phantomjsTraces.why, source: phantomjsTraces.source, verdict: 'fail', points: 60, observed: true })
  })

  test('only the three spec entries become checks, whatever else the client scored', () => {
    const checks = checksFromSpecScoring(spec({ webdriver: 'pass', selenium: 'pass', phantomjs: 'pass', canvas: 'fail' }, { webdriver: false, selenium: false, phantomjs: false }))
    expect(checks.map((c) => c.id)).toEqual(['webdriver', 'selenium', 'phantomjs'])
  })
})
