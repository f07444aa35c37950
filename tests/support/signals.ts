// Signal results as a page reports them (common/signal.ts), for the tests of checks and tools.

import type { SignalErrorKind } from '../../common/signal'

/** A signal that was collected, with its value. */
export const ok = <T>(value: T) => ({ ok: true as const, value, ms: 1 })

/** A signal that has no value, with the typed reason the page gave. */
export const missing = <K extends SignalErrorKind>(kind: K, message: string) => ({ ok: false as const, error: { kind, message }, ms: 1 })
