// permissions-api: what probes/entries/permissions-api.ts reports. The `notification` signal is
// the same probe and schema as bot-detector's (src/checks/notification-permission.ts judges it
// for both). `engine` tells which engine runs the page, so that the engine-dependent checks
// judge by it rather than by the User-Agent alone.

import { Type, type Static } from '@sinclair/typebox'
import { Bool, Str } from '../shorthands'
import { Signal } from '../signal'
import { JsEngineSchema, NotificationPermissionSchema } from './shared'

/** A permission name, a feature API or a marker: the keys of the records below. */
const Key = Type.String({ pattern: '^[A-Za-z][A-Za-z0-9-]{0,39}$' })

/** What one permissions.query gave: a state, or the error's name and message. */
export const QueryOutcomeSchema = Type.Union([Type.Object({ state: Str(16) }), Type.Object({ error: Str(40), message: Str(160) })])
export type QueryOutcome = Static<typeof QueryOutcomeSchema>

/** probes/signals/permission-registry.ts: every name of common/permission-engines.ts, and a random one. */
export const PermissionRegistrySchema = Type.Object({
  results: Type.Record(Key, QueryOutcomeSchema, { maxProperties: 80 }),
  /** What the random name gave. */
  control: QueryOutcomeSchema,
})
export type PermissionRegistry = Static<typeof PermissionRegistrySchema>

/** probes/signals/permissions-lies.ts: the names of the native-function tests that failed. */
export const PermissionsLiesSchema = Type.Object({ query: Type.Array(Str(40), { maxItems: 20 }), status: Type.Array(Str(40), { maxItems: 10 }) })
export type PermissionsLies = Static<typeof PermissionsLiesSchema>

/** probes/signals/permissions-worker.ts: a few states read again in a dedicated worker ('error' when the query threw). */
export const PermissionsWorkerSchema = Type.Object({ supported: Bool, states: Type.Record(Key, Str(16), { maxProperties: 16 }) })
export type PermissionsWorker = Static<typeof PermissionsWorkerSchema>

/** probes/signals/feature-apis.ts: which feature APIs and engine markers exist. */
export const FeatureApisSchema = Type.Object({
  secureContext: Bool,
  apis: Type.Record(Key, Bool, { maxProperties: 80 }),
  markers: Type.Record(Key, Bool, { maxProperties: 20 }),
})
export type FeatureApis = Static<typeof FeatureApisSchema>

export const PermissionsApiSignals = Type.Object({
  registry: Signal(PermissionRegistrySchema),
  notification: Signal(NotificationPermissionSchema),
  lies: Signal(PermissionsLiesSchema),
  worker: Signal(PermissionsWorkerSchema),
  features: Signal(FeatureApisSchema),
  engine: Signal(JsEngineSchema),
})
export type PermissionsApiSignals = Static<typeof PermissionsApiSignals>
