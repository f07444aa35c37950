// tls-fingerprint: what the browser reveals of its network stack in JavaScript, and a fresh
// TLS connection to the evidence listener once it exists (issue 7). The server judges the
// claimed browser from the headers of the page's POST.
import { runUntypedToolPage } from '../core/runner'
import { navigatorProps } from '../signals/navigator-props'
import { networkInformation } from '../signals/network-information'
import { networkStack } from '../signals/network-stack'
import { tlsEvidence } from '../signals/tls-evidence'
import { uaClientHints } from '../signals/ua-client-hints'

void runUntypedToolPage('tls-fingerprint', {
  navigator: navigatorProps,
  uaData: uaClientHints,
  stack: networkStack,
  connection: networkInformation,
  evidence: tlsEvidence,
})
