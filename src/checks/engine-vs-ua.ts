// The JavaScript engine that runs the page, told apart by its error messages and the length
// of eval.toString() (BotD's evalLength source), against the engine the user agent names.
// https://github.com/fingerprintjs/BotD/blob/main/src/sources/eval_length.ts

import type { BotDetectorSignals } from '../../common/signals/bot-detector'
import { ENGINE_NAME, EVAL_LENGTH } from '../../common/engine-errors'
import { claimedBrowser, runningEngine } from './claimed-browser'
import { checkOn, na } from './define'

const botCheck = checkOn<BotDetectorSignals>()

export const engineVsUa = botCheck({
  id: 'engine-vs-ua',
  name: 'JavaScript engine matches the user agent',
  source: 'client',
  why: 'Error messages tell V8 (Chromium), SpiderMonkey (Firefox) and JavaScriptCore (Safari, all iOS browsers) apart whatever the user agent says. A Chrome user agent on another engine, or a Safari one on V8, is a spoofed user agent (device emulation in automation, UA switchers).',
  needs: ['engine'],
  uses: ['navigator'],
  judge: ({ engine: e, navigator: nav }, { server }) => {
    const engine = runningEngine(e)
    const claimed = claimedBrowser(nav, server)
    if (engine === 'unknown') return na(`engine not recognised from "${e.nullError}"`)
    if (claimed.engine === 'unknown') return na('the user agent names no known engine')
    return {
      verdict: engine === claimed.engine ? 'pass' : 'fail',
      observed: `${ENGINE_NAME[engine]} runs the page; the user agent claims ${claimed.engine}`,
      expected: `the ${claimed.engine} engine the user agent names`,
    }
  },
})

export const evalToString = botCheck({
  id: 'eval-tostring',
  name: "eval.toString() has the engine's length",
  source: 'client',
  why: 'Native functions print with engine-specific whitespace: eval.toString().length is 33 in V8 and 37 in SpiderMonkey and JavaScriptCore (BotD). Another length means eval or Function.prototype.toString was replaced.',
  ref: 'https://github.com/fingerprintjs/BotD/blob/main/src/sources/eval_length.ts',
  needs: ['engine'],
  uses: ['navigator'],
  judge: ({ engine: e, navigator: nav }, { server }) => {
    const engine = runningEngine(e)
    const basis = engine !== 'unknown' ? engine : claimedBrowser(nav, server).engine
    if (basis === 'unknown') return na('neither the engine nor the user agent could be identified')
    return { verdict: e.evalLength === EVAL_LENGTH[basis] ? 'pass' : 'fail', observed: e.evalLength, expected: `${EVAL_LENGTH[basis]} (${ENGINE_NAME[basis]})` }
  },
})
