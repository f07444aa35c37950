// One service per embedded database (issue 45, src/data-dir-lock.ts): a second service on a
// DATA_DIR in use stops at once, naming the directory and the process that holds it, and loses
// nothing of the first's; two first starts racing on an empty DATA_DIR leave one service and an
// intact database; a holder killed with SIGKILL never blocks the restart.

import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DataDirInUse, lockDataDir } from '../src/data-dir-lock'
import { startServer, type RunningServer } from './support/server'

const START_TIMEOUT_MS = 120_000
const parent = mkdtempSync(join(tmpdir(), 'antibot-datadir-lock-'))
afterAll(() => rmSync(parent, { recursive: true, force: true }))
let n = 0
const freshDir = () => join(parent, `data-${++n}`)

async function createTask(server: RunningServer): Promise<string> {
  const res = await fetch(`${server.baseUrl}/api/antibot/tasks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"tool":"http-headers","results":{}}' })
  expect(res.status).toBe(201)
  return ((await res.json()) as { task_id: string }).task_id
}

async function taskIds(server: RunningServer): Promise<string[]> {
  const res = await fetch(`${server.baseUrl}/api/admin/tasks?tool=http-headers&limit=100`, { headers: { authorization: `Bearer ${server.adminToken}` } })
  expect(res.status).toBe(200)
  return ((await res.json()) as Array<{ task_id: string }>).map((t) => t.task_id)
}

/** Waits until process `pid` is gone. */
async function gone(pid: number): Promise<void> {
  for (let i = 0; i < 300; i++) {
    try {
      process.kill(pid, 0)
    } catch {
      return
    }
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`process ${pid} is still there`)
}

describe('DATA_DIR lock', () => {
  test('in one process: a second lock on a DATA_DIR is refused, naming the holder; released, it can be taken again', () => {
    const dir = mkdtempSync(join(parent, 'unit-'))
    const first = lockDataDir(dir)
    expect(first.held).toBe(true)
    expect(() => lockDataDir(dir)).toThrow(DataDirInUse)
    expect(() => lockDataDir(dir)).toThrow(`pid ${process.pid} on host`)
    first.release()
    lockDataDir(dir).release()
  })

  test(
    'a second service on a DATA_DIR in use exits at once, naming it and the holder; the first keeps every task',
    async () => {
      const dir = freshDir()
      const first = await startServer({ DATA_DIR: dir })
      try {
        const ids = [await createTask(first), await createTask(first)]
        const second = startServer({ DATA_DIR: dir })
        await expect(second).rejects.toThrow(`DATA_DIR ${dir} is in use by another Antibot service (pid ${first.pid} on host`)
        expect(await taskIds(first)).toEqual(expect.arrayContaining(ids))
      } finally {
        await first.stop()
      }
    },
    START_TIMEOUT_MS,
  )

  test(
    'two first starts racing on an empty DATA_DIR: one service, and its tasks survive a restart',
    async () => {
      const dir = freshDir()
      const both = await Promise.allSettled([startServer({ DATA_DIR: dir }), startServer({ DATA_DIR: dir })])
      const up = both.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []))
      const refused = both.flatMap((r) => (r.status === 'rejected' ? [String(r.reason)] : []))
      expect(up).toHaveLength(1)
      expect(refused).toHaveLength(1)
      expect(refused[0]).toContain('is in use by another Antibot service')
      const id = await createTask(up[0]!)
      await up[0]!.stop()
      const again = await startServer({ DATA_DIR: dir })
      try {
        expect(await taskIds(again)).toContain(id)
      } finally {
        await again.stop()
      }
    },
    START_TIMEOUT_MS,
  )

  test(
    'a holder killed with SIGKILL does not block the restart, which finds its tasks',
    async () => {
      const dir = freshDir()
      const first = await startServer({ DATA_DIR: dir })
      const id = await createTask(first)
      process.kill(first.pid, 'SIGKILL')
      await gone(first.pid)
      const again = await startServer({ DATA_DIR: dir })
      try {
        expect(await taskIds(again)).toContain(id)
      } finally {
        await again.stop()
        await first.stop()
      }
    },
    START_TIMEOUT_MS,
  )
})
