import { describe, expect, test } from 'bun:test'
import { parseConfig } from './config'

describe('parseConfig', () => {
  test('fills the defaults from an empty environment', () => {
    expect(parseConfig({})).toEqual({
      port: 3000,
      host: '0.0.0.0',
      databaseUrl: undefined,
      dataDir: './data',
      adminToken: undefined,
      metricsToken: undefined,
      trustedProxies: [],
      dbPoolSize: 10,
      logRequests: true,
      dbConnectTimeoutMs: 3000,
      dbStatementTimeoutMs: 5000,
      taskRateLimit: undefined,
      taskMissLimit: { max: 100, windowSeconds: 600 },
      taskRetentionDays: undefined,
      pageNonceLimit: 50,
      ipTruncate: false,
      uniqueness: { windowDays: 90, perRange: 4 },
      maxKeysPerAccount: 20,
      signingKeySecret: undefined,
      signingKeySecretFile: undefined,
      tlsPort: 3443,
      tlsCertFile: undefined,
      tlsKeyFile: undefined,
      tlsFingerprintHeaders: undefined,
      hstsMaxAge: undefined,
      stunPort: 3478,
      dnsZone: undefined,
      dnsPort: 53,
      dnsAnswerIpv4: undefined,
      dnsAnswerIpv6: undefined,
      connectionLimits: { perNetwork: 64, handshakesPerNetwork: 16, perRange: 256, total: 1024 },
      streamsInFlight: 4,
      stallMs: 15_000,
      agents: { pinned: new Map(), allowPrivate: false, fetchesPerMinute: 30, extraCaFile: undefined },
    })
  })

  test('signed agents: pinned directories by name (an origin is its well-known directory), private addresses, the fetch budget', () => {
    const c = parseConfig({ AGENT_DIRECTORIES: 'ChatGPT agent=https://chatgpt.com, Mine=https://agents.example/keys.json', AGENT_DIRECTORIES_ALLOW_PRIVATE: '1', AGENT_DIRECTORY_FETCHES_PER_MINUTE: '5' }).agents
    expect([...c.pinned]).toEqual([
      ['https://chatgpt.com/.well-known/http-message-signatures-directory', 'ChatGPT agent'],
      ['https://agents.example/keys.json', 'Mine'],
    ])
    expect(c).toMatchObject({ allowPrivate: true, fetchesPerMinute: 5 })
    expect(() => parseConfig({ AGENT_DIRECTORIES: 'Plain=http://agent.example' })).toThrow("AGENT_DIRECTORIES: Expected <name>=<https URL> entries separated by commas, got 'Plain=http://agent.example'")
  })

  test('uniqueness: the window follows a shorter retention, is refused when longer than it, and the flood bound is read', () => {
    expect(parseConfig({ TASK_RETENTION_DAYS: '30' }).uniqueness).toEqual({ windowDays: 30, perRange: 4 })
    expect(parseConfig({ TASK_RETENTION_DAYS: '365', UNIQUENESS_WINDOW_DAYS: '180', UNIQUENESS_BROWSERS_PER_RANGE: '10' }).uniqueness).toEqual({ windowDays: 180, perRange: 10 })
    expect(() => parseConfig({ TASK_RETENTION_DAYS: '30', UNIQUENESS_WINDOW_DAYS: '60' })).toThrow('UNIQUENESS_WINDOW_DAYS: 60 days is longer than TASK_RETENTION_DAYS (30)')
    expect(() => parseConfig({ UNIQUENESS_BROWSERS_PER_RANGE: '0' })).toThrow('UNIQUENESS_BROWSERS_PER_RANGE')
  })

  test('reads the per-connection and per-network limits, and refuses a stall timeout under a second', () => {
    expect(parseConfig({ HTTPS_CONNECTIONS_PER_NETWORK: '8', HTTPS_HANDSHAKES_PER_NETWORK: '2', HTTPS_MAX_CONNECTIONS: '100', HTTPS_STREAMS_IN_FLIGHT: '2', STALL_TIMEOUT_MS: '5000' })).toMatchObject({
      connectionLimits: { perNetwork: 8, handshakesPerNetwork: 2, total: 100 },
      streamsInFlight: 2,
      stallMs: 5000,
    })
    expect(() => parseConfig({ STALL_TIMEOUT_MS: '10' })).toThrow('STALL_TIMEOUT_MS')
    expect(() => parseConfig({ HTTPS_CONNECTIONS_PER_NETWORK: '0' })).toThrow('HTTPS_CONNECTIONS_PER_NETWORK')
  })

  test('reads the evidence listener settings: STUN can be switched off, the zone is normalised', () => {
    expect(parseConfig({ STUN_PORT: 'off' }).stunPort).toBeUndefined()
    expect(parseConfig({ STUN_PORT: '0', TLS_PORT: '8443' })).toMatchObject({ stunPort: 0, tlsPort: 8443 })
    // The HTTPS listener is on by default: PORT + 443, a free port beside a free HTTP port, `off` to disable.
    expect(parseConfig({ PORT: '8080' }).tlsPort).toBe(8523)
    expect(parseConfig({ PORT: '0' }).tlsPort).toBe(0)
    expect(parseConfig({ PORT: '0', TLS_PORT: '4443' }).tlsPort).toBe(4443)
    expect(parseConfig({ TLS_PORT: 'off' }).tlsPort).toBeUndefined()
    expect(() => parseConfig({ TLS_PORT: '70000' })).toThrow("TLS_PORT: Expected a port (0-65535) or off, got '70000'")
    expect(() => parseConfig({ TLS_PORT: 'on' })).toThrow('TLS_PORT')
    expect(() => parseConfig({ PORT: '65500' })).toThrow('TLS_PORT: unset, and its default PORT + 443 (65943) is no port')
    expect(parseConfig({ PORT: '65500', TLS_PORT: 'off' }).tlsPort).toBeUndefined()
    expect(parseConfig({ DNS_ZONE: 'Probe.Example.COM.' }).dnsZone).toBe('probe.example.com')
    expect(() => parseConfig({ DNS_ZONE: 'not a zone' })).toThrow('DNS_ZONE')
    expect(() => parseConfig({ STUN_PORT: 'sometimes' })).toThrow('STUN_PORT')
  })

  test('reads the abuse, retention and privacy settings', () => {
    const c = parseConfig({ TASK_RATE_LIMIT: '120/60', TASK_MISS_LIMIT: '10/30', TASK_RETENTION_DAYS: '90', IP_TRUNCATE: 'true', DB_CONNECT_TIMEOUT_MS: '1500', DB_STATEMENT_TIMEOUT_MS: '2000', PAGE_NONCE_LIMIT: '200' })
    expect(c).toMatchObject({
      pageNonceLimit: 200,
      taskRateLimit: { max: 120, windowSeconds: 60 },
      taskMissLimit: { max: 10, windowSeconds: 30 },
      taskRetentionDays: 90,
      ipTruncate: true,
      dbConnectTimeoutMs: 1500,
      dbStatementTimeoutMs: 2000,
    })
  })

  test('refuses a malformed rate limit, naming the variable and the form', () => {
    expect(() => parseConfig({ TASK_RATE_LIMIT: '120' })).toThrow("TASK_RATE_LIMIT: Expected <max requests>/<window seconds> with both at least 1, e.g. 120/60, got '120'")
    expect(() => parseConfig({ TASK_MISS_LIMIT: '0/60' })).toThrow(/TASK_MISS_LIMIT/)
    expect(() => parseConfig({ TASK_RETENTION_DAYS: '0' })).toThrow(/TASK_RETENTION_DAYS/)
    expect(() => parseConfig({ TASK_RETENTION_DAYS: '7.5' })).toThrow(/TASK_RETENTION_DAYS/)
  })

  test('HSTS: a year with a real certificate, off with the self-signed one, or as HSTS_MAX_AGE says', () => {
    expect(parseConfig({}).hstsMaxAge).toBeUndefined()
    expect(parseConfig({ TLS_CERT_FILE: '/c.pem', TLS_KEY_FILE: '/k.pem' }).hstsMaxAge).toBe(31_536_000)
    expect(parseConfig({ TLS_CERT_FILE: '/c.pem', TLS_KEY_FILE: '/k.pem', HSTS_MAX_AGE: 'off' }).hstsMaxAge).toBeUndefined()
    expect(parseConfig({ HSTS_MAX_AGE: '300' }).hstsMaxAge).toBe(300)
    expect(parseConfig({ HSTS_MAX_AGE: '0' }).hstsMaxAge).toBe(0)
    for (const bad of ['-1', '1e6', 'on', '1234567890']) expect(() => parseConfig({ HSTS_MAX_AGE: bad })).toThrow('HSTS_MAX_AGE')
  })

  test('reads MAX_KEYS_PER_ACCOUNT: a whole number from 1 to 10000', () => {
    expect(parseConfig({ MAX_KEYS_PER_ACCOUNT: '3' }).maxKeysPerAccount).toBe(3)
    for (const bad of ['0', '10001', '2.5', 'many']) expect(() => parseConfig({ MAX_KEYS_PER_ACCOUNT: bad })).toThrow('MAX_KEYS_PER_ACCOUNT')
  })

  test('treats empty variables as unset', () => {
    expect(parseConfig({ PORT: '', DATABASE_URL: '', ADMIN_TOKEN: '' }).port).toBe(3000)
    expect(parseConfig({ DATABASE_URL: '' }).databaseUrl).toBeUndefined()
  })

  test('reads and converts every variable', () => {
    const c = parseConfig({
      PORT: '8080',
      HOST: '127.0.0.1',
      DATABASE_URL: 'postgres://u@db:5432/antibot',
      DATA_DIR: '/var/lib/antibot',
      ADMIN_TOKEN: 'a-long-enough-admin-token',
      TRUSTED_PROXIES: '10.0.0.0/8,::1',
      DB_POOL_SIZE: '4',
      LOG_REQUESTS: 'false',
    })
    expect(c).toMatchObject({ port: 8080, host: '127.0.0.1', databaseUrl: 'postgres://u@db:5432/antibot', dataDir: '/var/lib/antibot', adminToken: 'a-long-enough-admin-token', dbPoolSize: 4, logRequests: false })
    expect(c.trustedProxies).toHaveLength(2)
  })

  test('reads the signing key secret or its file, one of them, and never echoes a secret', () => {
    const secret = 'a-signing-secret-of-at-least-32-chars'
    expect(parseConfig({ SIGNING_KEY_SECRET: secret }).signingKeySecret).toBe(secret)
    expect(parseConfig({ SIGNING_KEY_SECRET_FILE: '/run/secrets/antibot' }).signingKeySecretFile).toBe('/run/secrets/antibot')
    expect(() => parseConfig({ SIGNING_KEY_SECRET: secret, SIGNING_KEY_SECRET_FILE: '/x' })).toThrow('SIGNING_KEY_SECRET_FILE: set, but so is SIGNING_KEY_SECRET')
    let message = ''
    try {
      parseConfig({ SIGNING_KEY_SECRET: 'short-secret-value' })
    } catch (e) {
      message = (e as Error).message
    }
    expect(message).toContain('SIGNING_KEY_SECRET')
    expect(message).not.toContain('short-secret-value')
  })

  test('ignores unrelated variables', () => {
    expect(parseConfig({ HOME: '/root', PATH: '/bin' }).port).toBe(3000)
  })

  test('refuses a PORT that is not a port number, naming it', () => {
    for (const PORT of ['abc', '70000', '-1']) {
      expect(() => parseConfig({ PORT })).toThrow(/^Invalid configuration:\n {2}PORT: /)
    }
  })

  test('refuses integers that are not plain digits instead of truncating them', () => {
    expect(() => parseConfig({ PORT: '80.5' })).toThrow("PORT: Expected integer, got '80.5'")
    expect(() => parseConfig({ PORT: '1e3' })).toThrow("PORT: Expected integer, got '1e3'")
    expect(() => parseConfig({ DB_POOL_SIZE: '0x10' })).toThrow("DB_POOL_SIZE: Expected integer, got '0x10'")
  })

  test('refuses a DATABASE_URL that is not a PostgreSQL URL', () => {
    expect(() => parseConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/)
    expect(parseConfig({ DATABASE_URL: 'postgresql://x/y' }).databaseUrl).toBe('postgresql://x/y')
  })

  test('reads METRICS_TOKEN and refuses a short one', () => {
    expect(parseConfig({ METRICS_TOKEN: 'a-long-enough-metrics-token' }).metricsToken).toBe('a-long-enough-metrics-token')
    expect(() => parseConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN/)
  })

  test('refuses a short ADMIN_TOKEN', () => {
    expect(() => parseConfig({ ADMIN_TOKEN: 'short' })).toThrow(/ADMIN_TOKEN/)
  })

  test('names every bad variable at once', () => {
    let message = ''
    try {
      parseConfig({ PORT: 'x', DB_POOL_SIZE: '0' })
    } catch (e) {
      message = (e as Error).message
    }
    expect(message).toContain('PORT:')
    expect(message).toContain('DB_POOL_SIZE:')
  })

  test('reads TLS_FINGERPRINT_HEADERS into a field → lower-case header map', () => {
    const c = parseConfig({ TRUSTED_PROXIES: '10.0.0.1', TLS_FINGERPRINT_HEADERS: 'ja4=X-JA4, ja3=X-JA3,akamai=X-HTTP2-Fingerprint,ja3_hash=CF-JA3-Hash' })
    expect(c.tlsFingerprintHeaders).toEqual({ ja4: 'x-ja4', ja3: 'x-ja3', akamai: 'x-http2-fingerprint', ja3_hash: 'cf-ja3-hash' })
    expect(parseConfig({ TRUSTED_PROXIES: '10.0.0.1', TLS_FINGERPRINT_HEADERS: '' }).tlsFingerprintHeaders).toBeUndefined()
  })

  test('refuses a bad TLS_FINGERPRINT_HEADERS, naming it and the entry', () => {
    const env = (v: string) => ({ TRUSTED_PROXIES: '10.0.0.1', TLS_FINGERPRINT_HEADERS: v })
    expect(() => parseConfig(env('ja5=X-JA5'))).toThrow("TLS_FINGERPRINT_HEADERS: unknown field 'ja5'")
    expect(() => parseConfig(env('ja4=X JA4'))).toThrow("TLS_FINGERPRINT_HEADERS: 'X JA4' is not a header name (for ja4)")
    expect(() => parseConfig(env('ja4'))).toThrow('TLS_FINGERPRINT_HEADERS:')
    expect(() => parseConfig(env('ja4=X-JA4,'))).toThrow('TLS_FINGERPRINT_HEADERS:')
    expect(() => parseConfig(env('ja4=X-JA4,ja4=X-Other'))).toThrow('TLS_FINGERPRINT_HEADERS: ja4 is given twice')
    expect(() => parseConfig(env('ja4=X-FP,ja3=x-fp'))).toThrow('TLS_FINGERPRINT_HEADERS: header x-fp is named for two fields')
    expect(() => parseConfig({ TLS_FINGERPRINT_HEADERS: 'ja4=X-JA4' })).toThrow('TLS_FINGERPRINT_HEADERS: set, but TRUSTED_PROXIES is empty')
  })

  test('refuses a bad TRUSTED_PROXIES entry with a message naming it', () => {
    expect(() => parseConfig({ TRUSTED_PROXIES: '10.0.0.0/8, 300.1.1.1' })).toThrow(
      "TRUSTED_PROXIES: '300.1.1.1' is not an IP address or CIDR range",
    )
  })
})
