// The viewport width and pixel ratio the browser itself sends as client hints (Chromium only,
// after Accept-CH), against what the page's JavaScript reads: a patched window size or
// devicePixelRatio disagrees with the header.
// https://wicg.github.io/responsive-image-client-hints/

import type { ScreenDisplaySignals } from '../../common/signals/screen-display'
import { header } from '../core/tools/observation'
import { checkOn, na } from './define'

const hintCheck = checkOn<ScreenDisplaySignals>()

export const clientHintViewport = hintCheck({
  id: 'client-hint-viewport',
  name: 'Viewport-Width hint agrees with the page',
  found: 'the Viewport-Width hint differs from the page',
  source: 'server',
  why: 'The browser sends Sec-CH-Viewport-Width itself, outside page JavaScript; disagreement with innerWidth shows a patched window size.',
  ref: 'https://wicg.github.io/responsive-image-client-hints/#sec-ch-viewport-width',
  expected: 'equal',
  needs: [],
  uses: ['window'],
  judge: ({ window: win }, { server }) => {
    const vw = header(server, 'sec-ch-viewport-width')
    if (vw === undefined || !win) return na('the browser sent no Sec-CH-Viewport-Width (only Chromium sends it, and only after Accept-CH)')
    return { verdict: Math.abs(Number(vw) - win.innerWidth) <= 1 ? 'pass' : 'fail', observed: { 'sec-ch-viewport-width': vw, innerWidth: win.innerWidth } }
  },
})

export const clientHintDpr = hintCheck({
  id: 'client-hint-dpr',
  name: 'DPR hint agrees with the page',
  found: 'the DPR hint differs from the page',
  source: 'server',
  why: 'Sec-CH-DPR is sent by the browser; a different devicePixelRatio in the page means it was overridden.',
  ref: 'https://wicg.github.io/responsive-image-client-hints/#sec-ch-dpr',
  expected: 'equal',
  needs: [],
  uses: ['window'],
  judge: ({ window: win }, { server }) => {
    const dpr = header(server, 'sec-ch-dpr')
    if (dpr === undefined || !win) return na('the browser sent no Sec-CH-DPR (only Chromium sends it, and only after Accept-CH)')
    return { verdict: Math.abs(Number(dpr) - win.devicePixelRatio) < 0.01 ? 'pass' : 'fail', observed: { 'sec-ch-dpr': dpr, devicePixelRatio: win.devicePixelRatio } }
  },
})
