// ip-leak, webrtc-leak and dns-leak's picture: the addresses the visit revealed, grouped by
// where they were seen (src/core/pictures/address-map.ts), with country and network, the leak
// marked.

import type { AddressGroup, SeenBy } from '../../core/pictures/address-map'

const TITLES: Record<SeenBy, string> = {
  http: 'HTTP request',
  proxy: 'Proxy headers on it',
  webrtc: 'WebRTC candidates (the page)',
  stun: 'STUN/TURN (seen by the service)',
  dns: 'DNS resolvers (seen by the service)',
}

const MARKS = { leak: ['leak', 'v-fail'], local: ['local address', 'v-warn'], other: ['other network', 'v-warn'] } as const

export function AddressesPicture(props: { groups: readonly AddressGroup[] }): JSX.Element {
  const leaks = props.groups.flatMap((g) => g.addresses).filter((a) => a.mark === 'leak').length
  return (
    <div class="picture addresses" data-picture="addresses" data-leaks={String(leaks)}>
      {props.groups.map((g) => (
        <section class="address-group" data-seen-by={g.seenBy} aria-labelledby={`seen-${g.seenBy}`}>
          <h2 id={`seen-${g.seenBy}`} class="finding-title" safe>
            {TITLES[g.seenBy]}
          </h2>
          <ul>
            {g.addresses.length ? '' : <li class="muted">none</li>}
            {g.addresses.map((a) => (
              <li data-address={a.address} data-mark={a.mark ?? ''} class={a.mark === 'leak' ? 'is-leak' : ''}>
                <code safe>{a.address}</code>
                {a.mark ? (
                  <>
                    {' '}
                    <span class={`badge ${MARKS[a.mark][1]}`}>{MARKS[a.mark][0]}</span>
                  </>
                ) : (
                  ''
                )}
                {a.place ? (
                  <div safe>{a.place}</div>
                ) : (
                  ''
                )}
                {a.detail ? (
                  <div class="muted" safe>
                    {a.detail}
                  </div>
                ) : (
                  ''
                )}
                {a.why ? (
                  <div class={a.mark === 'leak' ? 'v-fail' : 'v-warn'} safe>
                    {a.why}
                  </div>
                ) : (
                  ''
                )}
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  )
}
