// The one place that reads the environment, opens the database, runs migrations and listens.

import { existsSync, mkdirSync, writeSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { createApp } from './app'
import { MAX_ROUTE_BODY_BYTES, PLAIN_BODY_CEILING, routeBodyAction, routeBodyLimit } from './http/body-limits'
import { currentSigningKey } from '../db/signing-keys'
import { generateSigningKey, keyProtector, responseSigner } from './signing'
import { resolveSigningSecret } from './signing-secret'
import { buildAssets } from './build-assets'
import { createAssetStore } from './http/assets'
import { parseConfig } from './config'
import { ownerOnly, ownerOnlyLine } from './data-dir'
import { openPglite, openPostgres, type Database } from '../db/client'
import { startMaintenance } from './maintenance'
import { LONGEST_ACCOUNT_WINDOW_SECONDS } from './core/throttle'
import { startStunListener } from './listeners/stun'
import { startDnsListener } from './listeners/dns'
import { startTlsListener } from './listeners/tls'
import { loadIpDatabaseOffThread, warmIpDatabase, type WarmReply } from './ip-database'
import { stdoutLines } from './log-lines'
import { DataDirInUse, lockDataDir } from './data-dir-lock'
import { configureBodyGrace } from './http/body'
import { CertificateError } from './listeners/tls-certificate'
import { createMetrics } from './metrics'
import { loadReferencePopulation } from './reference-population'
import type { JudgeContext } from './checks/define'
import { agentVerifierFor } from './agents/service'

async function main() {
  // Before anything is created: what the service makes (DATA_DIR, the database's files, the
  // secret, the TLS key, the IP database cache) is for its own user only (src/data-dir.ts).
  process.umask(0o077)
  const config = parseConfig(process.env)
  // A request body's grace before it must come at the least rate (src/http/body.ts) is the stall timeout.
  configureBodyGrace(config.stallMs)
  // The embedded database is one process's: a second service on this DATA_DIR stops here, before
  // it creates, unpacks or opens anything in it (src/data-dir-lock.ts). Held until exit.
  if (!config.databaseUrl) {
    mkdirSync(config.dataDir, { recursive: true })
    try {
      const lock = lockDataDir(config.dataDir)
      if (!lock.held) console.error(`DATA_DIR warning: cannot lock ${lock.path} on this platform; make sure one service only uses ${resolve(config.dataDir)}`)
    } catch (e) {
      if (!(e instanceof DataDirInUse)) throw e
      stopSaying(e.message)
    }
  }
  // Entries an older version, a copy or an archive left open to other users are closed first.
  securedDataDir(config.dataDir, 'entries')
  // Before the database: a PostgreSQL without a secret stops here, saying what to set.
  const signingSecret = resolveSigningSecret({ secret: config.signingKeySecret, secretFile: config.signingKeySecretFile, databaseUrl: config.databaseUrl, dataDir: config.dataDir })
  let database: Database
  const ipdbDir = join(resolve(config.dataDir), 'ipdb')
  let ipdbWarmed: WarmReply | undefined
  if (config.databaseUrl) {
    database = openPostgres(config.databaseUrl, {
      max: config.dbPoolSize,
      connectTimeoutSeconds: config.dbConnectTimeoutMs / 1000,
      statementTimeoutMs: config.dbStatementTimeoutMs,
    })
  } else {
    // A first start parses the IP database's CSVs in a child (~200 MB) before PGlite opens
    // (~150 MB), not beside it: together they came within 25 MB of a 384 MB container's memory
    // (docs/performance.md#memory). A later start finds the cache, and the child exits at once.
    ipdbWarmed = await warmIpDatabase(ipdbDir)
    const dir = resolve(config.dataDir, 'pglite')
    mkdirSync(dir, { recursive: true })
    database = await openPglite(dir)
  }
  await database.migrate()
  // Kept only when they can be read: GET /metrics needs METRICS_TOKEN (src/http/metrics.ts).
  const metrics = config.metricsToken ? createMetrics({ db: database.load }) : undefined
  // PGlite sets the files of a database it creates (and a few it rewrites at each start) to
  // 0666 itself, past the umask.
  if (!config.databaseUrl) securedDataDir(config.dataDir, 'files PGlite wrote')

  const assets = createAssetStore(await buildAssets())
  const protector = await keyProtector(signingSecret.secret, signingSecret.source)
  const signer = responseSigner(await currentSigningKey(database.db, { generate: generateSigningKey, protector }))
  console.log(`signing key ${signer.kid}, encrypted in the database with ${signingSecret.source}`)
  // Timestamped lines (the request log, the listeners' and maintenance's lines) share one writer,
  // which gathers them and writes once per event-loop turn (src/log-lines.ts).
  const out = stdoutLines()
  // Under load many lines share a millisecond, and so their stamp.
  let stampMs = Number.NaN
  let stamp = ''
  const stamped = (line: string) => {
    const ms = Date.now()
    if (ms !== stampMs) {
      stampMs = ms
      stamp = new Date(ms).toISOString()
    }
    out.line(`${stamp} ${line}`)
  }
  const log = config.logRequests ? stamped : undefined
  const stunListener =
    config.stunPort === undefined
      ? undefined
      : await startStunListener({ db: database.db, clock: () => new Date(), log }, { port: config.stunPort, hostname: config.host }).catch((e: unknown) => {
          throw new Error(`Cannot start the STUN/TURN listener on ${config.host} UDP port ${config.stunPort}: ${e instanceof Error ? e.message : String(e)} (set STUN_PORT to a free port, or to off)`)
        })
  if (stunListener) console.log(`STUN/TURN evidence listener on ${config.host} UDP port ${stunListener.port}`)
  const tlsListener =
    config.tlsPort === undefined
      ? undefined
      : await startTlsListener(
          { db: database.db, clock: () => new Date(), log: stamped, trustedProxies: config.trustedProxies, onLimited: metrics?.limited },
          {
            port: config.tlsPort,
            host: config.host,
            certFile: config.tlsCertFile,
            keyFile: config.tlsKeyFile,
            dataDir: config.dataDir,
            maxRequestBodySize: MAX_ROUTE_BODY_BYTES,
            bodyLimit: routeBodyLimit,
            bodyAction: routeBodyAction,
            connections: config.connectionLimits,
            serve: { streamsInFlight: config.streamsInFlight, stallMs: config.stallMs },
          },
        ).catch((e: unknown) => {
          // A certificate problem says what to set about the files; anything else (the port
          // taken, no permission to bind) what to set about the port.
          if (e instanceof CertificateError) throw new Error(`Cannot start the HTTPS listener: ${e.message}`)
          throw new Error(`Cannot start the HTTPS listener on ${config.host}:${config.tlsPort}: ${e instanceof Error ? e.message : String(e)} (set TLS_PORT to a free port, or to off)`)
        })
  const dnsListener =
    config.dnsZone === undefined
      ? undefined
      : await startDnsListener(
          { db: database.db, clock: () => new Date(), log: stamped },
          { zone: config.dnsZone, port: config.dnsPort, hostname: config.host, answerIpv4: config.dnsAnswerIpv4 ?? null, answerIpv6: config.dnsAnswerIpv6 ?? null },
        )
  if (dnsListener) console.log(`DNS evidence listener for ${config.dnsZone} on ${config.host}:${dnsListener.port} (UDP and TCP)`)
  // The judges' lookups. The IP database fills `lookupIp` once loaded (below); until then, and
  // if it cannot load, the judges say it is missing instead of guessing.
  const judge: JudgeContext = {}
  const app = createApp({
    db: database.db,
    clock: () => new Date(),
    random: (n) => crypto.getRandomValues(new Uint8Array(n)),
    adminToken: config.adminToken,
    trustedProxies: config.trustedProxies,
    tlsFingerprintHeaders: config.tlsFingerprintHeaders,
    taskRateLimit: config.taskRateLimit,
    taskMissLimit: config.taskMissLimit,
    pageNonceLimit: config.pageNonceLimit,
    uniqueness: { ...config.uniqueness, reference: loadReferencePopulation() },
    hstsMaxAge: config.hstsMaxAge,
    ipTruncate: config.ipTruncate,
    maxKeysPerAccount: config.maxKeysPerAccount,
    assets,
    signer,
    log,
    metrics,
    metricsToken: config.metricsToken,
    agents: agentVerifierFor(database.db, config.agents, stamped),
    evidence: { ...(stunListener ? { stunPort: stunListener.port } : {}), ...(tlsListener ? { tlsPort: tlsListener.port } : {}), ...(dnsListener ? { dnsZone: config.dnsZone } : {}) },
    judge,
  })
  // Bun.serve's own body limit answers a bare 413 with no body; each route holds its body to
  // its own limit as it reads (src/http/body-limits.ts, src/http/body.ts: a declared length over
  // it is refused before a byte is read, a chunked body is cut off at it, a body too slow gets
  // 408), so that every refusal is the route's JSON error (issue 45). Bun's limit is set far
  // above, where it never answers first: Bun reads a body only as the route takes it (measured:
  // 300 MB sent to a route that waited 3 s and refused it, 31 MB resident) and closes a connection
  // whose body was left unread. It closes a connection that neither sends nor takes a byte for
  // idleTimeout seconds (issue 33).
  app.listen({ port: config.port, hostname: config.host, maxRequestBodySize: PLAIN_BODY_CEILING, idleTimeout: Math.ceil(config.stallMs / 1000) })
  // The HTTPS listener serves the same app (HTTP/1.1 and HTTP/2), with each connection's evidence.
  tlsListener?.serve((request) => app.handle(request))
  const where = config.databaseUrl ? 'PostgreSQL' : `embedded PGlite in ${join(resolve(config.dataDir), 'pglite')}`
  // One write, so that whoever waits for the first line finds the second with it.
  console.log(
    [
      `antibot listening on http://${config.host}:${app.server?.port} (database: ${where}; operator API ${config.adminToken ? 'enabled' : 'disabled'})`,
      tlsListener
        ? `antibot listening on https://${config.host}:${tlsListener.port} too (HTTP/2 and HTTP/1.1, TLS and HTTP/2 fingerprints of every connection; certificate: ${tlsListener.certificate})`
        : 'HTTPS listener off (TLS_PORT=off): tool pages cannot see the TLS handshake',
    ].join('\n'),
  )

  // Loaded after listening, parsed in a worker: the CSVs take ~1.5 s of CPU on the first start
  // after an install (later starts read the cache in DATA_DIR/ipdb in tens of ms), and tasks
  // judged meanwhile mark the IP checks not applicable rather than wait. (On the embedded default
  // the child made the cache before the database opened, above; this only reads it.)
  loadIpDatabaseOffThread(ipdbDir, ipdbWarmed).then(
    (ipdb) => {
      judge.lookupIp = ipdb.lookup
      const { ms, cacheError } = ipdb.load
      console.log(`IP database ready in ${Math.round(ms)} ms (${ipdb.packages.map((p) => `${p.name}@${p.version}`).join(', ')})${cacheError ? `; cache not written: ${cacheError}` : ''}`)
    },
    (e: unknown) => console.error(`Cannot load the IP database; IP checks stay not applicable: ${e instanceof Error ? e.message : String(e)}`),
  )

  const maintenance = startMaintenance({
    db: database.db,
    clock: () => new Date(),
    retentionDays: config.taskRetentionDays,
    uniquenessWindowDays: config.uniqueness.windowDays,
    longestWindowSeconds: Math.max(config.taskMissLimit.windowSeconds, config.taskRateLimit?.windowSeconds ?? 0, LONGEST_ACCOUNT_WINDOW_SECONDS),
    log: stamped,
  })

  let stopping = false
  const stop = async (signal: string) => {
    if (stopping) return
    stopping = true
    out.flush()
    console.log(`${signal}: draining and closing`)
    await app.stop()
    await stunListener?.stop()
    await dnsListener?.stop()
    await tlsListener?.stop()
    await maintenance.stop()
    await database.close()
    process.exit(0)
  }
  process.on('SIGINT', () => void stop('SIGINT'))
  process.on('SIGTERM', () => void stop('SIGTERM'))
}

/** ownerOnly on DATA_DIR when it exists, saying in the log what it changed; a failure is logged, not fatal. */
function securedDataDir(dataDir: string, what: string): void {
  if (!existsSync(dataDir)) return
  try {
    const line = ownerOnlyLine(dataDir, ownerOnly(dataDir), what)
    if (line) console.log(line)
  } catch (e) {
    console.error(`DATA_DIR warning: cannot make ${resolve(dataDir)} owner-only: ${e instanceof Error ? e.message : String(e)}`)
  }
}

/**
 * Stops the service at start, saying why on stderr: written before the exit, which could cut off
 * a console write still on its way to a pipe (a service manager's, a test's).
 */
function stopSaying(message: string): never {
  try {
    writeSync(2, `${message}\n`)
  } catch {
    // Stderr is gone (a closed pipe): nothing to say it to.
  }
  process.exit(1)
}

main().catch((e) => stopSaying(e instanceof Error ? e.message : String(e)))
