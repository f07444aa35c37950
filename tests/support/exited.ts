// A child process's end as the tests read it: its exit, and what it wrote. Node's 'exit' can come
// before the last 'data' of the child's pipes, so a message the child printed just before it
// exited (a refusal's reason, a program's last line) could be missing from what a test reports.

import type { ChildProcess } from 'node:child_process'
import type { Readable } from 'node:stream'

export interface Exit {
  code: number | null
  signal: NodeJS.Signals | null
}

/**
 * Resolves once `child` has exited and its stdout and stderr have ended, or `graceMs` after the
 * exit when a pipe stays open (a grandchild that inherited it). Listen to the pipes' 'data'
 * before calling it.
 */
export function exitedWithOutput(child: ChildProcess, graceMs = 2000): Promise<Exit> {
  const pipes = [child.stdout, child.stderr].filter((s): s is Readable => s !== null)
  const ended = Promise.all(
    pipes.map((s) => {
      if (s.readableEnded || s.destroyed) return undefined
      return new Promise<void>((r) => {
        s.once('end', r)
        s.once('close', r)
      })
    }),
  )
  const afterExit = async (exit: Exit) => {
    let timer: ReturnType<typeof setTimeout> | undefined
    await Promise.race([ended, new Promise<void>((r) => (timer = setTimeout(r, graceMs)))])
    clearTimeout(timer)
    return exit
  }
  if (child.exitCode !== null || child.signalCode !== null) return afterExit({ code: child.exitCode, signal: child.signalCode })
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve(afterExit({ code, signal }))))
}
