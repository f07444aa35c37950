// The tool registry: the 14 identifiers and titles fixed by the interface spec, in the
// spec's order. Pure data, shared by the server, the pages and the probes.

export const TOOLS = [
  { id: 'bot-detector', title: 'Bot Detector', blurb: 'Automation frameworks, headless markers, CDP side effects and patched (lying) browser APIs.' },
  { id: 'ip-leak', title: 'IP Leak Test', blurb: 'The address the server sees, proxy headers, and the addresses the page itself can reveal.' },
  { id: 'webrtc-leak', title: 'WebRTC Leak', blurb: 'ICE candidates (host, mDNS, server-reflexive) and media device kinds exposed through WebRTC.' },
  { id: 'http-headers', title: 'HTTP Headers', blurb: 'Request headers as the service received them, against what the browser claims in JavaScript.' },
  { id: 'browser-fingerprint', title: 'Browser Fingerprint', blurb: 'A visitor hash from many components, each checked for stability and for main-frame/worker agreement.' },
  { id: 'canvas-fingerprint', title: 'Canvas & WebGL FP', blurb: '2D canvas and WebGL hashes, noise (farbling) detection and GPU strings.' },
  { id: 'font-detection', title: 'Font Detection', blurb: 'Installed fonts by metrics and by the FontFace API, and the operating system they imply.' },
  { id: 'audio-fingerprint', title: 'Audio Fingerprint', blurb: 'OfflineAudioContext rendering sum, compared across reads to catch noise injection.' },
  { id: 'tls-fingerprint', title: 'TLS / JA3', blurb: 'The TLS and HTTP/2 fingerprint of the connection against the browser the client claims to be.' },
  { id: 'timezone-geo', title: 'Timezone & Geo', blurb: 'Time zone, offsets, locale and clock skew, in the page and in a worker, against the server clock.' },
  { id: 'screen-display', title: 'Screen & Display', blurb: 'Screen, viewport, pixel ratio and media queries, and the headless tells among them.' },
  { id: 'permissions-api', title: 'Permissions & APIs', blurb: 'The permission registry, the Notification mismatch and which feature APIs exist.' },
  { id: 'dns-leak', title: 'DNS Leak Test', blurb: 'Which resolvers look up names for this browser, and where they are.' },
  { id: 'vpn-detector', title: 'VPN / Proxy Detector', blurb: 'Proxy headers, WebRTC against HTTP address, time zone and language against the network.' },
] as const

export type ToolId = (typeof TOOLS)[number]['id']

export const TOOL_IDS: readonly ToolId[] = TOOLS.map((t) => t.id)

const toolIdSet: ReadonlySet<string> = new Set(TOOL_IDS)

export function isToolId(value: unknown): value is ToolId {
  return typeof value === 'string' && toolIdSet.has(value)
}

export function toolTitle(id: ToolId): string {
  return TOOLS.find((t) => t.id === id)!.title
}
