// The engine a check judges engine-specific behaviour by, and the words that say so (issue 12:
// a check whose expectation depends on the engine names the engine it judged by and how that
// engine was told, never by the user agent alone). The engine is told by the page's error
// messages (probes/signals/js-engine.ts, common/engine-errors.ts), which a user agent switcher
// does not change.

import { ENGINE_NAME, jsEngineOf, judgedBy } from '../../common/engine-errors'
import type { JsEngine } from '../../common/signals/shared'
import type { Engine } from '../../common/user-agent'

/** The running engine ('unknown' without the signal or when its messages match none) and how it was told. */
export interface PageEngine {
  engine: Engine
  /** "judged by V8 (Blink), the engine the page's error messages show", or why there is no engine. */
  basis: string
}

/** Said when the page sent no engine signal (older pages, or the probe failed). */
export const NO_ENGINE_SIGNAL = "judged without an engine: the page did not report its error messages (the engine signal)"

export function pageEngine(e: Pick<JsEngine, 'nullError' | 'rangeError'> | undefined): PageEngine {
  if (!e) return { engine: 'unknown', basis: NO_ENGINE_SIGNAL }
  const engine = jsEngineOf(e)
  return { engine, basis: judgedBy(engine) }
}

/**
 * One phrase for a claim checked against the running engine: "the User-Agent claims gecko, the
 * page runs on V8 (Blink)", or null when they agree or either is unknown.
 */
export function claimAgainstEngine(claimed: Engine, running: Engine): string | null {
  if (claimed === 'unknown' || running === 'unknown' || claimed === running) return null
  return `the User-Agent claims ${claimed}, but the page runs on ${ENGINE_NAME[running]}`
}
