// Which JavaScript engine runs a page, told from what it does rather than from what its user
// agent claims: V8, SpiderMonkey and JavaScriptCore word their TypeErrors and RangeErrors
// differently and print native functions with different whitespace (BotD's
// evalLengthInconsistency). The probe (probes/signals/js-engine.ts) reads the messages; the
// checks judge engine-specific behaviour by the engine this names.

import type { Engine } from './user-agent'

/** The engine running the page, from its error messages; 'unknown' when they disagree or match none. */
export function jsEngineOf(e: { nullError: string; rangeError: string }): Engine {
  const byNull: Engine = /^Cannot read propert/.test(e.nullError) ? 'blink' : /is not an object/.test(e.nullError) ? 'webkit' : /is null|has no properties/.test(e.nullError) ? 'gecko' : 'unknown'
  const byRange: Engine = /digits argument must be between/.test(e.rangeError) ? 'blink' : /^toFixed\(\) argument must be between/.test(e.rangeError) ? 'webkit' : /precision .* out of range/.test(e.rangeError) ? 'gecko' : 'unknown'
  if (byNull === 'unknown') return byRange
  if (byRange === 'unknown' || byRange === byNull) return byNull
  return 'unknown'
}

export const EVAL_LENGTH: Record<Exclude<Engine, 'unknown'>, number> = { blink: 33, gecko: 37, webkit: 37 }

export const ENGINE_NAME: Record<Engine, string> = { blink: 'V8 (Blink)', gecko: 'SpiderMonkey (Gecko)', webkit: 'JavaScriptCore (WebKit)', unknown: 'an unknown engine' }

/**
 * How a check that judged by the engine says so in its observed or expected text: which engine,
 * and how it was told (issue 12: never by the user agent alone).
 */
export function judgedBy(engine: Engine): string {
  return engine === 'unknown' ? "judged without an engine: the page's error messages match none" : `judged by ${ENGINE_NAME[engine]}, the engine the page's error messages show`
}
