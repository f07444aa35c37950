// navigator.maxTouchPoints against touch events and the primary pointer. Device emulation
// (DevTools, Playwright's hasTouch) often sets touch points on a desktop that keeps its fine,
// hovering mouse and no touch events. Gecko's resistFingerprinting reports a per-platform constant
// instead (5 on Linux, 10 on Windows, 0 on macOS: nsRFPService.h SPOOFED_MAX_TOUCH_POINTS), which
// is not judged (screen-anti-fingerprinting.ts tells it).
// https://developer.mozilla.org/docs/Web/API/Navigator/maxTouchPoints

import type { ScreenDisplaySignals } from '../../common/signals/screen-display'
import { checkOn, na } from './define'
import { pageEngine } from './page-engine'
import { maskedReason, screenMasking } from './screen-anti-fingerprinting'

export const touchConsistency = checkOn<ScreenDisplaySignals>()({
  id: 'touch-consistency',
  name: 'Touch support is consistent',
  found: 'touch support is inconsistent',
  source: 'client',
  why: "maxTouchPoints > 0 with a fine, hovering primary pointer and no touch events is a common emulation mistake; convertible laptops are the known false positive, so it only warns. Gecko's resistFingerprinting reports a constant for the platform (5 on Linux, 10 on Windows), so under it (told by SpiderMonkey's error messages and its screen sizes, screen-anti-fingerprinting) this is not judged.",
  ref: 'https://searchfox.org/mozilla-central/source/toolkit/components/resistfingerprinting/nsRFPService.h',
  needs: ['touch', 'media'],
  uses: ['screen', 'window', 'engine'],
  judge: ({ touch, media, screen: scr, window: win, engine }) => {
    const m = scr && win ? screenMasking(engine, scr, win) : undefined
    if (m?.resisting) return na(maskedReason(`reports a constant maxTouchPoints for the platform (${touch.maxTouchPoints})`, m))
    return {
      verdict: touch.maxTouchPoints > 0 && !touch.touchEvent && media.pointer === 'fine' && media.hover === 'hover' ? 'warn' : 'pass',
      observed: { ...touch, pointer: media.pointer, hover: media.hover },
      expected: `touch points only with touch events or a coarse pointer; ${(m ?? pageEngine(engine)).basis}`,
    }
  },
})
