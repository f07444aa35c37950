// axe-core as the browser tests run it. They fail a page on a serious or critical violation
// only, so axe is asked for just that: the rules whose every check is minor or moderate (the
// landmark rules, `region`, `heading-order`…) are not run, and only violations are gathered
// (`resultTypes`), not the passes with a snapshot of every node they passed. Which rules those
// are is read from axe-core's own metadata when this module loads, so a rule an update makes
// serious is run again without a change here. On the docs page this halves axe's time; the
// outcome is the same, since what is skipped could only have been filtered out afterwards.

import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'

const require = createRequire(import.meta.url)

/** axe-core's browser build, for pages driven without Playwright (tests/support/engines.ts). */
export const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8')

/** What axe-core's Node entry exposes of its rules and their checks' metadata. */
interface AxeAudit {
  rules: Array<{ id: string; impact?: string; any: Array<string | { id: string }>; all: Array<string | { id: string }>; none: Array<string | { id: string }> }>
  data: { checks: Record<string, { impact?: string } | undefined> }
}

/** The rules that cannot find anything worse than moderate. */
export function moderateAtMost(audit: AxeAudit): string[] {
  const checkIds = (r: AxeAudit['rules'][number]) => [...r.any, ...r.all, ...r.none].map((c) => (typeof c === 'string' ? c : c.id))
  const low = (impact: string | undefined) => impact === 'minor' || impact === 'moderate'
  return audit.rules.filter((r) => low(r.impact) && checkIds(r).every((id) => low(audit.data.checks[id]?.impact))).map((r) => r.id)
}

const SKIPPED = moderateAtMost((require('axe-core') as { _audit: AxeAudit })._audit)

/** axe.run's options: violations only, the moderate-at-most rules off. */
export const AXE_OPTIONS = { resultTypes: ['violations'], rules: Object.fromEntries(SKIPPED.map((id) => [id, { enabled: false }])) }

/** A serious or critical violation: the rule, its impact, and up to three elements it was found on. */
export interface SeriousViolation {
  id: string
  impact: string
  nodes: number
  targets: string[]
}

/** axe-core's serious and critical violations on the page as it is now (every frame included). */
export async function seriousViolations(page: Page): Promise<SeriousViolation[]> {
  const { violations } = await new AxeBuilder({ page }).options(AXE_OPTIONS as never).analyze()
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact!, nodes: v.nodes.length, targets: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }))
}
