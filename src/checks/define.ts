// A check is one finding with one home: its definition (id, name, why, where the value comes
// from) and a pure function from the signals and server observations it declares to a
// verdict. Tools list the checks they run with a weight each (src/core/tools/*); the runner
// (src/core/judge.ts) turns a missing declared signal into `na` with the reason, so no check
// and no tool writes that plumbing.
//
// A check file reads like a FingerprintJS source or a BotD detector: a few dozen lines, pure,
// its test beside it.

import type { SignalResult } from '../../common/signal'
import type { FingerprintSeen } from '../core/fingerprint-seen'
import type { Verdict } from '../core/scoring'
import type { ServerObservation } from '../core/tools/observation'
import type { IpLookup } from '../evidence/ipdb-core'

/** What a check found: the verdict, the value seen, and what a consistent browser shows. */
export interface Outcome {
  verdict: Verdict
  observed: unknown
  expected: string
  /**
   * Names the tool may collect besides the verdict (bot-detector's `frameworks`: the
   * automation this finding points at). Never stored in the check itself.
   */
  labels?: readonly string[]
  /**
   * Where the value came from when it differs from the definition's `source` for this
   * submission (webrtc-vs-http: the service's own TURN listener saw the browser's address).
   */
  source?: 'client' | 'server'
}

/** The value of each signal of a tool's signal object, when it was collected. */
export type SignalValues<S> = { [K in keyof S]-?: NonNullable<S[K]> extends SignalResult<infer V> ? V : never }

/**
 * Lookups a judge may use besides the request: pure functions over data loaded at start-up
 * (tests pass fakes). Every member is optional: a judge without one says what is missing.
 */
export interface JudgeContext {
  /** Country, AS and hosting flag of an address (offline database, src/evidence/ipdb.ts). */
  lookupIp?: (ip: string) => IpLookup
  /**
   * How many stored tasks share this submission's identity (ToolDefinition.identity) and from
   * how many other addresses: counted by the HTTP handlers before judging (src/http/identity-count.ts).
   */
  fingerprintSeen?: FingerprintSeen
  /**
   * Whether a stored task already has this page run's digest (src/core/run-digest.ts): looked up
   * by the HTTP handlers before judging; `error` when the lookup failed. Absent: not a page run.
   */
  runSeen?: { seen: boolean } | { error: string }
}

/** What a check's judge gets besides the signal values. */
export interface CheckEnv<S> {
  server: ServerObservation
  ctx: JudgeContext
  /** Why a signal the check uses has no value ("unsupported: no OfflineAudioContext"). */
  missing(...names: Array<keyof S & string>): string
  /** The signals as sent, for the rare check that reports on a failed signal itself. */
  raw: Partial<S>
}

/** The outcome of a check whose definition gives the expectation: `expected` only where it differs (an `na`'s reason). */
export type OutcomeOfDefined = Omit<Outcome, 'expected'> & { expected?: string }

/** What a judge gets: the values of the signals it needs and of those it uses that have one. */
type Values<S, N extends keyof S, U extends keyof S> = Pick<SignalValues<S>, N> & Partial<Pick<SignalValues<S>, U>>

// biome-ignore lint/suspicious/noExplicitAny: a check list holds checks over different signal types; `any` erases them there (tools/types.ts keeps the typed view).
export type CheckDefinition<S = any, N extends keyof S = any, U extends keyof S = any> = CheckText<S, N, U> &
  (
    | {
        /**
         * What a consistent browser shows, when that is one text for every task the check
         * judges: its judge may then leave `expected` out (an `na` still says why). A stored
         * task names this text by a code (src/core/text-codes.ts), so a new wording must be
         * added to src/core/stored-texts.json (npm run docs:checks), keeping the old one.
         */
        expected: string
        judge(values: Values<S, N, U>, env: CheckEnv<S>): OutcomeOfDefined
      }
    | { expected?: undefined; judge(values: Values<S, N, U>, env: CheckEnv<S>): Outcome }
  )

interface CheckText<S, N extends keyof S, U extends keyof S> {
  id: string
  /** Short human title, said as what a consistent browser does. */
  name: string
  /**
   * What was found when the check fails or warns, said as the finding ("navigator.webdriver is
   * true", where `name` says "navigator.webdriver is not true"). The report's findings list a
   * fired check by it (src/pages/pictures); the checks table keeps `name`. Never stored.
   */
  found: string
  /** `client`: judged on what the page reported (spoofable); `server`: on what the service saw. */
  source: 'client' | 'server'
  /** Why the finding matters and its known false positives. */
  why: string
  /** Where the browser behaviour the check relies on is documented (a spec, an engine's source, a detector's). */
  ref?: string
  /** Signals that must have a value; when one has none the check is `na`, saying why. */
  needs: readonly N[]
  /** Signals read when present (undefined otherwise). */
  uses?: readonly U[]
}

/**
 * Declares a check over the signals `S` it reads (a tool's signal object, or the small part
 * of one that several tools share). Curried so that `S` is given and the rest inferred:
 * `checkOn<AudioSignals>()({ id: 'audio-stable', needs: ['audio'], judge: ({ audio }) => … })`.
 */
export function checkOn<S>() {
  return <N extends keyof S & string, U extends keyof S & string = never>(def: CheckDefinition<S, N, U>): CheckDefinition<S, N, U> => def
}

/** The verdict of a check that cannot apply, with the reason in `expected`. */
export function na(reason: string): Outcome {
  return { verdict: 'na', observed: null, expected: reason }
}
