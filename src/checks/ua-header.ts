// The User-Agent header against navigator.userAgent. A browser sends the string it shows to
// scripts; https://developer.mozilla.org/docs/Web/API/Navigator/userAgent

import type { SignalResult } from '../../common/signal'
import { checkOn } from './define'

/** The signal this check reads (navigator-identity or navigator-props: both have userAgent). */
export interface UaHeaderSignals {
  navigator: SignalResult<{ userAgent: string }>
}

export const uaHeaderVsNavigator = checkOn<UaHeaderSignals>()({
  id: 'ua-header-vs-navigator',
  name: 'User-Agent header equals navigator.userAgent',
  found: 'the User-Agent header differs from navigator.userAgent',
  source: 'server',
  why: 'Browsers send the same string they expose to scripts. A difference means one of them was overridden (an extra header set by an automation script or a proxy, or navigator.userAgent patched in the page), or the request did not come from this page.',
  ref: 'https://html.spec.whatwg.org/multipage/system-state.html#dom-navigator-useragent',
  expected: 'identical strings',
  needs: ['navigator'],
  judge: ({ navigator }, { server }) =>
    navigator.userAgent === server.userAgent
      ? { verdict: 'pass', observed: 'identical' }
      : { verdict: 'fail', observed: { header: server.userAgent, navigator: navigator.userAgent } },
})
