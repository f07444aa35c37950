// The results contract shared by every tool: a list of checks, each with a verdict, what was
// observed, what was expected, where the value came from, and why it matters; and a summary
// the SERVER derives from them. A client cannot award itself a score: whatever it sends as
// summary or checks is replaced by the server's judgement of its signals.

import { Type, type Static } from '@sinclair/typebox'

export const VERDICTS = ['pass', 'warn', 'fail', 'na'] as const
export type Verdict = (typeof VERDICTS)[number]

export const CheckSchema = Type.Object({
  id: Type.String({ description: 'Stable identifier, e.g. `webdriver-flag`.' }),
  name: Type.String({ description: 'Short human title.' }),
  verdict: Type.Union(VERDICTS.map((v) => Type.Literal(v)), { description: '`na` where the check cannot apply.' }),
  observed: Type.Unknown({ description: 'The value seen.' }),
  expected: Type.String({ description: 'What a consistent, unautomated browser shows.' }),
  source: Type.Union([Type.Literal('client'), Type.Literal('server')], {
    description: '`client`: reported by the page (spoofable); `server`: observed by the service.',
  }),
  why: Type.String({ description: 'Why the check matters, and its known false positives.' }),
  points: Type.Integer({ description: 'Points deducted from 100: the weight on `fail`, half of it on `warn`, 0 otherwise.' }),
})
export type Check = Static<typeof CheckSchema>

/** A check's fixed description; the judge adds verdict, observed and expected. */
export interface CheckDef {
  id: string
  name: string
  source: 'client' | 'server'
  /** Points a fail costs (a warn costs half, rounded up). 0–100. */
  weight: number
  why: string
}

export interface CheckOutcome {
  verdict: Verdict
  observed: unknown
  expected: string
}

export function check(def: CheckDef, outcome: CheckOutcome): Check {
  const points = outcome.verdict === 'fail' ? def.weight : outcome.verdict === 'warn' ? Math.ceil(def.weight / 2) : 0
  return { id: def.id, name: def.name, verdict: outcome.verdict, observed: outcome.observed, expected: outcome.expected, source: def.source, why: def.why, points }
}

export const SummarySchema = Type.Object({
  total: Type.Integer({ description: 'Checks that applied (verdict other than `na`).' }),
  passed: Type.Integer(),
  failed: Type.Integer(),
  warnings: Type.Integer(),
  score: Type.Integer({ minimum: 0, maximum: 100, description: '100 minus the points of failed and warned checks, at least 0.' }),
})
export type Summary = Static<typeof SummarySchema>

/**
 * The score is 100 minus the points of every failed check (its weight) and warned check (half
 * its weight), never below 0. Points instead of a pass ratio: one decisive finding (a
 * `navigator.webdriver` of true) must sink the score however many other checks pass.
 */
export function summarize(checks: readonly Pick<Check, 'verdict' | 'points'>[]): Summary {
  let passed = 0
  let failed = 0
  let warnings = 0
  let deducted = 0
  for (const c of checks) {
    if (c.verdict === 'pass') passed++
    else if (c.verdict === 'fail') failed++
    else if (c.verdict === 'warn') warnings++
    deducted += c.points
  }
  return { total: passed + failed + warnings, passed, failed, warnings, score: Math.max(0, 100 - deducted) }
}
