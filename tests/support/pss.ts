// The memory of a service as its host sees it: PSS (proportional set size, each shared page
// divided among the processes that map it) summed over a process and all its descendants, read
// from Linux's /proc. PSS, not RSS: a child that shares Bun's binary and libraries with its
// parent is not counted twice, and the sum is what the processes together cost the machine (and
// near what a container's memory cgroup charges them). Used by tests/bench/memory.ts and
// tests/memory.test.ts.

import { existsSync, readdirSync, readFileSync } from 'node:fs'

/** The pid and its descendants, found through each thread's `children` list. */
export function processTree(root: number): number[] {
  const out: number[] = []
  const stack = [root]
  while (stack.length > 0) {
    const pid = stack.pop()!
    out.push(pid)
    let tasks: string[]
    try {
      tasks = readdirSync(`/proc/${pid}/task`)
    } catch {
      continue // ended meanwhile
    }
    for (const tid of tasks) {
      try {
        for (const child of readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').split(' ')) {
          if (child.trim()) stack.push(Number(child))
        }
      } catch {
        // The thread ended meanwhile.
      }
    }
  }
  return out
}

/** PSS of one process in kB (smaps_rollup), 0 when it has ended. */
export function pssKb(pid: number): number {
  try {
    const m = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))
    return m ? Number(m[1]) : 0
  } catch {
    return 0
  }
}

function comm(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim()
  } catch {
    return '?'
  }
}

export interface TreeSample {
  /** PSS summed over the tree, MB. */
  mb: number
  /** Each process's PSS, MB, largest first ("bun 212", "bun 180"). */
  parts: { pid: number; name: string; mb: number }[]
}

export function sampleTree(root: number): TreeSample {
  const parts = processTree(root).map((pid) => ({ pid, name: comm(pid), mb: pssKb(pid) / 1024 }))
  parts.sort((a, b) => b.mb - a.mb)
  return { mb: parts.reduce((s, p) => s + p.mb, 0), parts }
}

/**
 * Samples a process tree every `everyMs` until stopped: the peak (with its processes) and every
 * sample, so that a caller can cut the run into phases (first start, idle, load) by time.
 */
export function treeSampler(root: number, everyMs = 50) {
  const samples: { at: number; mb: number }[] = []
  let peak: TreeSample & { at: number } = { mb: 0, parts: [], at: 0 }
  const take = () => {
    const s = sampleTree(root)
    const at = performance.now()
    samples.push({ at, mb: s.mb })
    if (s.mb > peak.mb) peak = { ...s, at }
    return s
  }
  take()
  const timer = setInterval(take, everyMs)
  return {
    samples,
    take,
    get peak() {
      return peak
    },
    /** The largest sample taken in [from, to] (performance.now() times). */
    peakBetween(from: number, to = Number.POSITIVE_INFINITY): number {
      return samples.filter((s) => s.at >= from && s.at <= to).reduce((m, s) => Math.max(m, s.mb), 0)
    },
    /** The median of the samples in [from, to]: a level, not a spike. */
    medianBetween(from: number, to = Number.POSITIVE_INFINITY): number {
      const v = samples
        .filter((s) => s.at >= from && s.at <= to)
        .map((s) => s.mb)
        .sort((a, b) => a - b)
      return v.length ? v[Math.floor(v.length / 2)]! : Number.NaN
    },
    stop: () => clearInterval(timer),
  }
}

export const describeParts = (s: TreeSample) => s.parts.filter((p) => p.mb >= 1).map((p) => `${p.name} ${p.mb.toFixed(0)}`).join(' + ')

export interface MeasuredService {
  pid: number
  adminToken: string
  /** What the service printed so far. */
  output(): string
  /** Resolves when the output matches (or rejects when the service exits first, or after `ms`). */
  waitFor(pattern: RegExp, ms?: number): Promise<RegExpExecArray>
  /** SIGTERM, then the exit code. */
  stop(): Promise<number>
}

