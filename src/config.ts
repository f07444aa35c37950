// Configuration, parsed once at boot from the environment (src/main.ts) and passed down.
// Nothing else reads process.env.

import { Type, type Static } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import { parseTrustedProxies, type Cidr } from './core/ip'
import { DEFAULT_MISS_LIMIT, parseWindowPolicy, type WindowPolicy } from './core/fixed-window'
import { parseProxyHeaderMap, type ProxyHeaderMap } from './evidence/proxy-fingerprints'
import { DEFAULT_MAX_KEYS_PER_ACCOUNT } from './core/account-input'
import { DEFAULT_PAGE_NONCE_LIMIT } from './core/nonce'
import { HSTS_DEFAULT_MAX_AGE } from './http/hsts'
import { DEFAULT_PER_RANGE, DEFAULT_WINDOW_DAYS } from './core/uniqueness'
import { DEFAULT_CONNECTION_LIMITS, type ConnectionLimits } from './listeners/connection-budget'
import { DEFAULT_SERVE_LIMITS } from './listeners/https-serve'
import { parsePinnedDirectories } from './agents/pinned'
import { DEFAULT_FETCHES_PER_MINUTE } from './agents/directories'

const EnvSchema = Type.Object({
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 3000 }),
  HOST: Type.String({ minLength: 1, default: '0.0.0.0' }),
  DATABASE_URL: Type.Optional(Type.String({ pattern: '^postgres(ql)?://' })),
  DATA_DIR: Type.String({ minLength: 1, default: './data' }),
  ADMIN_TOKEN: Type.Optional(Type.String({ minLength: 16 })),
  // GET /metrics for Prometheus, behind this bearer token (src/http/metrics.ts); 404 unset.
  METRICS_TOKEN: Type.Optional(Type.String({ minLength: 16 })),
  TRUSTED_PROXIES: Type.String({ default: '' }),
  DB_POOL_SIZE: Type.Integer({ minimum: 1, maximum: 200, default: 10 }),
  LOG_REQUESTS: Type.Boolean({ default: true }),
  DB_CONNECT_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 600_000, default: 3000 }),
  DB_STATEMENT_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 3_600_000, default: 5000 }),
  TASK_RATE_LIMIT: Type.Optional(Type.String()),
  TASK_MISS_LIMIT: Type.String({ default: `${DEFAULT_MISS_LIMIT.max}/${DEFAULT_MISS_LIMIT.windowSeconds}` }),
  TASK_RETENTION_DAYS: Type.Optional(Type.Integer({ minimum: 1, maximum: 36_500 })),
  PAGE_NONCE_LIMIT: Type.Integer({ minimum: 1, maximum: 100_000, default: DEFAULT_PAGE_NONCE_LIMIT }),
  IP_TRUNCATE: Type.Boolean({ default: false }),
  // How identifying a browser is (issue 48, src/core/uniqueness.ts): the window its figures
  // count distinct browsers in (unset: 90 days, or TASK_RETENTION_DAYS when shorter), and the
  // new browsers one range (IPv4 /24, IPv6 /48) adds per tool in it (the flood bound).
  UNIQUENESS_WINDOW_DAYS: Type.Optional(Type.Integer({ minimum: 1, maximum: 36_500 })),
  UNIQUENESS_BROWSERS_PER_RANGE: Type.Integer({ minimum: 1, maximum: 1_000_000, default: DEFAULT_PER_RANGE }),
  // The secret the Ed25519 signing key is encrypted with in the database (src/signing-secret.ts).
  SIGNING_KEY_SECRET: Type.Optional(Type.String({ minLength: 32 })),
  SIGNING_KEY_SECRET_FILE: Type.Optional(Type.String({ minLength: 1 })),
  MAX_KEYS_PER_ACCOUNT: Type.Integer({ minimum: 1, maximum: 10_000, default: DEFAULT_MAX_KEYS_PER_ACCOUNT }),
  // Evidence listeners (issue 7). DNS is off when its zone is unset; TLS and STUN are on
  // unless 'off'. TLS_PORT unset: PORT + 443 (3443), or a free port when PORT is 0.
  TLS_PORT: Type.Optional(Type.String({ pattern: '^(off|\\d{1,5})$' })),
  TLS_CERT_FILE: Type.Optional(Type.String({ minLength: 1 })),
  TLS_KEY_FILE: Type.Optional(Type.String({ minLength: 1 })),
  TLS_FINGERPRINT_HEADERS: Type.Optional(Type.String({ maxLength: 1000 })),
  // Strict-Transport-Security on HTTPS responses: seconds, or off. Unset: a year with
  // TLS_CERT_FILE (a real certificate), off with the self-signed one (src/http/hsts.ts).
  HSTS_MAX_AGE: Type.Optional(Type.String({ pattern: '^(off|\\d{1,9})$' })),
  STUN_PORT: Type.String({ pattern: '^(off|\\d{1,5})$', default: '3478' }),
  DNS_ZONE: Type.Optional(Type.String({ pattern: '^([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)+[A-Za-z]{2,63}\\.?$' })),
  DNS_PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 53 }),
  DNS_ANSWER_IPV4: Type.Optional(Type.String()),
  DNS_ANSWER_IPV6: Type.Optional(Type.String()),
  // What one client may hold (issue 33; src/listeners/connection-budget.ts, https-serve.ts).
  HTTPS_CONNECTIONS_PER_NETWORK: Type.Integer({ minimum: 1, maximum: 100_000, default: DEFAULT_CONNECTION_LIMITS.perNetwork }),
  HTTPS_HANDSHAKES_PER_NETWORK: Type.Integer({ minimum: 1, maximum: 100_000, default: DEFAULT_CONNECTION_LIMITS.handshakesPerNetwork }),
  HTTPS_CONNECTIONS_PER_RANGE: Type.Integer({ minimum: 1, maximum: 1_000_000, default: DEFAULT_CONNECTION_LIMITS.perRange }),
  HTTPS_MAX_CONNECTIONS: Type.Integer({ minimum: 1, maximum: 1_000_000, default: DEFAULT_CONNECTION_LIMITS.total }),
  HTTPS_STREAMS_IN_FLIGHT: Type.Integer({ minimum: 1, maximum: 100, default: DEFAULT_SERVE_LIMITS.streamsInFlight }),
  STALL_TIMEOUT_MS: Type.Integer({ minimum: 1000, maximum: 600_000, default: DEFAULT_SERVE_LIMITS.stallMs }),
  // Signed agents (issue 60, docs/signed-agents.md): directories the operator trusts and names
  // (`Name=https://…, …`), key directories on private addresses, and key directory fetches a minute.
  AGENT_DIRECTORIES: Type.Optional(Type.String({ maxLength: 10_000 })),
  AGENT_DIRECTORIES_ALLOW_PRIVATE: Type.Boolean({ default: false }),
  AGENT_DIRECTORY_FETCHES_PER_MINUTE: Type.Integer({ minimum: 1, maximum: 10_000, default: DEFAULT_FETCHES_PER_MINUTE }),
  // Trusted for key directory fetches besides the runtime's roots (the variable Node and Bun read).
  NODE_EXTRA_CA_CERTS: Type.Optional(Type.String({ minLength: 1 })),
})

