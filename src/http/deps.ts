import type { Db } from '../../db/client'
import type { RandomBytes } from '../core/keys'
import type { Cidr } from '../core/ip'
import type { WindowPolicy } from '../core/fixed-window'
import type { AssetStore } from './assets'
import type { ResponseSigner } from '../signing'
import type { JudgeContext } from '../checks/define'
import type { ProxyHeaderMap } from '../evidence/proxy-fingerprints'
import type { Metrics } from '../metrics'
import type { ReferenceData } from '../core/reference/reference'
import type { AgentVerifier } from '../agents/verify'

/** Everything the app needs from the outside world; src/main.ts builds it, tests fake it. */
export interface AppDeps {
  db: Db
  /** The current time. Tests pass a fixed or stepping clock. */
  clock: () => Date
  /** Uniform random bytes (crypto.getRandomValues in production). */
  random: RandomBytes
  /** Set to enable the operator API. */
  adminToken?: string | undefined
  /** Proxies whose X-Forwarded-For is believed. */
  trustedProxies: readonly Cidr[]
  /**
   * Headers in which trusted proxies pass the client's TLS and HTTP/2 fingerprints
   * (TLS_FINGERPRINT_HEADERS); read only when the socket peer is in `trustedProxies`. Off when omitted.
   */
  tlsFingerprintHeaders?: ProxyHeaderMap | undefined
  /**
   * Lookups for the tools' judges (the offline IP database); empty in most tests. Read on every
   * request: src/main.ts fills `lookupIp` once the database has loaded after listening.
   */
  judge?: JudgeContext
  /** Signs every 200 of GET /api/antibot/tasks/{id} (JWS-Signature header). */
  signer: ResponseSigner
  /**
   * Where the evidence listeners can be reached, for the tool pages (rendered into <body> as
   * data-tls-port, data-stun-port, data-dns-zone). Omitted or partial when listeners are off.
   */
  evidence?: { tlsPort?: number; stunPort?: number; dnsZone?: string }
  /** Static assets and compiled probe bundles, built at start-up. */
  assets: AssetStore
  /** Task submissions per client address (TASK_RATE_LIMIT); unlimited when omitted. */
  taskRateLimit?: WindowPolicy | undefined
  /** Keyed fetches of missing task ids per key (TASK_MISS_LIMIT); DEFAULT_MISS_LIMIT when omitted. */
  taskMissLimit?: WindowPolicy | undefined
  /**
   * Never-used page nonces one network keeps (PAGE_NONCE_LIMIT); DEFAULT_PAGE_NONCE_LIMIT
   * (src/core/nonce.ts) when omitted.
   */
  pageNonceLimit?: number | undefined
  /** Sign-ups per client address; SIGNUP_THROTTLE (src/core/throttle.ts) when omitted. */
  signupLimit?: WindowPolicy | undefined
  /** Store client addresses truncated to /24 and /48 (IP_TRUNCATE). */
  ipTruncate?: boolean | undefined
  /**
   * How identifying a browser is (src/core/uniqueness.ts): the window in days and the new
   * browsers one range adds per tool; DEFAULT_WINDOW_DAYS and DEFAULT_PER_RANGE when omitted.
   * `reference`: the reference population (src/reference-population.ts, issue 59); without it
   * the figures are the instance's counts alone.
   */
  uniqueness?: { windowDays: number; perRange: number; reference?: ReferenceData | null | undefined } | undefined
  /** Keys an account may create on the dashboard (MAX_KEYS_PER_ACCOUNT); DEFAULT_MAX_KEYS_PER_ACCOUNT when omitted. */
  maxKeysPerAccount?: number | undefined
  /**
   * Strict-Transport-Security max-age for responses to HTTPS requests (HSTS_MAX_AGE, src/http/hsts.ts);
   * no header when omitted.
   */
  hstsMaxAge?: number | undefined
  /** Where request log lines go; none when omitted. */
  log?: ((line: string) => void) | undefined
  /**
   * The instance's metrics (src/metrics.ts), counted by the request hooks, the task endpoints
   * and the limiters (`metrics?.limited(name)`); none kept when omitted.
   */
  metrics?: Metrics | undefined
  /** METRICS_TOKEN: GET /metrics answers with `metrics` for this bearer token; 404 when omitted. */
  metricsToken?: string | undefined
  /**
   * Verifies Web Bot Auth signatures (src/agents/verify.ts, issue 60); a signed request is
   * `unverified` when omitted. Unsigned requests never reach it.
   */
  agents?: AgentVerifier | undefined
}
