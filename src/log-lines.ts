// The request log's writer. One line per request, to stdout as `npm start` runs it: written
// one call per line, the log cost a write to the pipe per request (a system call each, on the
// thread that serves requests). Lines are gathered instead and written together once per turn
// of the event loop — or at once past 64 KiB — in the order they were logged, and whatever is
// still gathered when the process exits is written synchronously on the way out.

import { writeSync } from 'node:fs'

export interface LineWriter {
  line(text: string): void
  /** Writes what is gathered now, through `write`. */
  flush(): void
  /** Hands over what is gathered and forgets it (for the synchronous write at exit). */
  take(): string
}

export function gatheredLines(write: (chunk: string) => void, maxChars = 64 * 1024): LineWriter {
  let pending = ''
  let scheduled = false
  const take = () => {
    const chunk = pending
    pending = ''
    return chunk
  }
  const flush = () => {
    scheduled = false
    if (pending) write(take())
  }
  return {
    line(text) {
      pending += `${text}\n`
      if (pending.length >= maxChars) flush()
      else if (!scheduled) {
        scheduled = true
        setImmediate(flush)
      }
    },
    flush,
    take,
  }
}

/** The service's stdout: gathered lines, and what is left written synchronously at exit. */
export function stdoutLines(): LineWriter {
  const out = gatheredLines((chunk) => process.stdout.write(chunk))
  process.on('exit', () => {
    const rest = out.take()
    if (!rest) return
    try {
      writeSync(1, rest)
    } catch {
      // Stdout is gone (a closed pipe): nothing left to write to.
    }
  })
  return out
}
