// navigator.maxTouchPoints against touch events and the primary pointer. Device emulation
// (DevTools, Playwright's hasTouch) often sets touch points on a desktop that keeps its fine,
// hovering mouse and no touch events.
// https://developer.mozilla.org/docs/Web/API/Navigator/maxTouchPoints

import type { ScreenDisplaySignals } from '../../common/signals/screen-display'
import { checkOn } from './define'

export const touchConsistency = checkOn<ScreenDisplaySignals>()({
  id: 'touch-consistency',
  name: 'Touch support is consistent',
  source: 'client',
  why: 'maxTouchPoints > 0 with a fine, hovering primary pointer and no touch events is a common emulation mistake; convertible laptops are the known false positive, so it only warns.',
  needs: ['touch', 'media'],
  judge: ({ touch, media }) => ({
    verdict: touch.maxTouchPoints > 0 && !touch.touchEvent && media.pointer === 'fine' && media.hover === 'hover' ? 'warn' : 'pass',
    observed: { ...touch, pointer: media.pointer, hover: media.hover },
    expected: 'touch points only with touch events or a coarse pointer',
  }),
})
