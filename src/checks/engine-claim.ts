// The browser the User-Agent header claims, as the permission and feature checks compare it
// with what the page's engine shows (common/user-agent.ts parses it), and the engine that really
// runs the page, told by its error messages (page-engine.ts), which
// settles what the permission names, markers and feature APIs say when their tables are behind
// the engine.

import { engineClaim, type Engine, type EngineClaim } from '../../common/user-agent'
import { header, type ServerObservation } from '../core/tools/observation'

export const ENGINE_LABEL = { blink: 'Chromium (Blink)', gecko: 'Firefox (Gecko)', webkit: 'Safari (WebKit)', unknown: 'unknown', mixed: 'two engines at once' } as const

/** The claim of the request's User-Agent header. */
export function claimOf(server: ServerObservation): EngineClaim {
  return engineClaim(server.userAgent || header(server, 'user-agent') || '')
}

/** "chrome 131 (Chromium (Blink))". */
export function engineClaimText(c: EngineClaim): string {
  return `${c.browser}${c.major !== null ? ` ${c.major}` : ''} (${ENGINE_LABEL[c.engine]})`
}

/**
 * Whether a witness of the engine (the permission names, the markers) fits the claimed engine,
 * with the engine the page's error messages show as the arbiter. Those messages come from the
 * JavaScript engine itself and cannot be patched from the page, while the witnesses are read
 * through tables of what each engine ships, which fall behind when an engine adopts a name or
 * property (Firefox 153 knows Web Serial). So: when the messages tell the engine, the claim
 * holds exactly when it names that engine, whatever a table says; when they match none, the
 * witness decides as before.
 */
export function fitsClaim(witness: Engine | 'mixed', claimed: Engine, running: Engine): boolean {
  return running !== 'unknown' ? running === claimed : witness === claimed
}
