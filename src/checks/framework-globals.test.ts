import { describe, expect, test } from 'bun:test'
import { frameworkOfGlobal } from './framework-globals'
import { ok, humanChrome, judge } from '../core/tools/bot-detector.fixture'

describe('framework globals', () => {
  test('globals map to their framework', () => {
    expect(frameworkOfGlobal('__pwInitScripts')).toBe('playwright')
    expect(frameworkOfGlobal('__playwright__binding__')).toBe('playwright')
    expect(frameworkOfGlobal('$cdc_asdjflasutopfhvcZLmcfl_')).toBe('selenium')
    expect(frameworkOfGlobal('__webdriver_evaluate')).toBe('selenium')
    expect(frameworkOfGlobal('__fxdriver_unwrapped')).toBe('selenium')
    expect(frameworkOfGlobal('_phantom')).toBe('phantomjs')
    expect(frameworkOfGlobal('__nightmare')).toBe('nightmare')
    expect(frameworkOfGlobal('Cypress')).toBe('cypress')
    expect(frameworkOfGlobal('__out')).toBeNull()
    expect(frameworkOfGlobal('phantomTheme')).toBeNull()
    expect(frameworkOfGlobal('__pwaInstallPrompt')).toBeNull()
  })
})

describe('framework globals in bot-detector', () => {
  test('chromedriver globals are Selenium: leaks.selenium true, scoring fail, verdict bot', () => {
    const s = humanChrome()
    s.globals = ok({ window: ['cdc_adoQpoasnfa76pfcZLmcfl_Array', 'cdc_adoQpoasnfa76pfcZLmcfl_Promise'], document: ['$cdc_asdjflasutopfhvcZLmcfl_'], attributes: [] })
    s.webdriver = ok({ value: true, present: true, ownProperties: [], proto: 'getter' as const, getterNative: true })
    const r = judge(s)
    expect(r.byId('selenium-globals').verdict).toBe('fail')
    expect(r.byId('selenium-globals').observed).toEqual(['window.cdc_adoQpoasnfa76pfcZLmcfl_Array', 'window.cdc_adoQpoasnfa76pfcZLmcfl_Promise', 'document.$cdc_asdjflasutopfhvcZLmcfl_'])
    expect(r.sections.leaks).toEqual({ webdriver: true, selenium: true, phantomjs: false })
    expect(r.sections.scoring).toEqual({ webdriver: 'fail', selenium: 'fail', phantomjs: 'pass' })
    expect(r.sections.frameworks).toEqual(expect.arrayContaining(['selenium', 'webdriver']))
    expect(r.sections.verdict).toBe('bot')
  })

  test('undetected-chromedriver’s renamed cdc_ prefix and driver attributes are still Selenium', () => {
    const s = humanChrome()
    s.globals = ok({ window: ['abc_adoQpoasnfa76pfcZLmcfl_Symbol'], document: [], attributes: ['webdriver'] })
    const r = judge(s)
    expect(r.byId('selenium-globals').observed).toEqual(['window.abc_adoQpoasnfa76pfcZLmcfl_Symbol', '<html webdriver>'])
    expect(r.sections.verdict).toBe('bot')
  })

  test('PhantomJS globals fail the phantomjs check and its scoring entry', () => {
    const s = humanChrome()
    s.globals = ok({ window: ['callPhantom', '_phantom'], document: [], attributes: [] })
    const r = judge(s)
    expect(r.sections.leaks.phantomjs).toBe(true)
    expect(r.sections.scoring.phantomjs).toBe('fail')
    expect(r.sections.frameworks).toContain('phantomjs')
  })
})
