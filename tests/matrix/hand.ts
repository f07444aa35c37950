// A person's hand on the mouse, for the people of the matrices who move the pointer and scroll
// while the page runs (issue 25): the system pointer of the Xvfb display, moved with xdotool
// (XTest, the way the X server moves it for a real mouse), along curved, eased paths at about
// 60–120 Hz with pauses and now and then a wheel notch. The script goes to one `xdotool -`
// process on stdin, which runs it until it is stopped. The raw-DevTools clients draw their
// paths with the same humanPath, so the two classes differ only in how input reaches the page.

import { spawn, type ChildProcess } from 'node:child_process'

/** Points of a curved, eased path from a to b with a little jitter, as "human-like" mouse libraries make them. */
export function humanPath(a: [number, number], b: [number, number], steps: number, random: () => number): Array<[number, number]> {
  const bend: [number, number] = [(a[0] + b[0]) / 2 + (random() - 0.5) * 300, (a[1] + b[1]) / 2 + (random() - 0.5) * 200]
  const out: Array<[number, number]> = []
  for (let i = 1; i <= steps; i++) {
    const s = i / steps
    const t = s < 0.5 ? 2 * s * s : 1 - (-2 * s + 2) ** 2 / 2
    const x = (1 - t) ** 2 * a[0] + 2 * (1 - t) * t * bend[0] + t * t * b[0]
    const y = (1 - t) ** 2 * a[1] + 2 * (1 - t) * t * bend[1] + t * t * b[1]
    out.push([Math.round(x + (random() - 0.5) * 2), Math.round(y + (random() - 0.5) * 2)])
  }
  return out
}

/** An xdotool script of `seconds` of wandering over the region the browser's page covers. */
export function handScript(seconds: number, random: () => number = Math.random): string {
  const lines: string[] = []
  let at: [number, number] = [300, 400]
  let ms = 0
  while (ms < seconds * 1000) {
    const to: [number, number] = [150 + Math.round(random() * 700), 250 + Math.round(random() * 400)]
    for (const [x, y] of humanPath(at, to, 20 + Math.floor(random() * 30), random)) {
      const step = 8 + random() * 8
      lines.push(`mousemove ${Math.max(0, x)} ${Math.max(0, y)}`, `sleep ${(step / 1000).toFixed(3)}`)
      ms += step
    }
    at = to
    if (random() < 0.5) {
      lines.push(`click ${random() < 0.7 ? 5 : 4}`, 'sleep 0.1')
      ms += 100
    }
    const rest = 50 + random() * 250
    lines.push(`sleep ${(rest / 1000).toFixed(3)}`)
    ms += rest
  }
  return `${lines.join('\n')}\n`
}

/** Starts moving the pointer of `display` (xdotool reads the script on stdin); stop it with stopGroup. */
export function startHand(display: string, seconds = 60): ChildProcess {
  const hand = spawn('xdotool', ['-'], { env: { ...process.env, DISPLAY: display }, stdio: ['pipe', 'ignore', 'ignore'], detached: true })
  hand.stdin!.end(handScript(seconds))
  return hand
}
