// What a tool page's report reads of a judged task (what assembleResults stores, sections
// included), apart from the report itself, so that the pictures (./pictures) and the report
// (./report.tsx) both read it without importing each other.

import type { Check, Summary } from '../core/scoring'
import type { Untested } from '../core/tools/types'

/** The judged results the report reads: what assembleResults stores, sections included. */
export interface ReportResults {
  summary: Summary
  checks: Check[]
  tested?: boolean
  untested?: Untested
  verdict?: unknown
  frameworks?: unknown
  signals?: unknown
  [section: string]: unknown
}
