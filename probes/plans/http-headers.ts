// http-headers: what the page can say about the browser's identity and preferences; the
// server compares it with the headers of the page's own POST (the fetch that submits these
// results), which the tool page's Accept-CH has asked to carry the high-entropy client hints.
// The engine (its error messages) says which browser really sent them.
import { definePlan, type ToolPlan } from '../core/runner'
import { jsEngine } from '../signals/js-engine'
import { languages } from '../signals/languages'
import { navigatorIdentity } from '../signals/navigator-identity'
import { pageContext } from '../signals/page-context'
import { privacyPrefs } from '../signals/privacy-prefs'
import { tlsEvidence } from '../signals/tls-evidence'
import { uaClientHints } from '../signals/ua-client-hints'

/** http-headers's sources, made when its run starts (they read the page's nonce then). */
export function httpHeadersPlan(): ToolPlan {
  return definePlan('http-headers', {
    navigator: navigatorIdentity,
    languages,
    uaData: uaClientHints,
    privacy: privacyPrefs,
    context: pageContext,
    tlsEvidence,
    engine: jsEngine,
  })
}
