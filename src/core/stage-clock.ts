// Where a task submission's time goes (issue 61): POST /api/antibot/tasks laps a clock at the end
// of each stage, and /metrics adds each stage's seconds to antibot_submission_stage_seconds_total
// (src/metrics.ts), so an operator's Prometheus, and the HTTP benchmark, read the average per
// stage as seconds over runs. A lap is one performance.now() call.

/** The stages of a submission, in the order they run (src/http/tasks.ts, src/http/submission.ts). */
export const SUBMISSION_STAGES = [
  /** TASK_RATE_LIMIT's window, before the body is read. */
  'limit',
  /** Reading and parsing the JSON body. */
  'read',
  /** The request's observation: the nonce and the listeners' evidence under it, the proof, signed agents. */
  'observe',
  /** How many other addresses stored this visitor id (fp-commonness). */
  'seen',
  /** Whether a stored task has the run's digest (replayed-run). */
  'run',
  /** Validating the input and judging every check. */
  'judge',
  /** The uniqueness figures' counts. */
  'uniqueness',
  /** The task's insert (with its nonce, its sighting). */
  'store',
] as const

export type SubmissionStage = (typeof SUBMISSION_STAGES)[number]

export interface StageClock {
  /** Ends `stage`: the time since the last lap (or the clock's start) is its time. */
  lap(stage: SubmissionStage): void
  /** Each stage lapped, with its seconds, in order. */
  readonly laps: ReadonlyArray<readonly [SubmissionStage, number]>
}

export function stageClock(now: () => number = () => performance.now()): StageClock {
  const laps: Array<readonly [SubmissionStage, number]> = []
  let last = now()
  return {
    lap(stage) {
      const t = now()
      laps.push([stage, (t - last) / 1000])
      last = t
    },
    laps,
  }
}
