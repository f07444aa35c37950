// Building the app for tests: a test database, a controllable clock, real randomness, and the
// assets built once per process.

import { createApp, type AppDeps } from '../../src/app'
import { buildAssets } from '../../src/build-assets'
import { createAssetStore, type AssetStore } from '../../src/http/assets'
import { generateSigningKey, keyProtector, responseSigner, type KeyProtector } from '../../src/signing'
import { hashSecret, generateApiKey, keyHint } from '../../src/core/keys'
import { ensureAccount } from '../../db/accounts'
import { insertKey } from '../../db/keys'
import { getPlanByName, upsertPlan } from '../../db/plans'
import { currentSigningKey } from '../../db/signing-keys'
import type { Db } from '../../db/client'
import { uniqueEmail } from './unique'

let assetsPromise: Promise<AssetStore> | undefined
export function testAssets(): Promise<AssetStore> {
  assetsPromise ??= buildAssets().then(createAssetStore)
  return assetsPromise
}

/** One signing key per test process. */
export const testSigningKey = generateSigningKey()

/** The secret test databases' signing keys are encrypted with. */
export const TEST_SIGNING_SECRET = 'test-signing-key-secret-0123456789abcdef'
let protectorPromise: Promise<KeyProtector> | undefined
export function testKeyProtector(): Promise<KeyProtector> {
  protectorPromise ??= keyProtector(TEST_SIGNING_SECRET, 'the tests\' secret')
  return protectorPromise
}

export const random = (n: number) => crypto.getRandomValues(new Uint8Array(n))

/** A clock the test sets; starts at a fixed instant. */
export function fixedClock(start = '2026-11-15T12:00:00Z') {
  let now = new Date(start)
  const clock = () => new Date(now)
  clock.set = (iso: string | Date) => (now = new Date(iso))
  return clock
}

export async function buildTestApp(db: Db, overrides: Partial<AppDeps> = {}) {
  const clock = fixedClock()
  const deps: AppDeps = { db, clock, random, trustedProxies: [], assets: await testAssets(), signer: responseSigner(await currentSigningKey(db, { generate: () => testSigningKey, protector: await testKeyProtector() }).catch(() => testSigningKey)), ...overrides }
  return { app: createApp(deps), clock, deps }
}

/** Creates a key directly in the database; returns the secret and its id. */
export async function makeKey(
  db: Db,
  opts: { plan?: string; limit?: number; email?: string; status?: 'active' | 'inactive'; expiresAt?: Date | null } = {},
): Promise<{ key: string; id: string }> {
  const planName = opts.plan ?? (opts.limit !== undefined ? `limit-${opts.limit}` : 'free')
  const plan = opts.limit !== undefined ? await upsertPlan(db, { name: planName, monthlyLimit: opts.limit }) : (await getPlanByName(db, planName))!
  const account = await ensureAccount(db, opts.email ?? uniqueEmail('user'))
  const key = generateApiKey(random)
  const hint = keyHint(key)
  const id = await insertKey(db, {
    accountId: account.id,
    planId: plan.id,
    name: 'test',
    keyHash: hashSecret(key),
    prefix: hint.prefix,
    last4: hint.last4,
    status: opts.status ?? 'active',
    expiresAt: opts.expiresAt ?? null,
  })
  return { key, id }
}

/** A bot-detector results object of exactly the spec's shape. */
export function specBotResults(score = 100) {
  return {
    summary: { total: 3, passed: 3, failed: 0, warnings: 0, score },
    leaks: { webdriver: false, selenium: false, phantomjs: false },
    navigator: { userAgent: 'Mozilla/5.0 (X11; Linux x86_64)', platform: 'Linux x86_64', language: 'en-US' },
    screen: { width: 1920, height: 1080, colorDepth: 24 },
    webgl: { vendor: 'Google Inc.', renderer: 'ANGLE (Intel)' },
    canvas: { hash: 'a1b2c3' },
    scoring: { webdriver: 'pass', selenium: 'pass', phantomjs: 'pass' },
  }
}
