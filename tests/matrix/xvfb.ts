// A virtual X display (Debian's Xvfb) for the headful clients of the detection matrix, and
// stopping a process group the matrix started.

import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'

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

/** Starts Xvfb on the first free display from :99 and waits for its socket. */
export async function startXvfb(): Promise<Display> {
  let n = 99
  while (existsSync(`/tmp/.X11-unix/X${n}`) || existsSync(`/tmp/.X${n}-lock`)) n++
  const child = spawn('Xvfb', [`:${n}`, '-screen', '0', SCREEN, '-nolisten', 'tcp'], { stdio: ['ignore', 'ignore', 'pipe'], detached: true })
  let err = ''
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()))
  const failed = new Promise<never>((_, reject) => {
    child.once('error', reject)
    child.once('exit', (code) => reject(new Error(`Xvfb :${n} exited with ${code}: ${err.trim().split('\n').slice(-2).join(' | ')}`)))
  })
  const ready = (async () => {
    for (let i = 0; i < 100 && !existsSync(`/tmp/.X11-unix/X${n}`); i++) await sleep(100)
    if (!existsSync(`/tmp/.X11-unix/X${n}`)) throw new Error(`Xvfb :${n} did not open its socket in 10 s`)
  })()
  try {
    await Promise.race([ready, failed])
  } catch (e) {
    await stopGroup(child)
    throw e
  }
  failed.catch(() => {})
  return { display: `:${n}`, stop: () => stopGroup(child) }
}
