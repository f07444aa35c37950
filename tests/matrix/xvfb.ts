// A virtual X display (Debian's Xvfb) for the headful clients of the detection matrix, and
// stopping a process group the matrix started.

import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'

const SCREEN = '1920x1080x24'

export interface Display {
  display: string
  stop(): Promise<void>
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** SIGTERM to the child's process group (spawned detached), SIGKILL after 3 s. */
export async function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((r) => child.once('exit', r))
  const signal = (s: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, s)
    } catch {}
  }
  signal('SIGTERM')
  if ((await Promise.race([exited.then(() => true), sleep(3000).then(() => false)])) === false) {
    signal('SIGKILL')
    await exited
  }
}

/**
 * Starts Xvfb on the first free display from :99 and waits until the display is its own: the
 * socket is there and the lock file names this Xvfb. Two runs starting at once may pick the same
 * number; the one whose Xvfb loses (it exits, or the lock names the other) tries the next
 * number, instead of going on with the other run's display and losing it when that run stops.
 */
export async function startXvfb(): Promise<Display> {
  let n = 99
  for (let attempt = 0; attempt < 20; attempt++, n++) {
    while (existsSync(`/tmp/.X11-unix/X${n}`) || existsSync(`/tmp/.X${n}-lock`)) n++
    const child = spawn('Xvfb', [`:${n}`, '-screen', '0', SCREEN, '-nolisten', 'tcp'], { stdio: ['ignore', 'ignore', 'pipe'], detached: true })
    let err = ''
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()))
    let exited = false
    child.once('exit', () => (exited = true))
    child.once('error', () => (exited = true))
    const lockPid = () => {
      try {
        return Number(readFileSync(`/tmp/.X${n}-lock`, 'utf8').trim())
      } catch {
        return null
      }
    }
    let outcome: 'ours' | 'lost' | 'timeout' = 'timeout'
    for (let i = 0; i < 100; i++) {
      const owner = lockPid()
      if (exited || (owner !== null && owner !== child.pid)) {
        outcome = 'lost'
        break
      }
      if (owner === child.pid && existsSync(`/tmp/.X11-unix/X${n}`)) {
        outcome = 'ours'
        break
      }
      await sleep(100)
    }
    if (outcome === 'ours') return { display: `:${n}`, stop: () => stopGroup(child) }
    await stopGroup(child)
    if (outcome === 'timeout') throw new Error(`Xvfb :${n} did not open its display in 10 s: ${err.trim().split('\n').slice(-2).join(' | ')}`)
  }
  throw new Error('no free X display after 20 tries')
}
