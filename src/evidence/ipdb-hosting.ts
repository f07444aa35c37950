// Is an address on a server network rather than a home or mobile line? We found no npm package
// with an offline list of hosting ranges under a usable licence (ip-to-hosting, the one that
// comes up, is a client of the ipapi.is web API), so the answer comes from the AS number and
// organisation name that the ASN tables give us: first a curated list of well-known networks,
// then, marked as a heuristic, words in the organisation name.
//
// Every curated number was checked against the organisation name in the pinned
// @ip-location-db/asn data (ipdb.test.ts asserts it), so a typo cannot silently flag a home ISP.
// The list is deliberately short: big clouds, the VPS/dedicated hosts that bots and VPN exits
// rent most, CDNs whose egress carries relayed users, and the few networks run by VPN and Tor
// operators themselves.
//
// Tor: whether an address is a Tor exit is only known from the live exit list
// (https://check.torproject.org/torbulkexitlist), which this service cannot fetch: it runs
// without network access. The two ASNs below belong to non-profits whose address space is
// almost all Tor relays; any other exit is, at best, caught as hosting.

export const NETWORK_KINDS = ['cloud', 'hosting', 'cdn', 'vpn', 'tor'] as const
export type NetworkKind = (typeof NETWORK_KINDS)[number]

export interface HostingReason {
  /** `known-asn`: the AS is on the curated list. `org-name-heuristic`: a word in its name. */
  readonly source: 'known-asn' | 'org-name-heuristic'
  readonly kind: NetworkKind
  /** Provider for a known AS (`Amazon AWS`), the matched word for the heuristic (`hosting`). */
  readonly label: string
}

interface KnownNetwork {
  readonly kind: NetworkKind
  readonly provider: string
  /** A word the AS's organisation name contains in the data (checked by the real-data test). */
  readonly orgHas: string
}

const n = (kind: NetworkKind, provider: string, orgHas: string): KnownNetwork => ({ kind, provider, orgHas })

