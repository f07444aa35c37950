// Where the page runs: whether it is a secure context (https: or localhost), which decides
// what the browser sends with its requests (client hints, Sec-Fetch-*, Brotli and Zstandard
// in Accept-Encoding are secure-context features), and how it was loaded.
// https://developer.mozilla.org/docs/Web/Security/Secure_Contexts

import type { PageContext } from '../../common/signals/shared'

export function pageContext(): PageContext {
  return { secureContext: window.isSecureContext, protocol: location.protocol, hostname: location.hostname.slice(0, 253) }
}
