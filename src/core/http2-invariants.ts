// What every HTTP/2 preface of a browser's network stack shows whatever its version (issue 56):
// SETTINGS ids and their order, the WINDOW_UPDATE increment, the pseudo-header order, per family,
// with where each comes from. The hello's invariants and how both are judged: ./tls-invariants.ts.

import { judgeAll, type Broken, type Invariant, type InvariantFamily } from './tls-invariants'
import { isGreaseValue } from './tls-versions'

/** The HTTP/2 preface as an Akamai fingerprint gives it (settings ids in order, WINDOW_UPDATE, pseudo-header order). */
export interface Http2Shape {
  settingsIds: readonly number[]
  windowUpdate: number | null
  pseudo: string
}

/** The settings ids in the order sent, GREASE ids (0x?a?a, which Chromium may send to keep servers tolerant) left out. */
const ids = (h: Http2Shape) => h.settingsIds.filter((i) => !isGreaseValue(i))
/**
 * Whether the ids are one of `known` (comma-separated), followed only by ids above `last`: a
 * setting defined later (9, SETTINGS_NO_RFC7540_PRIORITIES) that a newer version may add after
 * the ones it has always sent.
 */
function settingsOf(h: Http2Shape, known: readonly string[], last: number): boolean {
  const all = ids(h)
  const base = all.filter((i) => i <= last)
  const extra = all.slice(base.length)
  return known.includes(base.join()) && extra.every((i) => i > last)
}
const AKAMAI = "Akamai's HTTP/2 fingerprint paper (Shuster, Black Hat EU 2017) and the values published by tls.peet.ws and browserleaks.com/http2"

export const HTTP2_INVARIANTS: ReadonlyArray<Invariant<Http2Shape>> = [
  {
    id: 'settings',
    family: 'chromium',
    says: 'SETTINGS ids 1, 2, 4, 6 in that order (before Chrome 106: 1, 3, 4, 6; older still 1, 3, 4), any newer setting after them',
    source: `Chromium net/spdy/spdy_session.cc (SendInitialData: a std::map of settings, sent in id order); ${AKAMAI}; captured: Chromium 156`,
    holds: (h) => settingsOf(h, ['1,2,4,6', '1,3,4,6', '1,3,4'], 6),
  },
  {
    id: 'window-update',
    family: 'chromium',
    says: 'a connection WINDOW_UPDATE of 15663105 (a 15 MiB window)',
    source: `Chromium net/spdy/spdy_session.h (kSpdySessionMaxRecvWindowSize, 15 MiB, less the 65535 every connection starts with); ${AKAMAI}; captured: Chromium 156`,
    holds: (h) => (h.windowUpdate === null ? false : h.windowUpdate === 15663105),
  },
  {
    id: 'pseudo-order',
    family: 'chromium',
    says: 'pseudo-headers in the order :method, :authority, :scheme, :path',
    source: `Chromium net/spdy/spdy_http_utils.cc (CreateSpdyHeadersFromHttpRequest); ${AKAMAI}; captured: Chromium 156`,
    holds: (h) => h.pseudo === 'm,a,s,p',
  },
  {
    id: 'settings',
    family: 'firefox',
    says: 'SETTINGS ids 1, 2, 4, 5 in that order (before Firefox 120 without 2), any newer setting after them',
    source: `Firefox netwerk/protocol/http/Http2Session.cpp (SendHello); ${AKAMAI}; captured: Firefox ESR 153 (1:65536;2:0;4:131072;5:16384)`,
    holds: (h) => settingsOf(h, ['1,2,4,5', '1,4,5'], 5),
  },
  {
    id: 'window-update',
    family: 'firefox',
    says: 'a connection WINDOW_UPDATE of 12517377 (a 12 MiB window)',
    source: `Firefox netwerk/protocol/http/Http2Session.cpp (SendHello bumps the session window to ASpdySession::kInitialRwin, 12 MiB); ${AKAMAI} (the same value in 2017); captured: Firefox ESR 153`,
    since: 60,
    holds: (h) => (h.windowUpdate === null ? false : h.windowUpdate === 12517377),
  },
  {
    id: 'pseudo-order',
    family: 'firefox',
    says: 'pseudo-headers in the order :method, :path, :authority, :scheme',
    source: `Firefox netwerk/protocol/http/Http2Compression.cpp (EncodeHeaderBlock); ${AKAMAI}; captured: Firefox ESR 153`,
    holds: (h) => h.pseudo === 'm,p,a,s',
  },
  {
    id: 'settings',
    family: 'safari',
    says: 'SETTINGS ids among 2, 3, 4 and 9, with 4 (no header table size, no max header list size)',
    source: `${AKAMAI} (Safari 14–16 4:…;3:100, Safari 17 2:0;4:…;3:100, Safari 18 2:0;3:100;4:…;9:1)`,
    holds: (h) => ids(h).includes(4) && ids(h).every((i) => [2, 3, 4, 9].includes(i)),
  },
  {
    id: 'pseudo-order',
    family: 'safari',
    says: 'pseudo-headers in the order :method, :scheme, :path, :authority (or :authority before :path, Safari 17.4+)',
    source: AKAMAI,
    holds: (h) => h.pseudo === 'm,s,p,a' || h.pseudo === 'm,s,a,p',
  },
]

/** The family's HTTP/2 invariants this preface breaks. */
export function http2Broken(family: InvariantFamily, h2: Http2Shape, major: number | null): Broken[] {
  return judgeAll(HTTP2_INVARIANTS, family, h2, major).broken
}

/** An Akamai fingerprint text (`1:65536;2:0|15663105|0|m,a,s,p`) as the shape the invariants judge. */
export function http2Shape(akamai: string): Http2Shape {
  const [settings = '', window = '', , pseudo = ''] = akamai.split('|')
  const settingsIds = settings
    .split(';')
    .filter(Boolean)
    .map((s) => Number(s.split(':')[0]))
    .filter((n) => Number.isInteger(n))
  const w = Number(window)
  return { settingsIds, windowUpdate: window && window !== '00' && Number.isFinite(w) ? w : null, pseudo }
}
