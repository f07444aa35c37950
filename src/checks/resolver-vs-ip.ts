// The DNS resolver against the HTTP address. Only the dns-leak tool's page makes lookups in the
// service's DNS zone; a page that makes none leaves nothing to compare here.

import { checkOn, na } from './define'

export const resolverVsIp = checkOn<object>()({
  id: 'resolver-vs-ip',
  name: 'DNS resolver is near the IP address',
  source: 'server',
  why: 'A VPN that leaks DNS queries sends them to the ISP\'s resolver at home while HTTP leaves through the exit (see dns-leak): resolver and address in different countries or networks. Public resolvers (8.8.8.8, 1.1.1.1) are labelled, not counted.',
  needs: [],
  judge: () => na('needs DNS lookups by this page through the service\'s DNS zone; the dns-leak tool runs them and compares each resolver with this address'),
})
