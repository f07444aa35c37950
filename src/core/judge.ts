// The one runner of checks: for each check a tool lists, a declared signal without a value
// makes it `na` with the reason; otherwise its pure judge decides. The weight is the tool's.

import { whyMissing, type SignalResult } from '../../common/signal'
import type { CheckDefinition, CheckEnv, JudgeContext, OutcomeOfDefined } from '../checks/define'
import { check, type Check } from './scoring'
import type { ServerObservation } from './tools/observation'

/** A check a tool runs, with the points a fail costs there (a warn costs half, rounded up). */
export type WeightedCheck<S> = readonly [check: CheckDefinition<S, keyof S & string, keyof S & string>, weight: number]

/** What the checks of one submission found, for the sections a tool adds. */
export interface Judged {
  checks: Check[]
  /** Every label the outcomes carried (Outcome.labels), in order of first appearance. */
  labels: ReadonlySet<string>
}

export function runChecks<S>(list: ReadonlyArray<WeightedCheck<S>>, signals: S, server: ServerObservation, ctx: JudgeContext): Judged {
  const raw = signals as Record<string, SignalResult<unknown> | undefined>
  const missing = (...names: string[]) => names.map((n) => whyMissing(raw[n])).filter(Boolean).join('; ') || 'not collected'
  const env = { server, ctx, missing, raw } as unknown as CheckEnv<S>
  const checks: Check[] = []
  const labels = new Set<string>()
  for (const [def, weight] of list) {
    const absent = def.needs.filter((n) => !raw[n]?.ok)
    let outcome: OutcomeOfDefined
    if (absent.length) outcome = { verdict: 'na', observed: null, expected: missing(...absent) }
    else {
      const values: Record<string, unknown> = {}
      for (const n of [...def.needs, ...(def.uses ?? [])]) {
        const s = raw[n]
        if (s?.ok) values[n] = s.value
      }
      outcome = def.judge(values as never, env)
    }
    for (const l of outcome.labels ?? []) labels.add(l)
    // The types make one of the two an expectation: a definition without one has a judge that always says it.
    const expected = (outcome.expected ?? def.expected) as string
    checks.push(check({ id: def.id, name: def.name, source: outcome.source ?? def.source, why: def.why, weight }, { ...outcome, expected }))
  }
  return { checks, labels }
}
