// Runs a registry of sources concurrently, each under its own timeout, so that one API that
// never answers (a permission prompt, a stuck audio context) cannot hold the page. Each result
// says how long it took; errors are typed (see errors.ts), never swallowed.

import type { SignalResult } from '../../common/signal'
import { ProbeError } from './probe-error'

export type Source<T> = (() => T | Promise<T>) & { timeoutMs?: number }
export type Sources = Record<string, Source<unknown>>
export type Collected<S extends Sources> = { [K in keyof S]: SignalResult<Awaited<ReturnType<S[K]>>> }

/**
 * A source that may take longer than the page's per-signal timeout. Workers are the case: a
 * dedicated worker starts on its own thread, and on a busy machine (or in a cold browser) its
 * first answer can take seconds, which is slowness, not a lie. The page waits longer only when
 * the source is really slow.
 */
export function patient<T>(source: () => T | Promise<T>, timeoutMs: number): Source<T> {
  const wrapped: Source<T> = () => source()
  wrapped.timeoutMs = timeoutMs
  return wrapped
}

const now = () => (typeof performance !== 'undefined' ? performance.now() : Date.now())

export async function runSource<T>(source: Source<T>, pageTimeoutMs: number): Promise<SignalResult<T>> {
  const timeoutMs = Math.max(pageTimeoutMs, source.timeoutMs ?? 0)
  const t0 = now()
  let timer: ReturnType<typeof setTimeout> | undefined
  try {
    const value = await Promise.race([
      Promise.resolve().then(source),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new ProbeError('timeout', `no answer within ${timeoutMs} ms`)), timeoutMs)
      }),
    ])
    return { ok: true, value, ms: Math.round(now() - t0) }
  } catch (e) {
    const kind = e instanceof ProbeError ? e.kind : 'error'
    const message = (e instanceof Error ? `${e.name === 'Error' || e instanceof ProbeError ? '' : `${e.name}: `}${e.message}` : String(e)).slice(0, 500)
    return { ok: false, error: { kind, message }, ms: Math.round(now() - t0) }
  } finally {
    clearTimeout(timer)
  }
}

export async function collect<S extends Sources>(sources: S, timeoutMs = 3000): Promise<Collected<S>> {
  const names = Object.keys(sources)
  const results = await Promise.all(names.map((n) => runSource(sources[n]!, timeoutMs)))
  const out: Record<string, unknown> = {}
  for (const [i, n] of names.entries()) out[n] = results[i]
  return out as Collected<S>
}
