// Which JavaScript engine runs the page, from behaviour rather than from the user agent:
// engines word their TypeErrors differently (V8 "Cannot read properties of null (reading
// 'x')", SpiderMonkey "… is null", JavaScriptCore "null is not an object (evaluating …)"), and
// print native functions with different whitespace, so eval.toString().length is 33 in V8
// and 37 in SpiderMonkey and JavaScriptCore (BotD's evalLengthInconsistency detector:
// https://github.com/fingerprintjs/BotD/blob/main/src/detectors/eval_length_inconsistency.ts).
// A Chrome user agent on another engine is a spoofed user agent; a length that fits neither
// engine means eval or Function.prototype.toString was replaced.

import type { JsEngine } from '../../common/signals/bot-detector'

function message(run: () => unknown): string {
  try {
    run()
    return ''
  } catch (e) {
    return String((e as Error)?.message ?? e).slice(0, 160)
  }
}

export function jsEngine(): JsEngine {
  return {
    // biome-ignore lint/security/noGlobalEval: eval is not called, only printed: its native source's length tells the engine.
    evalLength: eval.toString().length,
    nullError: message(() => (JSON.parse('null') as { x: number }).x),
    rangeError: message(() => (1).toFixed(-1)),
  }
}
