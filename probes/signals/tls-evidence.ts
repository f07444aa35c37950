// A fresh TLS connection to the service's TLS evidence listener (TLS_PORT, src/listeners/tls.ts),
// which parses the ClientHello (JA3/JA3N/JA4, ciphers, extensions, ALPN) and the HTTP/2 preface
// (SETTINGS, WINDOW_UPDATE, PRIORITY, pseudo-header order) or HTTP/1 head, and files them under
// the page's nonce; the server joins them with the task when the page submits. The page learns
// the port from <body data-tls-port>; without it the listener is off and this is `unsupported`.
// The listener answers with CORS `*`, so `reached` means the whole exchange succeeded.

import { unsupported } from '../core/probe-error'
import type { TlsEvidenceProbe } from '../../common/signals/shared'

export async function tlsEvidence(): Promise<TlsEvidenceProbe> {
  const port = document.body.dataset.tlsPort
  const nonce = document.body.dataset.nonce
  if (!port || !/^\d{1,5}$/.test(port)) throw unsupported('no TLS evidence listener on this service (TLS_PORT=off)')
  if (!nonce || !/^[a-z2-7]{26}$/.test(nonce)) throw unsupported('the page has no nonce to file the TLS evidence under')
  const t0 = performance.now()
  let reached = false
  try {
    const res = await fetch(`https://${location.hostname}:${port}/evidence/${nonce}`, { cache: 'no-store', credentials: 'omit' })
    reached = res.ok
  } catch {
    // A certificate the browser does not trust, or a blocked port: the evidence is missing.
  }
  return { port: Number(port), nonce, reached, ms: Math.round(performance.now() - t0) }
}