export type Env = Static<typeof EnvSchema>

export interface Config {
  port: number
  host: string
  databaseUrl: string | undefined
  dataDir: string
  adminToken: string | undefined
  /** Enables GET /metrics (and the metrics kept for it); undefined = off. */
  metricsToken: string | undefined
  trustedProxies: Cidr[]
  dbPoolSize: number
  logRequests: boolean
  dbConnectTimeoutMs: number
  dbStatementTimeoutMs: number
  /**
   * The HTTPS listener: the whole service over TLS, and the ClientHello and HTTP/2 evidence of
   * every connection (src/listeners/tls.ts); undefined = off, 0 = a free port.
   */
  tlsPort: number | undefined
  tlsCertFile: string | undefined
  tlsKeyFile: string | undefined
  /**
   * Headers a TLS-terminating proxy puts fingerprints in (JA4, JA3, Akamai HTTP/2), believed
   * only from TRUSTED_PROXIES peers; undefined = off.
   */
  tlsFingerprintHeaders: ProxyHeaderMap | undefined
  /** Strict-Transport-Security max-age for HTTPS responses; undefined = no header. */
  hstsMaxAge: number | undefined
  /** The STUN/TURN listener (UDP); undefined = off. 0 picks a free port. */
  stunPort: number | undefined
  /** The authoritative DNS listener for this zone (dns-leak); undefined = off. */
  dnsZone: string | undefined
  dnsPort: number
  /** Addresses the DNS listener answers with for names in the zone. */
  dnsAnswerIpv4: string | undefined
  dnsAnswerIpv6: string | undefined
  /** Task submissions per client address; undefined = unlimited (the default). */
  taskRateLimit: WindowPolicy | undefined
  /** Keyed fetches of task ids that do not exist, per key; always on. */
  taskMissLimit: WindowPolicy
  /** Tasks older than this many days are purged; undefined = kept forever. */
  taskRetentionDays: number | undefined
  /** Never-used page nonces one network (IPv4 address, IPv6 /64) keeps; a new page load replaces the oldest. */
  pageNonceLimit: number
  /** Store client addresses cut to /24 (IPv4) and /48 (IPv6). */
  ipTruncate: boolean
  /** Uniqueness figures: their window in days (never longer than the retention) and the flood bound. */
  uniqueness: { windowDays: number; perRange: number }
  /** The signing key's encryption secret, or the file holding it; neither: see src/signing-secret.ts. */
  signingKeySecret: string | undefined
  signingKeySecretFile: string | undefined
  /** Keys an account may create for itself on the dashboard (operators are not held to it). */
  maxKeysPerAccount: number
  /** The HTTPS listener's connections per client network and in all. */
  connectionLimits: ConnectionLimits
  /** Requests of one HTTPS connection in the app at once. */
  streamsInFlight: number
  /** A write not taken or a body not sent for this long ends the connection (both ports). */
  stallMs: number
  /** Signed agents: pinned directories (URL → name), private addresses allowed, fetches a minute, extra CA file. */
  agents: { pinned: Map<string, string>; allowPrivate: boolean; fetchesPerMinute: number; extraCaFile: string | undefined }
}

