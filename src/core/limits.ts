// The names of the service's limits, as `antibot_limited_total{limit}` counts them (src/metrics.ts)
// and as docs/operations.md lists them. A limit that refuses something — a request answered 429,
// a connection refused or closed — calls the narrow hook it was given, `onLimited(name)`, once
// per refusal: the app's limiters through `deps.metrics?.limited(name)`, the listeners through
// `deps.onLimited?.(name)` (TlsListenerDeps). A new limit adds its name here and a line in
// docs/operations.md: the metric's label values are this list, and a name not in it is counted
// under `other` (so no other value can reach a label, and nothing refused goes uncounted).

export const LIMITS = [
  // POST /api/antibot/tasks over TASK_RATE_LIMIT for the client's network: 429.
  'task_create',
  // POST /tools/:tool/report over the same budget (issue 57): a report judged beyond the page's
  // own one after its stored task is charged to the network's task window: 429.
  'task_report',
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
  // The HTTPS listener's budgets (issue 33, src/listeners/connection-budget.ts and
  // https-serve.ts): a connection refused over the client network's or the listener's
  // connection limits or its handshakes in progress; a request body over its route's limit; a
  // connection that stalled (took no bytes, or sent none) past the stall timeout.
  'connections_per_network',
  'handshakes_per_network',
  'connections_total',
  'request_body',
  'stall',
  // Issue 45: a connection refused over its range's limit (IPv4 /24, IPv6 /48); one closed to
  // make room at the total for a newcomer from a smaller holder; an HTTP/1.1 connection that
  // pipelined past its queue; a request whose body came slower than the least rate (408).
  'connections_per_range',
  'connection_evicted',
  'pipelined',
  'request_timeout',
] as const

export type LimitName = (typeof LIMITS)[number]

/**
 * Called once each time a limit refuses something. Any name is taken (the listeners' own types
 * name theirs); the metric counts those of LIMITS under their name, any other under `other`.
 */
export type OnLimited = (limit: LimitName | (string & {})) => void