const ROOT = new URL('../..', import.meta.url).pathname

/**
 * Starts the service as a user does: the command of package.json's `start` script (what
 * `npm start` runs: `BUN_JSC_gcMaxHeapSize=… bun --smol src/main.ts`) through `sh -c`, with
 * node_modules/.bin first on PATH as npm puts it, or `npm start` itself with `npm: true` (then
 * npm's own Node process is in the tree too). Listeners on ephemeral loopback ports (HTTP,
 * HTTPS, STUN), the DNS listener off, an operator token for making keys.
 */
export function spawnService(opts: { dataDir: string; databaseUrl?: string; npm?: boolean; env?: Record<string, string> }): MeasuredService {
  const adminToken = `mem-${crypto.randomUUID()}`
  const start = (JSON.parse(readFileSync(`${ROOT}/package.json`, 'utf8')) as { scripts: { start: string } }).scripts.start
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    PATH: `${ROOT}/node_modules/.bin:${process.env.PATH}`,
    HOST: '127.0.0.1',
    PORT: '0',
    TLS_PORT: '0',
    STUN_PORT: '0',
    DATA_DIR: opts.dataDir,
    ADMIN_TOKEN: adminToken,
    ...(opts.databaseUrl ? { DATABASE_URL: opts.databaseUrl, SIGNING_KEY_SECRET: `mem-${crypto.randomUUID()}` } : {}),
    ...opts.env,
  }
  delete env.DNS_ZONE
  if (!opts.databaseUrl) delete env.DATABASE_URL
  // The environment a test runner sets for itself is not the user's.
  delete env.NODE_ENV
  delete env.BUN_JSC_gcMaxHeapSize
  const proc = Bun.spawn(opts.npm ? ['npm', 'start', '--silent'] : ['sh', '-c', start], { cwd: ROOT, env, stdout: 'pipe', stderr: 'pipe' })
  let text = ''
  const read = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder()
    const reader = stream.getReader()
    for (;;) {
      const { done, value } = await reader.read()
      if (done) return
      text += decoder.decode(value, { stream: true })
    }
  }
  void read(proc.stdout)
  void read(proc.stderr)
  const service: MeasuredService = {
    pid: proc.pid,
    adminToken,
    output: () => text,
    async waitFor(pattern, ms = 180_000) {
      const deadline = Date.now() + ms
      for (;;) {
        const m = pattern.exec(text)
        if (m) return m
        if (proc.exitCode !== null) throw new Error(`the service exited (${proc.exitCode}) before printing ${pattern}:\n${text}`)
        if (Date.now() > deadline) throw new Error(`the service did not print ${pattern} within ${ms / 1000} s:\n${text}`)
        await Bun.sleep(20)
      }
    },
    async stop() {
      // The whole tree: under `sh -c` or npm, the service is a child, and it outlives a shell
      // that dies of the signal; waited for until every one has ended, so that its DATA_DIR
      // can be removed.
      const tree = processTree(proc.pid).reverse()
      for (const pid of tree) {
        try {
          process.kill(pid, 'SIGTERM')
        } catch {
          // Ended meanwhile.
        }
      }
      const code = await proc.exited
      const alive = (pid: number) => {
        try {
          return existsSync(`/proc/${pid}`) && !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'))
        } catch {
          return false // ended meanwhile
        }
      }
      for (let i = 0; i < 600 && tree.some(alive); i++) await Bun.sleep(50)
      return code
    },
  }
  return service
}

/** Waits for the service's listening line; its HTTP address. */
export async function listening(service: MeasuredService): Promise<string> {
  const m = await service.waitFor(/antibot listening on (http:\/\/[^\s]+)/)
  return m[1]!
}

/** The line main.ts prints once the IP database is loaded (or cannot be): the end of a start. */
export const IPDB_DONE = /IP database ready|Cannot load the IP database/
