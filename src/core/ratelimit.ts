// RateLimit-Policy / RateLimit response headers as in the IETF httpapi draft
// (draft-ietf-httpapi-ratelimit-headers, structured fields): the policy names the quota `q`
// and the window `w` in seconds; the current state gives the remaining units `r` and the
// seconds `t` until the window resets. Our one policy is the key's monthly quota.
// https://datatracker.ietf.org/doc/draft-ietf-httpapi-ratelimit-headers/

import { monthWindowSeconds, secondsUntilReset } from './month'

export function rateLimitHeaders(limit: number, used: number, now: Date): Record<string, string> {
  const remaining = Math.max(0, limit - used)
  const reset = secondsUntilReset(now)
  return {
    'RateLimit-Policy': `"monthly";q=${limit};w=${monthWindowSeconds(now)}`,
    RateLimit: `"monthly";r=${remaining};t=${reset}`,
  }
}
