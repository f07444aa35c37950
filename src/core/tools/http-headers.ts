// http-headers: the request headers as the service received them (the page's POST of its
// results, a fetch() from the page), against what the same browser says in JavaScript.
// A browser writes both from one source — its network stack and its preferences — so they
// agree; automation tools and UA switchers usually change one layer (a User-Agent header, a
// patched navigator, an injected Accept-Language) and forget the others: client hints,
// Sec-Fetch-*, Accept-Encoding, header order.
//
// What the HTTP layer cannot tell: header names' original case, the HTTP version, and the true
// arrival order (Bun's Request.headers iterates names sorted). The TLS evidence listener's
// record of the page's connection provides them (src/checks/wire-headers.ts); without it the
// `http` section has nulls for them.

import { pageRan } from '../../checks/page-ran'
import { signedAgent } from '../../checks/signed-agent'
import { Type } from '@sinclair/typebox'
import { HttpHeadersSignals } from '../../../common/signals/http-headers'
import { brandsClaim, FAMILY_NAMES, parseUserAgent, type ClaimedBrowser } from '../../../common/user-agent'
import { acceptLanguageVsLanguages } from '../../checks/accept-language-header'
import { acceptLanguageQ } from '../../checks/accept-language-q'
import { acceptEncoding, browserHeadersPresent, secFetch } from '../../checks/browser-headers'
import { hintsFromHeaders, secChUaVsNavigator, uaVsClientHints } from '../../checks/client-hints'
import { HIGH_ENTROPY_HEADERS, highEntropyHints } from '../../checks/high-entropy-hints'
import { languagesPresent } from '../../checks/languages-present'
import { listenerAddress } from '../../checks/listener-address'
import { dntHeader, gpcHeader } from '../../checks/privacy-headers'
import { automationHeaders, uaAutomation } from '../../checks/request-tools'
import { uaHeaderVsNavigator } from '../../checks/ua-header'
import { brandsGrease, navigatorUaVsUaData } from '../../checks/user-agent-data'
import { headerCaseHttpVersion, headerOrder, headerOrderSource, wireRecord } from '../../checks/wire-headers'
import { parseAcceptLanguage } from '../accept-language'
import type { Check } from '../scoring'
import { header } from './observation'
import { tcpSynOs } from '../../checks/tcp-syn-os'
import { defineTool } from './types'

export const HttpSectionSchema = Type.Object({
  http: Type.Object({
    headerNames: Type.Array(Type.String(), { description: 'Header names as the HTTP layer listed them (lower-cased).' }),
    orderPreserved: Type.Boolean({ description: 'False when the list is alphabetical, i.e. the arrival order was not kept.' }),
    orderSource: Type.Union([Type.Literal('wire'), Type.Literal('request'), Type.Null()], { description: '`wire`: the order and names below come from the TLS evidence listener\'s record of this page\'s connection; `request`: from the submitting request (when its order was kept); null: not known.' }),
    httpVersion: Type.Union([Type.String(), Type.Null()], { description: 'The HTTP version of the page\'s connection to the TLS evidence listener (HTTP/2, or the HTTP/1 request line\'s); null without the listener.' }),
    originalNames: Type.Union([Type.Array(Type.String()), Type.Null()], { description: 'Header names in the order and case they were sent, from the TLS evidence listener (HTTP/2 names are lower case by definition); null without the listener.' }),
    claimed: Type.Object({
      userAgent: Type.Unknown({ description: 'What the User-Agent header claims (family, engine, version, os, mobile, headless, tool).' }),
      clientHints: Type.Union([Type.Object({ family: Type.String(), version: Type.Union([Type.Number(), Type.Null()]), platform: Type.Union([Type.String(), Type.Null()]), mobile: Type.Union([Type.Boolean(), Type.Null()]) }), Type.Null()]),
    }),
    acceptLanguage: Type.Union([Type.Array(Type.Object({ tag: Type.String(), q: Type.Number() })), Type.Null()]),
    clientHints: Type.Object({ requested: Type.Array(Type.String()), received: Type.Record(Type.String(), Type.String()) }),
  }),
  verdict: Type.String({ description: 'One sentence for a person.' }),
})

function verdictText(checks: readonly Check[], claimed: ClaimedBrowser, orderKnown: boolean): string {
  const failed = checks.filter((c) => c.verdict === 'fail')
  const warned = checks.filter((c) => c.verdict === 'warn')
  const who = claimed.family === 'tool' ? `an HTTP client (${claimed.tool})` : claimed.headless ? `headless ${FAMILY_NAMES[claimed.family]}` : `${FAMILY_NAMES[claimed.family]} ${claimed.version ?? ''}`.trim()
  const head = failed.length
    ? `The headers do not come from an ordinary browser session (the User-Agent claims ${who}). Failed: ${failed.map((c) => c.name).join('; ')}.`
    : warned.length
      ? `Headers are consistent with ${who}, with ${warned.length} weak ${warned.length === 1 ? 'warning' : 'warnings'}.`
      : `Headers are consistent with what ${who} says in JavaScript.`
  return orderKnown ? head : `${head} Not tested: header order, original case and HTTP version, which need the service's TLS evidence listener (TLS_PORT).`
}

export const httpHeaders = defineTool({
  id: 'http-headers',
  signals: HttpHeadersSignals,
  sections: HttpSectionSchema,
  checks: [
    [uaAutomation, 60],
    [uaHeaderVsNavigator, 40],
    [uaVsClientHints, 35],
    [secChUaVsNavigator, 35],
    [highEntropyHints, 25],
    [brandsGrease, 15],
    [navigatorUaVsUaData, 25],
    [languagesPresent, 15],
    [acceptLanguageVsLanguages, 25],
    [acceptLanguageQ, 8],
    [browserHeadersPresent, 30],
    [acceptEncoding, 15],
    [secFetch, 25],
    [headerOrder, 25],
    [headerCaseHttpVersion, 15],
    [automationHeaders, 30],
    [dntHeader, 10],
    [gpcHeader, 10],
    [listenerAddress, 10],
    [tcpSynOs, 20],
    [pageRan, 30],
    // A Web Bot Auth signature (issue 60): a signed agent, or one spoofed; `na` when unsigned.
    [signedAgent, 60],
  ],
  addSections(_, { checks }, server) {
    const claimed = parseUserAgent(server.userAgent)
    const hints = hintsFromHeaders(server)
    const hintClaim = hints.brands ? brandsClaim(hints.brands) : null
    const { names, wire: wireOrder, sorted } = headerOrderSource(server)
    const wire = wireRecord(server)
    const al = header(server, 'accept-language')
    return {
      http: {
        headerNames: names,
        orderPreserved: !sorted,
        orderSource: wireOrder ? 'wire' : sorted ? null : 'request',
        httpVersion: wire?.version ?? null,
        originalNames: wire?.names ?? null,
        claimed: {
          userAgent: claimed,
          clientHints: hintClaim && { family: hintClaim.family, version: hintClaim.version, platform: hints.platform, mobile: hints.mobile },
        },
        acceptLanguage: al === undefined ? null : parseAcceptLanguage(al),
        clientHints: { requested: ['sec-ch-ua', 'sec-ch-ua-mobile', 'sec-ch-ua-platform', ...HIGH_ENTROPY_HEADERS], received: Object.fromEntries(server.headers.filter(([n]) => n.startsWith('sec-ch-ua'))) },
      },
      verdict: verdictText(checks, claimed, !!wireOrder || !sorted),
    }
  },
})
