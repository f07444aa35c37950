// ICE candidates any page can gather: a peer connection with a data channel (an offer needs at
// least one m= section; a data channel adds one without asking for a camera), an offer set as
// local description, then every `icecandidate` event until gathering completes. Host
// candidates appear as `<uuid>.local` names where the browser hides local addresses (mDNS,
// https://datatracker.ietf.org/doc/html/draft-ietf-mmusic-mdns-ice-candidates), raw addresses otherwise.
// With `serviceStun`, and when the page says the service runs its STUN/TURN listener
// (<body data-stun-port>), the service is the ICE server: TURN with this page's credentials
// (username = the page nonce, password = its TURN secret), so the service files the address the
// browser's UDP traffic leaves from under this page, and STUN for a server-reflexive candidate.
// The listener answers the authenticated Allocate with 403 (it records, never relays): the page
// sees an icecandidateerror for the TURN URL, and no relay candidate.
// The final SDP is read too: extensions that filter the events sometimes forget it. Only its
// candidate, c= and a=rtcp lines are sent (not the ICE password or DTLS fingerprint).
// https://developer.mozilla.org/docs/Web/API/RTCPeerConnection/icecandidate_event
import type { IceGathering } from '../../common/signals/webrtc-leak'
import { ProbeError } from '../core/probe-error'

const MAX_CANDIDATES = 100

/** ICE servers of the service's own listener, from the page's <body data-*>; none when it is off. */
function serviceIceServers(): RTCIceServer[] {
  const { stunPort, nonce, turnSecret } = document.body.dataset
  if (!stunPort || !/^\d{1,5}$/.test(stunPort)) return []
  // location.hostname keeps the brackets of an IPv6 literal; add them if a browser drops them.
  const h = location.hostname
  const host = h.includes(':') && !h.startsWith('[') ? `[${h}]` : h
  const servers: RTCIceServer[] = []
  if (nonce && turnSecret) servers.push({ urls: `turn:${host}:${stunPort}?transport=udp`, username: nonce, credential: turnSecret })
  servers.push({ urls: `stun:${host}:${stunPort}` })
  return servers
}

export function iceCandidates(waitMs = 2000, options: { serviceStun?: boolean } = {}) {
  return async (): Promise<IceGathering> => {
    const PC = (globalThis as { RTCPeerConnection?: typeof RTCPeerConnection }).RTCPeerConnection
    if (typeof PC !== 'function') throw new ProbeError('unsupported', 'no RTCPeerConnection: WebRTC is switched off or removed by an extension')
    const t0 = performance.now()
    const iceServers = options.serviceStun ? serviceIceServers() : []
    // The URLs only (never the credential), so the server knows which servers the page used.
    const servers = iceServers.map((s) => String(s.urls))
    let pc: RTCPeerConnection
    try {
      pc = new PC({ iceServers })
    } catch (e) {
      throw new ProbeError('blocked', `RTCPeerConnection refused: ${e instanceof Error ? e.message : String(e)}`)
    }
    const candidates: string[] = []
    const errors: Array<{ code: number; text: string; url: string }> = []
    try {
      const gathered = new Promise<'complete' | 'timeout'>((resolve) => {
        const timer = setTimeout(() => resolve('timeout'), waitMs)
        const finish = () => {
          clearTimeout(timer)
          resolve('complete')
        }
        pc.onicecandidate = (e) => {
          // A null candidate marks the end of gathering (older Safari only fires this one).
          if (!e.candidate) finish()
          else if (e.candidate.candidate && candidates.length < MAX_CANDIDATES) candidates.push(e.candidate.candidate.slice(0, 1024))
        }
        pc.onicegatheringstatechange = () => pc.iceGatheringState === 'complete' && finish()
        pc.onicecandidateerror = (e) => {
          const ev = e as RTCPeerConnectionIceErrorEvent
          if (errors.length < 20) errors.push({ code: ev.errorCode, text: String(ev.errorText).slice(0, 200), url: String(ev.url).slice(0, 300) })
        }
      })
      pc.createDataChannel('probe')
      await pc.setLocalDescription(await pc.createOffer())
      const gathering = await gathered
      const sdp = (pc.localDescription?.sdp ?? '')
        .split(/\r?\n/)
        .filter((l) => /^(a=candidate:|c=|a=rtcp:|a=end-of-candidates)/.test(l))
        .join('\r\n')
        .slice(0, 32000)
      return { candidates, sdp, gathering, gatheringMs: Math.round(performance.now() - t0), errors, servers }
    } finally {
      pc.close()
    }
  }
}
