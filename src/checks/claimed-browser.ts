// What the automation checks compare against: the browser the page's navigator.userAgent
// claims (the header's when the page could not read navigator), and the JavaScript engine
// that really runs the page, told apart by its error messages (common/engine-errors.ts).

import type { BotDetectorSignals } from '../../common/signals/bot-detector'
import { jsEngineOf } from '../../common/engine-errors'
import { parseUserAgent, type ClaimedBrowser, type Engine } from '../../common/user-agent'
import type { ServerObservation } from '../core/tools/observation'
import type { SignalValues } from './define'

type V = SignalValues<BotDetectorSignals>

/** The user agent the page runs under: navigator.userAgent, else the User-Agent header. */
export function pageUserAgent(nav: V['navigator'] | undefined, server: Pick<ServerObservation, 'userAgent'>): string {
  return nav?.userAgent ?? server.userAgent
}

export function claimedBrowser(nav: V['navigator'] | undefined, server: Pick<ServerObservation, 'userAgent'>): ClaimedBrowser {
  return parseUserAgent(pageUserAgent(nav, server))
}

/** The engine the error messages show, or 'unknown' (also without the engine signal). */
export function runningEngine(engine: V['engine'] | undefined): Engine {
  return engine ? jsEngineOf(engine) : 'unknown'
}
