// Sample webrtc-leak submissions for the tool's tests and its checks' (src/checks/*.test.ts).

import type { Static } from '@sinclair/typebox'
import type { WebrtcLeakSignals } from '../../../common/signals/webrtc-leak'
import type { StunEvidence } from '../../checks/stun-evidence'
import type { Check } from '../scoring'
import type { ServerObservation } from './observation'
import { webrtcLeak, type WebrtcLeakSections } from './webrtc-leak'

export const CHROME_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36'
export const server = (ip: string, userAgent = CHROME_UA): ServerObservation => ({ ip, userAgent, headers: [], receivedAt: 0 })
/** A submission with a valid page nonce and what the listener filed under it. */
export const withEvidence = (ip: string, evidence: Array<{ kind: string; data: unknown }>): ServerObservation => ({ ...server(ip), nonce: 'valid', evidence: evidence.map((e) => ({ ...e, observedAt: '2026-01-01T00:00:00+00:00' })) })
export const SERVICE = ['turn:antibot.example:3478?transport=udp', 'stun:antibot.example:3478']

export const MDNS_A = 'candidate:28182174 1 udp 2113937151 1e4744f5-761b-425b-9d6c-2f28d7990e3c.local 49070 typ host generation 0 ufrag bqa7 network-cost 999'
export const MDNS_B = 'candidate:115108398 1 udp 2113942271 a2b2d7e3-887d-45d5-b7b8-b24ef825341a.local 37113 typ host generation 0 ufrag bqa7 network-cost 999'
export const RAW_V4 = 'candidate:842163049 1 udp 2122260223 192.168.1.23 56143 typ host generation 0 ufrag sXnE network-id 1 network-cost 10'
export const RAW_V6 = 'candidate:2999745851 1 udp 2122262783 2a01:e0a:1:2::5 56144 typ host generation 0 ufrag sXnE network-id 2 network-cost 10'
export const TCP_V4 = 'candidate:1606712346 1 tcp 1518280447 192.168.1.23 9 typ host tcptype active generation 0 ufrag sXnE network-id 1 network-cost 10'

/** What the page sends: event strings, and the same candidates as SDP lines (without ufrag, as Chrome writes them). */
export function ice(events: string[], opts: { sdpExtra?: string[]; sdpOnly?: boolean; gathering?: 'complete' | 'timeout'; servers?: string[] } = {}) {
  const lines = events.map((e) => `a=${e.replace(/ ufrag \S+/, '')}`)
  return {
    ok: true as const,
    ms: 160,
    value: {
      candidates: opts.sdpOnly ? [] : events,
      sdp: ['c=IN IP4 0.0.0.0', ...lines, ...(opts.sdpExtra ?? [])].join('\r\n'),
      gathering: opts.gathering ?? ('complete' as const),
      gatheringMs: 150,
      errors: [],
      ...(opts.servers ? { servers: opts.servers } : {}),
    },
  }
}

export const nativeApi = { ok: true as const, ms: 0, value: { peerConnection: true, prefixed: null, dataChannel: true, native: true } }
export const devices = (audioinput: number, audiooutput: number, videoinput: number, labelled = 0) => ({ ok: true as const, ms: 3, value: { audioinput, audiooutput, videoinput, other: 0, labelled } })

/**
 * The registered judge; `stun` stands for what the listener filed under a valid page nonce
 * (the observation then carries it as `stun`/`turn` evidence, as src/http/observe.ts does).
 */
export function judgeWebrtc(s: WebrtcLeakSignals, obs: ServerObservation, stun: StunEvidence | null = null) {
  const items = stun ? [...stun.bindings.map((data) => ({ kind: 'stun', data })), ...stun.allocations.map((data) => ({ kind: 'turn', data }))] : []
  const judged = webrtcLeak.judge(s, stun ? { ...obs, nonce: 'valid', evidence: items.map((e) => ({ ...e, observedAt: '2026-01-01T00:00:00+00:00' })) } : obs)
  return { checks: judged.checks, sections: judged.sections as Static<typeof WebrtcLeakSections> }
}

export const byId = (checks: Check[]) => Object.fromEntries(checks.map((c) => [c.id, c]))
export const verdicts = (checks: Check[]) => Object.fromEntries(checks.map((c) => [c.id, c.verdict]))
