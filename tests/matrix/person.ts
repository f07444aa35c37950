// The person of the detection matrix: a headful Chromium on a virtual X display (Debian's Xvfb),
// started with the page's URL and nothing that automates it — no --remote-debugging-*, no
// --enable-automation, no driver, a fresh profile. Nothing touches the page, before or after
// it submits: the page does not tell us its task id, so the task is found through the operator
// API (GET /api/admin/tasks), as the newest bot-detector task that was not there before.
//
// Flags, and why each is here: --no-sandbox only when running as root (Chromium refuses to
// start otherwise; the page cannot see it: the sandbox restricts the renderer's system calls,
// not what the web platform exposes), --user-data-dir for a fresh profile, --no-first-run so no
// welcome tab opens next to ours, and the three that keep a fresh profile from calling Google
// (background networking, component updates, sync), since the matrix makes loopback traffic
// only. None of them changes what the page sees.
// What stays as it is on this machine and must not cost the person the `human` verdict:
// SwiftShader instead of a GPU, no window manager or taskbar (the screen's available area is
// all of it), a UTC time zone, no audio or video devices.

import { spawn, type ChildProcess } from 'node:child_process'
import type { Client, MatrixContext } from './clients'
import { sleep, startXvfb, stopGroup } from './xvfb'

async function listTaskIds(ctx: MatrixContext): Promise<string[]> {
  const res = await fetch(`${ctx.baseUrl}/api/admin/tasks?tool=bot-detector&limit=100`, { headers: { authorization: `Bearer ${ctx.adminToken}` } })
  if (res.status !== 200) throw new Error(`GET /api/admin/tasks answered ${res.status}: ${await res.text()}`)
  return ((await res.json()) as Array<{ task_id: string }>).map((t) => t.task_id)
}

export const personClient: Client = {
  name: 'Person: headful Chromium on Xvfb, no automation',
  expected: 'human',
  async run(ctx) {
    const before = new Set(await listTaskIds(ctx))
    const xvfb = await startXvfb()
    let browser: ChildProcess | undefined
    try {
      const rootOnly = process.getuid?.() === 0 ? ['--no-sandbox'] : []
      const args = [...rootOnly, `--user-data-dir=${ctx.dir}/profile`, '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', ctx.pageUrl]
      let log = ''
      browser = spawn(ctx.chromium, args, { env: { ...process.env, DISPLAY: xvfb.display }, stdio: ['ignore', 'ignore', 'pipe'], detached: true })
      browser.stderr!.on('data', (d: Buffer) => (log = (log + d.toString()).slice(-4000)))
      const started = Date.now()
      // Browser start-up on a loaded 2-core machine takes a few seconds on top of the page's run.
      while (Date.now() - started < ctx.timeoutMs + 20_000) {
        if (browser.exitCode !== null) throw new Error(`chromium exited with ${browser.exitCode}: ${log.trim().split('\n').slice(-3).join(' | ')}`)
        const fresh = (await listTaskIds(ctx)).find((id) => !before.has(id))
        if (fresh) return fresh
        await sleep(250)
      }
      throw new Error(`no new bot-detector task within ${Math.round((Date.now() - started) / 1000)} s`)
    } finally {
      if (browser) await stopGroup(browser)
      await xvfb.stop()
    }
  },
}
