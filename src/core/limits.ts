// The names of the service's limits, as `antibot_limited_total{limit}` counts them (src/metrics.ts)
// and as docs/operations.md lists them. A limit that refuses something — a request answered 429,
// a connection refused or closed — calls the narrow hook it was given, `onLimited(name)`, once
// per refusal: the app's limiters through `deps.metrics?.limited(name)`, the listeners through
// `deps.onLimited?.(name)` (TlsListenerDeps). A new limit adds its name here (the metric's label
// values are this list, so no other value can reach a label) and a line in docs/operations.md.

export const LIMITS = [
  // POST /api/antibot/tasks over TASK_RATE_LIMIT for the client's network: 429.
  'task_create',
  // A key that asked for too many task ids that do not exist (TASK_MISS_LIMIT): 429.
  'task_misses',
  // A key at its plan's monthly limit: 403 (the limit is the plan's, counted here too).
  'monthly_quota',
  // Log-in attempts over LOGIN_THROTTLE (per address or per account): 429.
  'login',
  // Sign-ups over SIGNUP_THROTTLE for the client's network: 429.
  'signup',
  // An HTTP/2 connection past its budget of client resets (src/listeners/h2-guard.ts): GOAWAY
  // ENHANCE_YOUR_CALM, connection closed.
  'h2_resets',
] as const

export type LimitName = (typeof LIMITS)[number]

/** Called once each time a limit refuses something. */
export type OnLimited = (limit: LimitName) => void
