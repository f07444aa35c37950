// vpn-detector: WebRTC addresses, the browser's time zone and languages, and the round trip
// measured in the page, and lookups in the service's DNS zone. The server adds its address, proxy headers and Accept-Language, and,
// from the page's connection to the TLS evidence listener (TLS_PORT), the TCP handshake's RTT
// against the HTTP/2 PING RTT of that connection.
import { patient } from '../core/collect'
import { definePlan, type ToolPlan } from '../core/runner'
import { dnsLookups } from '../signals/dns-lookups'
import { fetchRtt } from '../signals/fetch-rtt'
import { iceCandidates } from '../signals/ice-candidates'
import { jsEngine } from '../signals/js-engine'
import { languages } from '../signals/languages'
import { tlsEvidence } from '../signals/tls-evidence'
import { intlZone } from '../signals/tz-zone'

/** vpn-detector's sources, made when its run starts (they read the page's nonce then). */
export function vpnDetectorPlan(): ToolPlan {
  // A relayed connection is slow by nature (a Tor circuit's TLS handshake and PINGs take
  // seconds): cutting it at the page's 3 s would lose the evidence of exactly those clients.
  return definePlan(
    'vpn-detector',
    {
      ice: iceCandidates(1500, { serviceStun: true }),
      zone: intlZone,
      languages,
      rtt: fetchRtt(5),
      // Names in the service's DNS zone (DNS_ZONE), as dns-leak looks them up: the resolvers that
      // ask for them are compared with this address (resolver-network).
      lookups: dnsLookups(document.body.dataset.dnsZone || null, document.body.dataset.nonce || null, 4, 2000),
      tlsEvidence: patient(tlsEvidence, 6000),
      engine: jsEngine,
    },
    { timeoutMs: 3000 },
  )
}
