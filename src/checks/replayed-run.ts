// A page run submitted twice (issue 46): the service keeps each page run's digest with its task
// (src/core/run-digest.ts) and looks it up before judging a new one. A person's browser never
// submits the same run twice; a recorded submission replayed under a fresh page's nonce does.

import { checkOn, na } from './define'

export const replayedRun = checkOn<Record<string, never>>()({
  id: 'replayed-run',
  name: 'This run was not submitted before',
  found: 'this run was submitted before: a recorded submission replayed',
  source: 'server',
  why: "Each run of a tool page differs from every other, even in one browser on one machine: every probe's timing, the frames and input it saw. The service keeps a digest of each page run's signals with its task (the page's nonce left out) and looks it up before judging the next: a submission whose run a stored task already has was recorded and replayed, typically by an HTTP client that never ran the page. Only exact repeats are caught; a replayer that alters its recording is left to the other checks.",
  expected: 'a run no stored task has',
  needs: [],
  judge: (_, { ctx }) => {
    const r = ctx.runSeen
    if (!r) return na("only a page run (the page's nonce and its signals) has a digest to look up")
    if ('error' in r) return na(r.error)
    return { verdict: r.seen ? 'fail' : 'pass', observed: r.seen ? 'a stored task has this run already' : 'no stored task has this run', labels: r.seen ? ['replay'] : [] }
  },
})
