// Headless without its name: what a renderer with no input devices and no display does,
// whatever the User-Agent says (probes/signals/pointer-media.ts, animation-frames.ts).
// https://drafts.csswg.org/mediaqueries-4/#any-input

import type { ClaimedBrowser, Os } from '../../common/user-agent'
import type { BotDetectorSignals } from '../../common/signals/bot-detector'
import type { ServerObservation } from '../core/tools/observation'
import { claimedBrowser, pageUserAgent } from './claimed-browser'
import { checkOn, na, type SignalValues } from './define'

type V = SignalValues<BotDetectorSignals>
const botCheck = checkOn<BotDetectorSignals>()

/** User agents of TVs and streaming sticks, which may have no pointing device. */
const TV_UA = /SmartTV|SMART-TV|Tizen|Web0S|webOS|HbbTV|CrKey|BRAVIA|NetCast|AFT[A-Z]|Roku|PlayStation|Xbox|Nintendo|\bTV\b/i

/** A desktop user agent (not a phone, tablet or TV): one that comes with a pointing device. */
export function isDesktop(nav: V['navigator'] | undefined, server: Pick<ServerObservation, 'userAgent'>): boolean {
  const claimed = claimedBrowser(nav, server)
  return !claimed.mobile && (['windows', 'mac', 'linux', 'chromeos'] as Os[]).includes(claimed.os) && !TV_UA.test(pageUserAgent(nav, server))
}

/**
 * A desktop whose any-pointer and any-hover both say none: no input device at all. Both must
 * say none: browsers without these media features match none of the values.
 */
export function pointerless(pointer: V['pointer'] | undefined, nav: V['navigator'] | undefined, server: Pick<ServerObservation, 'userAgent'>): boolean {
  return !!pointer && isDesktop(nav, server) && pointer.anyPointer.join() === 'none' && pointer.anyHover.join() === 'none'
}

const notDesktop = (claimed: ClaimedBrowser) => `not a desktop user agent (${claimed.os}${claimed.mobile ? ', mobile' : ''})`

export const pointingDevice = botCheck({
  id: 'pointing-device',
  name: 'A desktop browser has a pointing device',
  found: 'a desktop browser with no pointing device',
  source: 'client',
  why: 'CSS any-pointer and any-hover report the input devices the OS lists: a mouse or touchpad (fine, hover) or a touchscreen (coarse). Headless Chromium has none, so on a desktop user agent both say none. Known false positives: a desktop with no mouse, touchpad or touchscreen attached at all (keyboard-only kiosks), so it is not decisive; TV and streaming-stick user agents are not judged. Playwright hides it by faking a mouse with --blink-settings.',
  ref: 'https://drafts.csswg.org/mediaqueries-4/#any-input',
  needs: ['pointer'],
  uses: ['navigator'],
  judge: ({ pointer: pm, navigator: nav }, { server }) => {
    if (!isDesktop(nav, server)) return na(notDesktop(claimedBrowser(nav, server)))
    const none = pointerless(pm, nav, server)
    return {
      verdict: none ? 'fail' : 'pass',
      observed: `any-pointer: ${pm.anyPointer.join(', ') || '(no match)'}; any-hover: ${pm.anyHover.join(', ') || '(no match)'}`,
      expected: 'a fine or coarse pointer on a desktop',
      labels: none ? ['headless'] : [],
    }
  },
})

export const headlessScreen = botCheck({
  id: 'headless-screen',
  name: "Not headless Chromium's virtual display",
  found: 'headless Chromium\'s virtual display',
  source: 'client',
  why: 'Headless Chromium (--headless, also without a driver: --dump-dom, --screenshot) renders on a virtual 800×600 screen with no taskbar and no input devices, whatever --window-size says, unless the client also passes --screen-info. An 800×600 screen alone happens to people (virtual machines without display drivers) and only warns (default-viewport); with no pointing device as well it is that virtual display.',
  needs: ['screen', 'pointer'],
  uses: ['navigator'],
  judge: ({ screen: scr, pointer: pm, navigator: nav }, { server }) => {
    if (!isDesktop(nav, server)) return na(notDesktop(claimedBrowser(nav, server)))
    // Chromium's headless screen default: ui/ozone/platform/headless (--screen-info overrides it).
    const virtual = scr.width === 800 && scr.height === 600 && scr.availWidth === 800 && scr.availHeight === 600
    const none = pointerless(pm, nav, server)
    return {
      verdict: virtual && none ? 'fail' : 'pass',
      observed: `screen ${scr.width}×${scr.height} (available ${scr.availWidth}×${scr.availHeight}), ${none ? 'no pointing device' : 'a pointing device'}`,
      expected: 'not an 800×600 screen without a taskbar and without a pointing device',
    }
  },
})

const framesText = (f: V['frames']) =>
  `${f.frames} animation frames in ${f.waitedMs} ms (first after ${f.firstFrameMs ?? '—'} ms) while ${f.ticks} timer ticks ran, at most ${f.maxTicksWithoutFrame} in a row without a frame`
const DRAWN = 'a frame every few timer ticks once the page is drawn'

export const animationFrames = botCheck({
  id: 'animation-frames',
  name: 'The visible page is drawn',
  found: 'the page is not drawn (no animation frames)',
  source: 'client',
  why: "A visible page is drawn at the display's rate and runs its requestAnimationFrame callbacks before every frame. Headless Chromium run without a driver (--dump-dom, --screenshot or --print-to-pdf with --virtual-time-budget, which fast-forwards the clock) draws while loading and then about once per virtual second, and renderers whose frames a tool issues itself draw only on request, while their timers keep firing: the page waits up to 2.5 s for steady drawing (10 frames in a row, each within 100 ms of the last). It needs no User-Agent, so it holds when the client rewrites that. Hidden tabs, minimised windows and prerendered pages get no frames by design, so only a page that stayed visible is judged; a main thread too busy to run its timers proves nothing; and since a browser started with the page draws nothing while its window opens (up to 1.5 s measured), a page that is not drawn fails only when it also has no pointing device.",
  ref: 'https://html.spec.whatwg.org/multipage/imagebitmap-and-animations.html#animation-frames',
  needs: ['frames'],
  uses: ['pointer', 'navigator'],
  judge: ({ frames: fr, pointer, navigator: nav }, { server }) => {
    if (!fr.visible) return na('the page was hidden (background tab, minimised window, prerendering), where browsers draw nothing')
    if (fr.steadyAtMs !== null) return { verdict: 'pass', observed: `drawn steadily after ${fr.steadyAtMs} ms (${fr.frames} frames)`, expected: DRAWN }
    // Virtual time runs fewer ticks than its clock says (36 in 2.5 s measured): 25 is plenty.
    if (fr.ticks < 25) return na(`the main thread was too busy to tell: ${framesText(fr)}`)
    // A browser whose window is still opening also draws late: only a page that is never drawn
    // AND has no input devices is judged (a desktop without a mouse or touchpad still draws).
    if (!pointerless(pointer, nav, server)) return na(`not drawn steadily, but a window that is still opening does that too, so it is judged only with no pointing device: ${framesText(fr)}`)
    return { verdict: 'fail', observed: framesText(fr), expected: DRAWN, labels: ['headless'] }
  },
})
