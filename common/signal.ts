// One collected signal as the page reports it: its value, or the typed reason it has none.
// Shared by the probes (which produce it) and the server (which validates and judges it).

import { Type, type Static, type TSchema } from '@sinclair/typebox'

export const SIGNAL_ERROR_KINDS = ['unsupported', 'blocked', 'timeout', 'farbled', 'error'] as const
export type SignalErrorKind = (typeof SIGNAL_ERROR_KINDS)[number]

export const SignalErrorSchema = Type.Object({
  kind: Type.Union(SIGNAL_ERROR_KINDS.map((k) => Type.Literal(k))),
  message: Type.String({ maxLength: 500 }),
})

export function Signal<T extends TSchema>(value: T) {
  return Type.Union([
    Type.Object({ ok: Type.Literal(true), value, ms: Type.Number() }),
    Type.Object({ ok: Type.Literal(false), error: SignalErrorSchema, ms: Type.Number() }),
  ])
}

export type SignalResult<T> = { ok: true; value: T; ms: number } | { ok: false; error: Static<typeof SignalErrorSchema>; ms: number }

/** The value when the signal succeeded, else undefined. */
export function signalValue<T>(s: SignalResult<T> | undefined): T | undefined {
  return s?.ok ? s.value : undefined
}

/** A short text for a signal that has no value, e.g. "unsupported: no OfflineAudioContext". */
export function whyMissing(s: SignalResult<unknown> | undefined): string {
  if (!s) return 'not collected'
  return s.ok ? '' : `${s.error.kind}: ${s.error.message}`
}
