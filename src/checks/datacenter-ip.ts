// The address the results came from, in the offline IP database: automation mostly runs on
// cloud and hosting networks, people browse from residential and mobile ones.

import type { BotDetectorSignals } from '../../common/signals/bot-detector'
import { hostingVerdict, intelOf, networkText, whyNoIntel, type HostingPolicy } from '../core/tools/ip-intel'
import { checkOn, na } from './define'

/** Clouds and hosts are where automation runs; VPN/Tor exits and name guesses are people too; CDN relays are ordinary users. */
const BOT_HOSTING: HostingPolicy = { cloud: 'fail', hosting: 'fail', vpn: 'warn', tor: 'warn', cdn: 'pass', heuristic: 'warn' }

export const datacenterIp = checkOn<BotDetectorSignals>()({
  id: 'datacenter-ip',
  name: "Address is not a datacenter's",
  found: 'the address is a datacenter\'s',
  source: 'server',
  why: 'Most automation runs on cloud and hosting servers; people browse from residential and mobile networks (offline IP database: AS and organisation, curated lists). VPN and Tor exits and networks recognised only by a word in their name warn: people use them too. CDN egress (Cloudflare WARP, iCloud Private Relay) carries ordinary users and passes.',
  expected: 'a residential or mobile network',
  needs: [],
  judge: (_, { server, ctx }) => {
    const intel = intelOf(ctx, server.ip)
    if (intel.status !== 'found') return na(whyNoIntel(intel, server.ip)!)
    return { verdict: hostingVerdict(intel.info, BOT_HOSTING), observed: networkText(intel.info) }
  },
})