/** Parses the environment; throws an Error naming every bad variable. */
export function parseConfig(env: Record<string, string | undefined>): Config {
  const raw: Record<string, unknown> = {}
  const lines: string[] = []
  for (const [key, schema] of Object.entries(EnvSchema.properties)) {
    const v = env[key]
    if (v === undefined || v === '') continue
    // Value.Convert would truncate '80.5' and read '1e3' as 1; integers must be plain digits.
    if (schema.type === 'integer' && !/^\d+$/.test(v)) lines.push(`${key}: Expected integer, got '${v}'`)
    else raw[key] = v
  }
  const converted = Value.Default(EnvSchema, Value.Convert(EnvSchema, raw))
  for (const e of Value.Errors(EnvSchema, converted)) lines.push(`${e.path.slice(1) || '(env)'}: ${e.message}`)
  const e = converted as Env
  const windowPolicy = (name: 'TASK_RATE_LIMIT' | 'TASK_MISS_LIMIT', v: string | undefined) => {
    if (v === undefined) return undefined
    const p = parseWindowPolicy(v)
    if (!p) lines.push(`${name}: Expected <max requests>/<window seconds> with both at least 1, e.g. 120/60, got '${v}'`)
    return p ?? undefined
  }
  const taskRateLimit = windowPolicy('TASK_RATE_LIMIT', e.TASK_RATE_LIMIT)
  const taskMissLimit = windowPolicy('TASK_MISS_LIMIT', e.TASK_MISS_LIMIT)
  let tlsFingerprintHeaders: ProxyHeaderMap | undefined
  if (e.TLS_FINGERPRINT_HEADERS !== undefined) {
    const p = parseProxyHeaderMap(e.TLS_FINGERPRINT_HEADERS)
    if (!p.ok) lines.push(`TLS_FINGERPRINT_HEADERS: ${p.error}, got '${e.TLS_FINGERPRINT_HEADERS}'`)
    // Without a trusted proxy no request's headers would ever be believed: say so at start-up
    // instead of running with the feature silently off.
    else if (!e.TRUSTED_PROXIES?.trim()) lines.push('TLS_FINGERPRINT_HEADERS: set, but TRUSTED_PROXIES is empty, so no request\'s fingerprint headers would be believed')
    else tlsFingerprintHeaders = p.map
  }
  const tlsPort = e.TLS_PORT === 'off' ? undefined : e.TLS_PORT !== undefined ? Number(e.TLS_PORT) : e.PORT === 0 ? 0 : e.PORT + 443
  if (e.TLS_PORT !== undefined && tlsPort !== undefined && tlsPort > 65535) lines.push(`TLS_PORT: Expected a port (0-65535) or off, got '${e.TLS_PORT}'`)
  else if (tlsPort !== undefined && tlsPort > 65535) lines.push(`TLS_PORT: unset, and its default PORT + 443 (${tlsPort}) is no port; set TLS_PORT to a port, or to off`)
  if (e.SIGNING_KEY_SECRET !== undefined && e.SIGNING_KEY_SECRET_FILE !== undefined) lines.push('SIGNING_KEY_SECRET_FILE: set, but so is SIGNING_KEY_SECRET; set one of them')
  if (e.UNIQUENESS_WINDOW_DAYS !== undefined && e.TASK_RETENTION_DAYS !== undefined && e.UNIQUENESS_WINDOW_DAYS > e.TASK_RETENTION_DAYS)
    lines.push(`UNIQUENESS_WINDOW_DAYS: ${e.UNIQUENESS_WINDOW_DAYS} days is longer than TASK_RETENTION_DAYS (${e.TASK_RETENTION_DAYS}): the figures would count browsers whose tasks are deleted; set it to at most ${e.TASK_RETENTION_DAYS}`)
  const pinned = parsePinnedDirectories(e.AGENT_DIRECTORIES ?? '')
  if (!pinned.ok) lines.push(`AGENT_DIRECTORIES: ${pinned.error}`)
  if (lines.length) throw new Error(`Invalid configuration:\n  ${lines.join('\n  ')}`)
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    dataDir: e.DATA_DIR,
    adminToken: e.ADMIN_TOKEN,
    metricsToken: e.METRICS_TOKEN,
    trustedProxies: parseTrustedProxies(e.TRUSTED_PROXIES),
    dbPoolSize: e.DB_POOL_SIZE,
    logRequests: e.LOG_REQUESTS,
    dbConnectTimeoutMs: e.DB_CONNECT_TIMEOUT_MS,
    dbStatementTimeoutMs: e.DB_STATEMENT_TIMEOUT_MS,
    taskRateLimit,
    taskMissLimit: taskMissLimit!,
    taskRetentionDays: e.TASK_RETENTION_DAYS,
    pageNonceLimit: e.PAGE_NONCE_LIMIT,
    ipTruncate: e.IP_TRUNCATE,
    uniqueness: { windowDays: e.UNIQUENESS_WINDOW_DAYS ?? Math.min(DEFAULT_WINDOW_DAYS, e.TASK_RETENTION_DAYS ?? DEFAULT_WINDOW_DAYS), perRange: e.UNIQUENESS_BROWSERS_PER_RANGE },
    signingKeySecret: e.SIGNING_KEY_SECRET,
    signingKeySecretFile: e.SIGNING_KEY_SECRET_FILE,
    maxKeysPerAccount: e.MAX_KEYS_PER_ACCOUNT,
    tlsPort,
    tlsCertFile: e.TLS_CERT_FILE,
    tlsKeyFile: e.TLS_KEY_FILE,
    tlsFingerprintHeaders,
    hstsMaxAge: e.HSTS_MAX_AGE === 'off' ? undefined : e.HSTS_MAX_AGE !== undefined ? Number(e.HSTS_MAX_AGE) : e.TLS_CERT_FILE !== undefined ? HSTS_DEFAULT_MAX_AGE : undefined,
    stunPort: e.STUN_PORT === 'off' ? undefined : Number(e.STUN_PORT),
    dnsZone: e.DNS_ZONE?.replace(/\.$/, '').toLowerCase(),
    dnsPort: e.DNS_PORT,
    dnsAnswerIpv4: e.DNS_ANSWER_IPV4,
    dnsAnswerIpv6: e.DNS_ANSWER_IPV6,
    connectionLimits: { perNetwork: e.HTTPS_CONNECTIONS_PER_NETWORK, handshakesPerNetwork: e.HTTPS_HANDSHAKES_PER_NETWORK, perRange: e.HTTPS_CONNECTIONS_PER_RANGE, total: e.HTTPS_MAX_CONNECTIONS },
    streamsInFlight: e.HTTPS_STREAMS_IN_FLIGHT,
    stallMs: e.STALL_TIMEOUT_MS,
    agents: { pinned: pinned.ok ? pinned.map : new Map(), allowPrivate: e.AGENT_DIRECTORIES_ALLOW_PRIVATE, fetchesPerMinute: e.AGENT_DIRECTORY_FETCHES_PER_MINUTE, extraCaFile: e.NODE_EXTRA_CA_CERTS },
  }
}
