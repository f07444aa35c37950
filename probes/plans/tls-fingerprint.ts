// tls-fingerprint: what the browser reveals of its network stack in JavaScript, and a fresh
// TLS connection to the service's TLS evidence listener (src/listeners/tls.ts, on TLS_PORT),
// which files the ClientHello and HTTP/2 preface under the page's nonce. The server judges
// them against the browser the headers of the page's POST claim, and say which engine the
// page runs on (its error messages).
import { definePlan, type ToolPlan } from '../core/runner'
import { jsEngine } from '../signals/js-engine'
import { navigatorProps } from '../signals/navigator-props'
import { networkInformation } from '../signals/network-information'
import { networkStack } from '../signals/network-stack'
import { tlsEvidence } from '../signals/tls-evidence'
import { uaClientHints } from '../signals/ua-client-hints'

/** tls-fingerprint's sources, made when its run starts (they read the page's nonce then). */
export function tlsFingerprintPlan(): ToolPlan {
  return definePlan('tls-fingerprint', {
    navigator: navigatorProps,
    uaData: uaClientHints,
    stack: networkStack,
    connection: networkInformation,
    evidence: tlsEvidence,
    engine: jsEngine,
  })
}
