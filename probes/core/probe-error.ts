import type { SignalErrorKind } from '../../common/signal'

/**
 * An expected odd case while reading the browser: the API is missing (`unsupported`), refused
 * (`blocked`), too slow (`timeout`), deliberately randomised (`farbled`). Anything else a
 * source throws is reported as `error` with its message, never swallowed.
 */
export class ProbeError extends Error {
  constructor(
    readonly kind: SignalErrorKind,
    message: string,
  ) {
    super(message)
  }
}

export const unsupported = (what: string) => new ProbeError('unsupported', what)
