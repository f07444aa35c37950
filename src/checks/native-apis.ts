// Lies: getters and methods that are not what the engine defined. probes/signals/api-lies.ts
// puts each through six tests (toString, no prototype, own keys, not constructible, TypeError
// on a foreign receiver, not a Proxy), after CreepJS's lies detection.
// https://github.com/abrahamjuliot/creepjs/blob/master/src/lies/index.ts

import type { BotDetectorSignals } from '../../common/signals/bot-detector'
import { checkOn, na, type CheckEnv, type OutcomeOfDefined, type SignalValues } from './define'

type V = SignalValues<BotDetectorSignals>
const botCheck = checkOn<BotDetectorSignals>()
const REF = 'https://github.com/abrahamjuliot/creepjs/blob/master/src/lies/index.ts'
const NATIVE = 'every tested getter and method native'

/** APIs stealth tools patch to hide automation; lies elsewhere are likelier privacy extensions. */
export function isAutomationApi(api: string): boolean {
  return /^Navigator\.(webdriver|plugins|mimeTypes|languages|language|hardwareConcurrency|deviceMemory|permissions|pdfViewerEnabled)$|^Permissions\.query$|^Notification\.permission$|^Function\.toString$|^MouseEvent\.screen[XY]$|^HTMLIFrameElement\.|^window\.(outer|inner)/.test(api)
}

/** Every lie found: the tested APIs, and own properties on the navigator instance (engines define none). */
export function allLies(lies: V['lies'] | undefined, webdriver: V['webdriver'] | undefined): V['lies']['lies'] {
  return [...(lies?.lies ?? []), ...(webdriver?.ownProperties ?? []).map((p) => ({ api: `Navigator.${p}`, tests: ['own-property'] }))]
}

function liesCheck(automation: boolean, verdict: 'fail' | 'warn') {
  return ({ lies, webdriver }: Partial<Pick<V, 'lies' | 'webdriver'>>, { missing }: CheckEnv<BotDetectorSignals>): OutcomeOfDefined => {
    if (!lies && !webdriver) return na(missing('lies'))
    const found = allLies(lies, webdriver).filter((l) => isAutomationApi(l.api) === automation)
    return {
      verdict: found.length ? verdict : 'pass',
      observed: found.length ? found.slice(0, 12).map((x) => `${x.api}: ${x.tests.join(', ')}`) : `${lies?.tested ?? 0} functions tested`,
      labels: automation && found.length ? ['stealth'] : [],
    }
  }
}

export const stealthLies = botCheck({
  id: 'stealth-lies',
  name: 'Automation-related APIs are native',
  source: 'client',
  why: 'Stealth plugins replace navigator.webdriver, plugins, languages, hardwareConcurrency, permissions.query, Notification.permission, window.outerWidth/outerHeight, iframe.contentWindow and Function.prototype.toString. Each native function passes six tests (toString, no prototype, own keys, not constructible, TypeError on a foreign receiver, not a Proxy); replacements fail some. Privacy extensions rarely touch these; the ones that hide their patches by replacing Function.prototype.toString are the known false positive.',
  ref: REF,
  expected: NATIVE,
  needs: [],
  uses: ['lies', 'webdriver'],
  judge: liesCheck(true, 'fail'),
})

export const apiLies = botCheck({
  id: 'api-lies',
  name: 'Fingerprinting APIs are native',
  source: 'client',
  why: 'The same six tests on user agent, screen, canvas, WebGL, audio, time zone, layout and console APIs. Anti-detect browsers patch these, but so do privacy extensions (canvas/WebGL blockers, UA switchers) and developer extensions that wrap console methods, so it only warns.',
  ref: REF,
  expected: NATIVE,
  needs: [],
  uses: ['lies', 'webdriver'],
  judge: liesCheck(false, 'warn'),
})
