// The raw-DevTools class of the detection matrix (issue 25): what nodriver, zendriver and
// selenium-driverless do, written here with nothing but a WebSocket. An unmodified Chromium is
// started like a person's (headful on Xvfb, a fresh profile, no --enable-automation) with a
// debugging port the script picks and, as those libraries pass it, AutomationControlled off
// (else navigator.webdriver is true as soon as a client drives a page). The script talks to the
// page target over its WebSocket without Runtime.enable or Page.enable, navigates with
// Page.navigate, moves the mouse along a human-like curve and scrolls with
// Input.dispatchMouseEvent while the page runs, awaiting each command as those libraries do,
// and polls for the task id with Runtime.evaluate: in the page's own world, or in an isolated
// world of its own (Page.createIsolatedWorld), which page scripts cannot see.
//
// What catches both, whatever the machine's load and the transport: `input-clock` (issue 56):
// the browser stamps each injected event with its own microsecond clock, where the X server
// stamps a person's in whole milliseconds (src/checks/input-clock.ts). Hence no retries
// (judgedOnInput): the row must show that finding every time (mustFind); `input-pacing`, which
// needs a steady stream and an unloaded machine, may or may not fail beside it.

import { spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { chromiumLaunchArgs, type Client, type MatrixContext } from './clients'
import { humanPath } from './hand'
import { sleep, startXvfb, stopGroup } from './xvfb'

/** A DevTools protocol session over one WebSocket: commands in order, answers by id. */
class DevTools {
  private id = 0
  private readonly pending = new Map<number, { resolve: (v: Record<string, unknown>) => void; reject: (e: Error) => void }>()
  private constructor(private readonly ws: WebSocket) {
    ws.onmessage = (m) => {
      const msg = JSON.parse(String(m.data)) as { id?: number; result?: Record<string, unknown>; error?: { message: string } }
      const p = msg.id === undefined ? undefined : this.pending.get(msg.id)
      if (!p) return
      this.pending.delete(msg.id!)
      if (msg.error) p.reject(new Error(msg.error.message))
      else p.resolve(msg.result ?? {})
    }
    ws.onclose = () => {
      for (const p of this.pending.values()) p.reject(new Error('the DevTools connection closed'))
      this.pending.clear()
    }
  }

  static async connect(url: string): Promise<DevTools> {
    const ws = new WebSocket(url)
    await new Promise<void>((resolve, reject) => {
      ws.onopen = () => resolve()
      ws.onerror = () => reject(new Error(`Cannot connect to ${url}`))
    })
    return new DevTools(ws)
  }

  send(method: string, params: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    const id = ++this.id
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject })
      this.ws.send(JSON.stringify({ id, method, params }))
    })
  }

  close(): void {
    this.ws.close()
  }
}

/** Moves and scrolls until `done`: curves between random points, a few wheel notches now and then. */
async function wander(dt: DevTools, done: () => boolean): Promise<void> {
  let at: [number, number] = [200 + Math.round(Math.random() * 200), 150 + Math.round(Math.random() * 100)]
  for (let round = 0; !done() && round < 40; round++) {
    const to: [number, number] = [100 + Math.round(Math.random() * 700), 100 + Math.round(Math.random() * 450)]
    for (const [x, y] of humanPath(at, to, 25 + Math.floor(Math.random() * 20), Math.random)) {
      if (done()) return
      await dt.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x, y })
      await sleep(8 + Math.random() * 12)
    }
    at = to
    for (let i = 0; i < 2 && !done(); i++) {
      await dt.send('Input.dispatchMouseEvent', { type: 'mouseWheel', x: at[0], y: at[1], deltaX: 0, deltaY: Math.random() < 0.7 ? 100 : -100 })
      await sleep(60 + Math.random() * 80)
    }
  }
}

const TASK_EXPRESSION = "document.body && document.body.dataset.task ? [document.body.dataset.task, null] : document.body && document.body.dataset.error !== undefined ? [null, (document.getElementById('status') || {}).textContent || 'error'] : null"

/** Opens the page over a raw DevTools connection and returns its task id. */
async function rawDevTools(ctx: MatrixContext, world: 'main' | 'isolated'): Promise<string> {
  const xvfb = await startXvfb()
  const profile = `${ctx.dir}/profile`
  const chrome = spawn(ctx.chromium, [...chromiumLaunchArgs(profile), '--remote-debugging-port=0', '--disable-blink-features=AutomationControlled', 'about:blank'], {
    env: { ...process.env, DISPLAY: xvfb.display },
    stdio: 'ignore',
    detached: true,
  })
  let dt: DevTools | undefined
  try {
    let port = 0
    for (let i = 0; i < 200 && !port; i++) {
      await sleep(100)
      if (existsSync(`${profile}/DevToolsActivePort`)) port = Number(readFileSync(`${profile}/DevToolsActivePort`, 'utf8').split('\n')[0])
    }
    if (!port) throw new Error('Chromium wrote no DevToolsActivePort in 20 s')
    const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as Array<{ type: string; webSocketDebuggerUrl: string }>
    const page = targets.find((t) => t.type === 'page')
    if (!page) throw new Error('no page target')
    dt = await DevTools.connect(page.webSocketDebuggerUrl)
    const session = dt
    await session.send('Page.navigate', { url: ctx.pageUrl })
    let result: [string | null, string | null] | null = null
    const moving = wander(session, () => result !== null).catch(() => {})
    let contextId: number | undefined
    const deadline = Date.now() + ctx.timeoutMs
    while (!result && Date.now() < deadline) {
      await sleep(250)
      if (world === 'isolated' && contextId === undefined) {
        const tree = (await session.send('Page.getFrameTree')) as { frameTree: { frame: { id: string; url: string } } }
        if (!tree.frameTree.frame.url.startsWith(ctx.pageUrl)) continue
        contextId = ((await session.send('Page.createIsolatedWorld', { frameId: tree.frameTree.frame.id, worldName: 'reader' })) as { executionContextId: number }).executionContextId
      }
      const r = (await session.send('Runtime.evaluate', { expression: TASK_EXPRESSION, returnByValue: true, ...(contextId !== undefined ? { contextId } : {}) }).catch(() => {
        contextId = undefined
        return {}
      })) as { result?: { value?: [string | null, string | null] | null } }
      result = r.result?.value ?? null
    }
    await moving
    if (!result) throw new Error(`no data-task within ${ctx.timeoutMs / 1000} s`)
    if (!result[0]) throw new Error(`the page reported an error: ${result[1]}`)
    return result[0]
  } finally {
    dt?.close()
    await stopGroup(chrome)
    await xvfb.stop()
  }
}

export const rawDevToolsMainWorldClient: Client = {
  name: 'Raw DevTools WebSocket (nodriver class): headful Chromium, Runtime.evaluate in the page world, Input.* mouse and wheel',
  expected: 'bot',
  mustFind: ['input-clock'],
  run: (ctx) => rawDevTools(ctx, 'main'),
}

export const rawDevToolsIsolatedWorldClient: Client = {
  name: 'Raw DevTools WebSocket (nodriver class): headful Chromium, Runtime.evaluate in an isolated world, Input.* mouse and wheel',
  expected: 'bot',
  mustFind: ['input-clock'],
  run: (ctx) => rawDevTools(ctx, 'isolated'),
}