export const KNOWN_NETWORKS: ReadonlyMap<number, KnownNetwork> = new Map<number, KnownNetwork>([
  // Clouds. Google's 15169 also carries Google's own services (8.8.8.8, crawlers); a client
  // address there is still a Google machine, not a person's line.
  [16509, n('cloud', 'Amazon AWS', 'Amazon')],
  [14618, n('cloud', 'Amazon AWS', 'Amazon')],
  [8987, n('cloud', 'Amazon AWS', 'Amazon')],
  [15169, n('cloud', 'Google', 'Google')],
  [396982, n('cloud', 'Google Cloud', 'Google')],
  [19527, n('cloud', 'Google', 'Google')],
  [139070, n('cloud', 'Google Cloud', 'Google')],
  [8075, n('cloud', 'Microsoft Azure', 'Microsoft')],
  [8068, n('cloud', 'Microsoft', 'Microsoft')],
  [12076, n('cloud', 'Microsoft Azure', 'Microsoft')],
  [31898, n('cloud', 'Oracle Cloud', 'Oracle')],
  [45102, n('cloud', 'Alibaba Cloud', 'Alibaba')],
  [37963, n('cloud', 'Alibaba Cloud', 'Alibaba')],
  [132203, n('cloud', 'Tencent Cloud', 'Tencent')],
  [45090, n('cloud', 'Tencent Cloud', 'Tencent')],
  [36351, n('cloud', 'IBM Cloud', 'IBM')],
  [136907, n('cloud', 'Huawei Cloud', 'HUAWEI')],
  [55990, n('cloud', 'Huawei Cloud', 'Huawei')],
  [135377, n('cloud', 'UCloud', 'UCLOUD')],
  // VPS, dedicated and bare-metal hosts.
  [14061, n('hosting', 'DigitalOcean', 'DigitalOcean')],
  [16276, n('hosting', 'OVHcloud', 'OVH')],
  [24940, n('hosting', 'Hetzner', 'Hetzner')],
  [213230, n('hosting', 'Hetzner', 'Hetzner')],
  [63949, n('hosting', 'Linode (Akamai)', 'Akamai')],
  [20473, n('hosting', 'Vultr (Choopa)', 'Constant Company')],
  [51167, n('hosting', 'Contabo', 'Contabo')],
  [141995, n('hosting', 'Contabo', 'Contabo')],
  [40021, n('hosting', 'Contabo', 'Contabo')],
  [12876, n('hosting', 'Scaleway', 'Scaleway')],
  [60781, n('hosting', 'Leaseweb', 'LeaseWeb')],
  [16265, n('hosting', 'Leaseweb', 'LeaseWeb')],
  [28753, n('hosting', 'Leaseweb', 'Leaseweb')],
  [30633, n('hosting', 'Leaseweb', 'Leaseweb')],
  [394380, n('hosting', 'Leaseweb', 'Leaseweb')],
  // M247 and Datacamp (CDN77) rent the servers behind many commercial VPN exits.
  [9009, n('hosting', 'M247', 'M247')],
  [60068, n('hosting', 'Datacamp (CDN77)', 'Datacamp')],
  [212238, n('hosting', 'Datacamp (CDN77)', 'Datacamp')],
  [62240, n('hosting', 'Clouvider', 'Clouvider')],
  [8100, n('hosting', 'QuadraNet', 'QuadraNet')],
  [53667, n('hosting', 'FranTech (BuyVM)', 'FranTech')],
  [36352, n('hosting', 'HostPapa (ColoCrossing)', 'HostPapa')],
  [46606, n('hosting', 'Unified Layer', 'Unified Layer')],
  [26496, n('hosting', 'GoDaddy', 'GoDaddy')],
  [398101, n('hosting', 'GoDaddy', 'GoDaddy')],
  [19318, n('hosting', 'Interserver', 'Interserver')],
  [197540, n('hosting', 'netcup', 'netcup')],
  [47583, n('hosting', 'Hostinger', 'Hostinger')],
  [204915, n('hosting', 'Hostinger', 'Hostinger')],
  [29802, n('hosting', 'HIVELOCITY', 'HIVELOCITY')],
  [32097, n('hosting', 'WholeSale Internet', 'WholeSale')],
  [49981, n('hosting', 'WorldStream', 'WorldStream')],
  [50673, n('hosting', 'Serverius', 'Serverius')],
  [43350, n('hosting', 'NForce', 'NForce')],
  [22612, n('hosting', 'Namecheap', 'Namecheap')],
  [55286, n('hosting', 'ServerMania (B2 Net)', 'B2 Net')],
  [397423, n('hosting', 'Tier.Net', 'Tier.Net')],
  [8560, n('hosting', 'IONOS', 'IONOS')],
  [9370, n('hosting', 'SAKURA Internet', 'SAKURA')],
  [4785, n('hosting', 'xTom', 'xTom')],
  [23470, n('hosting', 'ReliableSite', 'ReliableSite')],
  [3223, n('hosting', 'Voxility', 'Voxility')],
  [396356, n('hosting', 'Latitude.sh', 'Latitude')],
  [18450, n('hosting', 'WebNX', 'WebNX')],
  [46562, n('hosting', 'Performive', 'Performive')],
  [13213, n('hosting', 'UK-2', 'UK-2')],
  [35916, n('hosting', 'Multacom', 'MULTACOM')],
  [25820, n('hosting', 'IT7 Networks', 'IT7')],
  [21859, n('hosting', 'Zenlayer', 'Zenlayer')],
  [11878, n('hosting', 'tzulo', 'tzulo')],
  [206264, n('hosting', 'Amarutu', 'Amarutu')],
  [42831, n('hosting', 'UK Dedicated Servers', 'Dedicated Servers')],
  [33387, n('hosting', 'Nocix', 'Nocix')],
  [200052, n('hosting', 'Feral.io', 'Feral')],
  // CDNs. Their egress addresses carry relayed users: Cloudflare WARP (13335, 209242), and
  // iCloud Private Relay, whose second hop is run by CDNs such as Cloudflare
  // (https://blog.cloudflare.com/icloud-private-relay/) and Akamai
  // (https://www.akamai.com/blog/cloud/powering-and-protecting-online-privacy-icloud-private-relay).
  [13335, n('cdn', 'Cloudflare', 'Cloudflare')],
  [209242, n('cdn', 'Cloudflare', 'Cloudflare')],
  [20940, n('cdn', 'Akamai', 'Akamai')],
  [16625, n('cdn', 'Akamai', 'Akamai')],
  [54113, n('cdn', 'Fastly', 'Fastly')],
  // Networks of VPN operators themselves (their other exits sit at the hosts above).
  [39351, n('vpn', 'Mullvad (31173 Services)', '31173 Services')],
  [62371, n('vpn', 'Proton VPN', 'Proton')],
  [209103, n('vpn', 'Proton VPN', 'Proton')],
  [136787, n('vpn', 'NordVPN (PacketHub)', 'PacketHub')],
  [207137, n('vpn', 'NordVPN (PacketHub)', 'PacketHub')],
  // Non-profits that run Tor relays and exits (see the note at the top).
  [60729, n('tor', 'Tor relays (Stiftung Erneuerbare Freiheit)', 'Erneuerbare Freiheit')],
  [208323, n('tor', 'Tor relays (Foundation for Applied Privacy)', 'Applied Privacy')],
])

// Words that, in an AS organisation name, almost always mean servers. Weak words also name
// plenty of telecom ISPs ("Cloud Telecom", "Server Fast Telecom"), so an ISP word vetoes them.
const STRONG_WORDS = /\b(hosting|data ?cent(?:er|re)s?|colocation|vps|dedicated)\b/i
const WEAK_WORDS = /\b(cloud|host|servers?)\b/i
const ISP_WORDS = /telecom|broadband|fib(?:er|re|ra)|wireless|mobile|cable|provedor|\bisp\b|internet service/i

/** Why the network of `asn`/`org` looks like servers rather than people, or null. */
export function classifyNetwork(asn: number | null, org: string | null): HostingReason | null {
  const known = asn === null ? undefined : KNOWN_NETWORKS.get(asn)
  if (known) return { source: 'known-asn', kind: known.kind, label: known.provider }
  if (!org) return null
  const word = STRONG_WORDS.exec(org)?.[1] ?? (ISP_WORDS.test(org) ? undefined : WEAK_WORDS.exec(org)?.[1])
  return word ? { source: 'org-name-heuristic', kind: 'hosting', label: word.toLowerCase() } : null
}
