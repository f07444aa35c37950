// The address the service saw the submission come from: what every site sees, and what the
// network checks compare the browser's revelations with.

import { describeAddress } from '../core/tools/network-evidence'
import { checkOn, na } from './define'

/** Only a public or CGNAT address says anything about where the browser is on the Internet. */
export const isRoutable = (scope: string | null): boolean => scope === 'public' || scope === 'cgnat'

/** Reads no signal: the address is the server's observation. */
export const httpAddress = checkOn<object>()({
  id: 'http-address',
  name: 'Address the service sees',
  found: 'the address is not one the checks can place',
  source: 'server',
  why: 'The address the HTTP request came from: the socket peer, or the client named by X-Forwarded-For when the service sits behind its own trusted proxy (TRUSTED_PROXIES). It is what every site sees, and the network checks compare it with what the browser reveals. A loopback or private address means the service is reached on the same machine or network, where no address-based check can say anything.',
  expected: 'any address: this is what every site sees',
  needs: [],
  judge: (_, { server }) => {
    const addr = describeAddress(server.ip)
    if (isRoutable(addr.scope)) return { verdict: 'pass', observed: addr.text }
    return {
      ...na(addr.scope ? `a public address; ${addr.scope} means the service is reached from the same machine or network, so address-based checks cannot apply` : 'an IP address (the request came without a socket, e.g. in-process)'),
      observed: addr.text,
    }
  },
})
