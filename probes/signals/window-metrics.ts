// Window geometry: outer vs inner size is the classic headless tell (no tabs or address bar).
// A person's Chromium reports an outer size of 0×0 to a page it has just reloaded, for a moment:
// the browser sends the window's size to the new document after the page's first script runs
// (seen on every other F5 in the tools matrix, Chromium 156 on X11). So an outer size of 0 with
// a page of some size is read again until the browser tells it, for at most OUTER_WAIT_MS; a
// window that has none by then (old headless Chromium) keeps its 0.
import type { WindowMetrics } from '../../common/signals/screen-display'

export const OUTER_WAIT_MS = 1500
const POLL_MS = 50

type WindowLike = Pick<Window, 'innerWidth' | 'innerHeight' | 'outerWidth' | 'outerHeight' | 'screenX' | 'screenY' | 'devicePixelRatio'>

function read(w: WindowLike): WindowMetrics {
  return {
    innerWidth: w.innerWidth,
    innerHeight: w.innerHeight,
    outerWidth: w.outerWidth,
    outerHeight: w.outerHeight,
    screenX: w.screenX,
    screenY: w.screenY,
    devicePixelRatio: w.devicePixelRatio,
  }
}

const untold = (m: WindowMetrics) => (m.outerWidth === 0 || m.outerHeight === 0) && m.innerWidth > 0 && m.innerHeight > 0

export async function windowMetrics(w: WindowLike = globalThis as unknown as WindowLike, waitMs = OUTER_WAIT_MS, sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))): Promise<WindowMetrics> {
  let m = read(w)
  for (let waited = 0; untold(m) && waited < waitMs; waited += POLL_MS) {
    await sleep(POLL_MS)
    m = read(w)
  }
  return m
}
