import { describe, expect, test } from 'bun:test'
import { createRequire } from 'node:module'
import { AXE_OPTIONS, moderateAtMost } from './axe'

const audit = (createRequire(import.meta.url)('axe-core') as { _audit: Parameters<typeof moderateAtMost>[0] })._audit

describe('the axe rules the browser tests skip', () => {
  test('a rule is skipped only when it and every one of its checks are minor or moderate', () => {
    const rules = [
      { id: 'low', impact: 'moderate', any: ['a'], all: [{ id: 'b' }], none: [] },
      { id: 'one-serious-check', impact: 'moderate', any: ['a'], all: [], none: ['s'] },
      { id: 'serious-rule', impact: 'serious', any: ['a'], all: [], none: [] },
      { id: 'unknown-check', impact: 'minor', any: ['missing'], all: [], none: [] },
      { id: 'no-impact', any: ['a'], all: [], none: [] },
    ]
    const checks = { a: { impact: 'minor' }, b: { impact: 'moderate' }, s: { impact: 'serious' } }
    expect(moderateAtMost({ rules, data: { checks } })).toEqual(['low'])
  })

  test("from axe-core's own metadata: the landmark rules are skipped, contrast, names and ARIA are run", () => {
    const skipped = moderateAtMost(audit)
    expect(skipped).toContain('region')
    expect(skipped).toContain('landmark-one-main')
    expect(skipped).toContain('heading-order')
    for (const id of ['color-contrast', 'image-alt', 'link-name', 'button-name', 'aria-allowed-attr', 'label', 'html-has-lang']) expect(skipped).not.toContain(id)
    const dataChecks = audit.data.checks
    for (const id of skipped) {
      const rule = audit.rules.find((r) => r.id === id)!
      for (const c of [...rule.any, ...rule.all, ...rule.none]) expect(['minor', 'moderate']).toContain(dataChecks[typeof c === 'string' ? c : c.id]!.impact!)
    }
  })

  test('axe is asked for violations only, with those rules off', () => {
    expect(AXE_OPTIONS.resultTypes).toEqual(['violations'])
    expect(Object.keys(AXE_OPTIONS.rules).sort()).toEqual(moderateAtMost(audit).sort())
    expect(Object.values(AXE_OPTIONS.rules).every((r) => r.enabled === false)).toBe(true)
  })
})
