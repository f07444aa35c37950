// Whether the page runs in a secure context (https:, or http://localhost), which decides what
// the browser sends with its requests: client hints, Sec-Fetch-*, Brotli and Zstandard.
// https://developer.mozilla.org/docs/Web/Security/Secure_Contexts

import type { PageContext, UaClientHints } from '../../common/signals/shared'

/** The page's own word; without it, a userAgentData object implies a secure context. */
export function securePage(v: { context?: PageContext; uaData?: UaClientHints }): boolean {
  return v.context ? v.context.secureContext : v.uaData !== undefined
}
