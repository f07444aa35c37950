// Geometry of screen-display's picture: the screen, the part of it windows may use, the
// browser window and the page's viewport, to scale and where the page measured them, with the
// tells that fired marked on the area they concern. Numbers only: src/pages/pictures/screen.tsx
// writes the SVG, and this is tested here.

import type { ScreenMetrics, WindowMetrics } from '../../../common/signals/screen-display'
import type { Check } from '../scoring'

export const AREAS = ['screen', 'available', 'window', 'viewport'] as const
export type Area = (typeof AREAS)[number]

export interface Rect {
  x: number
  y: number
  width: number
  height: number
}

export interface PlacedArea {
  area: Area
  rect: Rect
  /** The measured size, as the page read it (CSS pixels). */
  width: number
  height: number
  /** The worst verdict among the tells about this area; null when none fired. */
  tell: 'fail' | 'warn' | null
  /** Names of the checks that fired on it. */
  tells: string[]
}

export interface ScreenLayout {
  /** The SVG's viewBox: every area, with a margin. */
  box: Rect
  areas: PlacedArea[]
}

/** Which area each screen-display check is about. */
export const TELL_AREAS: Readonly<Record<string, readonly Area[]>> = {
  'screen-size': ['screen'],
  'device-width-media': ['screen'],
  'resolution-media': ['screen'],
  'screen-taskbar': ['available'],
  'outer-equals-inner': ['window', 'viewport'],
  'window-position': ['window'],
  'default-viewport': ['viewport'],
  'page-in-window': ['viewport'],
  'client-hint-viewport': ['viewport'],
  'screen-anti-fingerprinting': ['screen', 'window', 'viewport'],
}

const positive = (n: number) => Number.isFinite(n) && n > 0

/**
 * Places the areas in screen coordinates: the screen and the available area from the origin
 * (availLeft/availTop are not measured), the window at screenX/screenY, and the viewport inside
 * the window at the bottom, centred sideways (the browser's toolbars are above it). A window
 * or viewport larger than what holds it is drawn as it is: sticking out is the tell.
 */
export function screenLayout(screen: Pick<ScreenMetrics, 'width' | 'height' | 'availWidth' | 'availHeight'>, win: WindowMetrics | null, checks: readonly Pick<Check, 'id' | 'name' | 'verdict'>[]): ScreenLayout | null {
  if (!positive(screen.width) || !positive(screen.height)) return null
  const placed: Array<{ area: Area; rect: Rect }> = [{ area: 'screen', rect: { x: 0, y: 0, width: screen.width, height: screen.height } }]
  if (positive(screen.availWidth) && positive(screen.availHeight)) placed.push({ area: 'available', rect: { x: 0, y: 0, width: screen.availWidth, height: screen.availHeight } })
  if (win) {
    const hasWindow = positive(win.outerWidth) && positive(win.outerHeight)
    const wx = Number.isFinite(win.screenX) ? win.screenX : 0
    const wy = Number.isFinite(win.screenY) ? win.screenY : 0
    if (hasWindow) placed.push({ area: 'window', rect: { x: wx, y: wy, width: win.outerWidth, height: win.outerHeight } })
    if (positive(win.innerWidth) && positive(win.innerHeight)) {
      const x = hasWindow ? wx + (win.outerWidth - win.innerWidth) / 2 : wx
      const y = hasWindow ? wy + win.outerHeight - win.innerHeight - Math.max(0, (win.outerWidth - win.innerWidth) / 2) : wy
      placed.push({ area: 'viewport', rect: { x, y, width: win.innerWidth, height: win.innerHeight } })
    }
  }
  const minX = Math.min(...placed.map((p) => p.rect.x))
  const minY = Math.min(...placed.map((p) => p.rect.y))
  const maxX = Math.max(...placed.map((p) => p.rect.x + p.rect.width))
  const maxY = Math.max(...placed.map((p) => p.rect.y + p.rect.height))
  const margin = Math.round(Math.max(maxX - minX, maxY - minY) * 0.02)
  const areas = placed.map(({ area, rect }) => {
    const fired = checks.filter((c) => (c.verdict === 'fail' || c.verdict === 'warn') && TELL_AREAS[c.id]?.includes(area))
    return {
      area,
      rect,
      width: rect.width,
      height: rect.height,
      tell: fired.some((c) => c.verdict === 'fail') ? ('fail' as const) : fired.length ? ('warn' as const) : null,
      tells: fired.map((c) => c.name),
    }
  })
  return { box: { x: minX - margin, y: minY - margin, width: maxX - minX + 2 * margin, height: maxY - minY + 2 * margin }, areas }
}
