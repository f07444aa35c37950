// The browser the User-Agent header claims, as the permission and feature checks compare it
// with what the page's engine shows (common/user-agent.ts parses it).

import { engineClaim, type EngineClaim } from '../../common/user-agent'
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
