// Lies: getters and methods that are not what the engine defined. probes/signals/api-lies.ts
// puts each through six tests (toString, no prototype, own keys, not constructible, TypeError
// on a foreign receiver, not a Proxy), after CreepJS's lies detection.
// https://github.com/abrahamjuliot/creepjs/blob/master/src/lies/index.ts

import type { BotDetectorSignals } from '../../common/signals/bot-detector'
import type { Engine } from '../../common/user-agent'
import { checkOn, na, type CheckEnv, type OutcomeOfDefined, type SignalValues } from './define'
import { pageEngine } from './page-engine'

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

/**
 * Members an engine itself defines as data properties, where the others have accessors, so the
 * probe's `value` test (no getter) is no lie there. JavaScriptCore exposes a static IDL attribute
 * as a custom value property: `static readonly attribute NotificationPermission permission`
 * (https://github.com/WebKit/WebKit/blob/main/Source/WebCore/Modules/notifications/Notification.idl)
 * reads as `{value: "default", writable: false, enumerable: true, configurable: true}` on
 * WebKitGTK 2.50 (GNOME Web), where Blink and Gecko give a native getter. Safari's bindings come
 * from the same generator. A stealth getter put there still fails the other tests.
 */
const ENGINE_DATA_PROPERTIES: Partial<Record<Engine, ReadonlySet<string>>> = { webkit: new Set(['Notification.permission']) }

/** Whether a lie is only the running engine's own data property (see ENGINE_DATA_PROPERTIES). */
export function isEngineDataProperty(lie: { api: string; tests: readonly string[] }, engine: Engine): boolean {
  return lie.tests.length === 1 && lie.tests[0] === 'value' && ENGINE_DATA_PROPERTIES[engine]?.has(lie.api) === true
}

function liesCheck(automation: boolean, verdict: 'fail' | 'warn') {
  return ({ lies, webdriver, engine: e }: Partial<Pick<V, 'lies' | 'webdriver' | 'engine'>>, { missing }: CheckEnv<BotDetectorSignals>): OutcomeOfDefined => {
    if (!lies && !webdriver) return na(missing('lies'))
    const engine = pageEngine(e)
    const tested = allLies(lies, webdriver).filter((l) => isAutomationApi(l.api) === automation)
    const found = tested.filter((l) => !isEngineDataProperty(l, engine.engine))
    const excused = tested.filter((l) => isEngineDataProperty(l, engine.engine)).map((l) => l.api)
    return {
      verdict: found.length ? verdict : 'pass',
      observed: found.length ? found.slice(0, 12).map((x) => `${x.api}: ${x.tests.join(', ')}`) : `${lies?.tested ?? 0} functions tested`,
      // Said only where the engine decided something, so every other task keeps the stored code.
      ...(excused.length ? { expected: `${NATIVE}; ${excused.join(', ')} a data property, as the engine defines it (${engine.basis})` } : {}),
      labels: automation && found.length ? ['stealth'] : [],
    }
  }
}

export const stealthLies = botCheck({
  id: 'stealth-lies',
  name: 'Automation-related APIs are native',
  found: 'automation-related APIs are patched',
  source: 'client',
  why: 'Stealth plugins replace navigator.webdriver, plugins, languages, hardwareConcurrency, permissions.query, Notification.permission, window.outerWidth/outerHeight, iframe.contentWindow and Function.prototype.toString. Each native function passes six tests (toString, no prototype, own keys, not constructible, TypeError on a foreign receiver, not a Proxy); replacements fail some. Privacy extensions rarely touch these; the ones that hide their patches by replacing Function.prototype.toString are the known false positive. Where the running engine (told by its error messages) defines a member as a data property itself (JavaScriptCore: Notification.permission), that is not a lie.',
  ref: REF,
  expected: NATIVE,
  needs: [],
  uses: ['lies', 'webdriver', 'engine'],
  judge: liesCheck(true, 'fail'),
})

export const apiLies = botCheck({
  id: 'api-lies',
  name: 'Fingerprinting APIs are native',
  found: 'fingerprinting APIs are patched',
  source: 'client',
  why: 'The same six tests on user agent, screen, canvas, WebGL, audio, time zone, layout and console APIs. Anti-detect browsers patch these, but so do privacy extensions (canvas/WebGL blockers, UA switchers) and developer extensions that wrap console methods, so it only warns.',
  ref: REF,
  expected: NATIVE,
  needs: [],
  uses: ['lies', 'webdriver', 'engine'],
  judge: liesCheck(false, 'warn'),
})
