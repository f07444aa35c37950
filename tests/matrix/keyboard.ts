// A person's keyboard on a matrix display: the next page typed into the address bar, and a
// reload, as XTest key presses (xdotool) on the browser's window — what the X server delivers
// when a person types, nothing the browser can tell from a keyboard. No window manager runs on
// the Xvfb displays, so the browser's top-level window is given the input focus first.

import { execFile } from 'node:child_process'
import { sleep } from './xvfb'

function xdotool(display: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('xdotool', args, { env: { ...process.env, DISPLAY: display }, timeout: 15_000 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`xdotool ${args.join(' ')}: ${stderr.trim() || err.message}`))
      else resolve(stdout)
    })
  })
}

/** Focuses the largest visible named window of the display: the browser's. */
async function focusBrowser(display: string): Promise<void> {
  const ids = (await xdotool(display, ['search', '--onlyvisible', '--name', '.*']).catch(() => '')).split('\n').filter(Boolean)
  let best: { id: string; area: number } | null = null
  for (const id of ids) {
    // Unnamed ones are toolkits' helper windows (Chromium keeps a screen-sized one).
    if (!(await xdotool(display, ['getwindowname', id]).catch(() => '')).trim()) continue
    const geometry = await xdotool(display, ['getwindowgeometry', '--shell', id]).catch(() => '')
    const width = Number(/WIDTH=(\d+)/.exec(geometry)?.[1] ?? 0)
    const height = Number(/HEIGHT=(\d+)/.exec(geometry)?.[1] ?? 0)
    if (!best || width * height > best.area) best = { id, area: width * height }
  }
  if (!best || best.area < 100 * 100) throw new Error(`no browser window on display ${display}`)
  await xdotool(display, ['windowfocus', '--sync', best.id])
}

/** Types `url` into the address bar (Ctrl+L) and presses Enter. */
export async function typeAddress(display: string, url: string): Promise<void> {
  await focusBrowser(display)
  await xdotool(display, ['key', '--clearmodifiers', 'ctrl+l'])
  await sleep(300)
  await xdotool(display, ['type', '--delay', '20', url])
  await sleep(200)
  // Delete drops what the address bar may have completed after the typed text (an address of
  // its history that starts with it), so that Enter opens what was typed.
  await xdotool(display, ['key', 'Delete'])
  await sleep(100)
  await xdotool(display, ['key', 'Return'])
}

/** Reloads the page (F5). */
export async function reload(display: string): Promise<void> {
  await focusBrowser(display)
  await xdotool(display, ['key', '--clearmodifiers', 'F5'])
}

/** The titles of the display's visible named windows, for a report on a page that did not come. */
export async function windowTitles(display: string): Promise<string[]> {
  const ids = (await xdotool(display, ['search', '--onlyvisible', '--name', '.*']).catch(() => '')).split('\n').filter(Boolean)
  const names = await Promise.all(ids.map((id) => xdotool(display, ['getwindowname', id]).catch(() => '')))
  return names.map((n) => n.trim()).filter(Boolean)
}
