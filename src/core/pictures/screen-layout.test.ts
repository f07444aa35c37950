import { expect, test } from 'bun:test'
import { screenLayout } from './screen-layout'

const screen = { width: 1920, height: 1080, availWidth: 1920, availHeight: 1040 }
const win = { screenX: 10, screenY: 10, outerWidth: 945, outerHeight: 1030, innerWidth: 945, innerHeight: 917, devicePixelRatio: 1 }

test('the areas nest to scale: screen, available area, window at its position, viewport at the bottom of the window', () => {
  const l = screenLayout(screen, win, [])!
  const by = Object.fromEntries(l.areas.map((a) => [a.area, a]))
  expect(by.screen!.rect).toEqual({ x: 0, y: 0, width: 1920, height: 1080 })
  expect(by.available!.rect).toEqual({ x: 0, y: 0, width: 1920, height: 1040 })
  expect(by.window!.rect).toEqual({ x: 10, y: 10, width: 945, height: 1030 })
  expect(by.viewport!.rect).toEqual({ x: 10, y: 10 + 1030 - 917, width: 945, height: 917 })
  expect(l.areas.map((a) => [a.width, a.height])).toEqual([[1920, 1080], [1920, 1040], [945, 1030], [945, 917]])
  // A 2 % margin around everything.
  expect(l.box).toEqual({ x: -38, y: -38, width: 1996, height: 1156 })
})

test('a tell that fired marks the area it is about, with the check names; passes mark nothing', () => {
  const checks = [
    { id: 'outer-equals-inner', name: 'Window has browser chrome', verdict: 'fail' as const },
    { id: 'screen-taskbar', name: 'Screen reserves a taskbar', verdict: 'warn' as const },
    { id: 'screen-size', name: 'Screen size is plausible', verdict: 'pass' as const },
  ]
  const by = Object.fromEntries(screenLayout(screen, win, checks)!.areas.map((a) => [a.area, a]))
  expect([by.screen!.tell, by.available!.tell, by.window!.tell, by.viewport!.tell]).toEqual([null, 'warn', 'fail', 'fail'])
  expect(by.window!.tells).toEqual(['Window has browser chrome'])
})

test('a page larger than its window is drawn sticking out of it (the injectors’ page-in-window)', () => {
  const l = screenLayout({ width: 1536, height: 864, availWidth: 1536, availHeight: 816 }, { screenX: 10, screenY: 10, innerWidth: 1536, outerWidth: 1536, innerHeight: 864, outerHeight: 816, devicePixelRatio: 1.25 }, [])!
  const vp = l.areas.find((a) => a.area === 'viewport')!
  expect(vp.rect.y).toBe(10 + 816 - 864)
  expect(l.box.y).toBeLessThan(vp.rect.y)
})

test('no picture without a screen size; no window or viewport when they were not measured', () => {
  expect(screenLayout({ width: 0, height: 0, availWidth: 0, availHeight: 0 }, win, [])).toBeNull()
  expect(screenLayout(screen, null, [])!.areas.map((a) => a.area)).toEqual(['screen', 'available'])
  expect(screenLayout(screen, { ...win, outerWidth: 0, outerHeight: 0 }, [])!.areas.map((a) => a.area)).toEqual(['screen', 'available', 'viewport'])
})
