// The JavaScript engine that runs the page, told apart by its error messages and the length
// of eval.toString() (BotD's evalLength source), against the engine the user agent names.
// https://github.com/fingerprintjs/BotD/blob/main/src/sources/eval_length.ts

import type { BotDetectorSignals } from '../../common/signals/bot-detector'
import { ENGINE_NAME, EVAL_LENGTH } from '../../common/engine-errors'
import { claimedBrowser } from './claimed-browser'
import { checkOn, na } from './define'
import { pageEngine } from './page-engine'

const botCheck = checkOn<BotDetectorSignals>()

export const engineVsUa = botCheck({
  id: 'engine-vs-ua',
  name: 'JavaScript engine matches the user agent',
  found: 'the JavaScript engine is not the one the user agent names',
  source: 'client',
  why: 'Error messages tell V8 (Chromium), SpiderMonkey (Firefox) and JavaScriptCore (Safari, all iOS browsers) apart whatever the user agent says. A Chrome user agent on another engine, or a Safari one on V8, is a spoofed user agent (device emulation in automation, UA switchers).',
  needs: ['engine'],
  uses: ['navigator'],
  judge: ({ engine: e, navigator: nav }, { server }) => {
    const { engine, basis } = pageEngine(e)
    const claimed = claimedBrowser(nav, server)
    if (engine === 'unknown') return na(`engine not recognised from "${e.nullError}"`)
    if (claimed.engine === 'unknown') return na(`the user agent names no known engine (the page runs on ${ENGINE_NAME[engine]})`)
    return {
      verdict: engine === claimed.engine ? 'pass' : 'fail',
      observed: `${ENGINE_NAME[engine]} runs the page, as its error messages show; the user agent claims ${claimed.engine}`,
      expected: `the ${claimed.engine} engine the user agent names (${basis})`,
    }
  },
})

export const evalToString = botCheck({
  id: 'eval-tostring',
  name: "eval.toString() has the engine's length",
  found: 'eval.toString() has another engine\'s length',
  source: 'client',
  why: 'Native functions print with engine-specific whitespace: eval.toString().length is 33 in V8 and 37 in SpiderMonkey and JavaScriptCore (BotD). Another length than the running engine\'s (told by its error messages, not the user agent) means eval or Function.prototype.toString was replaced; when the messages match no engine, a length of no engine fails.',
  ref: 'https://github.com/fingerprintjs/BotD/blob/main/src/sources/eval_length.ts',
  needs: ['engine'],
  judge: ({ engine: e }) => {
    const { engine, basis } = pageEngine(e)
    // Without an engine the length is judged against every engine's, never the user agent's alone.
    if (engine === 'unknown') {
      const lengths = [...new Set(Object.values(EVAL_LENGTH))]
      return { verdict: lengths.includes(e.evalLength) ? 'pass' : 'fail', observed: e.evalLength, expected: `33 (V8) or 37 (SpiderMonkey, JavaScriptCore): ${basis}` }
    }
    return { verdict: e.evalLength === EVAL_LENGTH[engine] ? 'pass' : 'fail', observed: e.evalLength, expected: `${EVAL_LENGTH[engine]} (${ENGINE_NAME[engine]}; ${basis})` }
  },
})
