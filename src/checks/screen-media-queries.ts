// screen.width and devicePixelRatio against the CSS media queries that read the same values.
// Spoofing them in JavaScript does not change what media queries see, so a mismatch means the
// value was overridden (probes/signals/display-media.ts evaluates the queries).
// https://drafts.csswg.org/mediaqueries-4/#device-width

import type { ScreenDisplaySignals } from '../../common/signals/screen-display'
import { checkOn } from './define'

const mediaCheck = checkOn<ScreenDisplaySignals>()

export const deviceWidthMedia = mediaCheck({
  id: 'device-width-media',
  name: 'screen.width agrees with CSS device-width',
  found: 'screen.width contradicts CSS device-width',
  source: 'client',
  why: 'Spoofing screen.width in JavaScript does not change what CSS media queries see; a mismatch means the value was overridden.',
  ref: 'https://drafts.csswg.org/mediaqueries-4/#device-width',
  needs: ['media', 'screen', 'window'],
  judge: ({ media, screen: scr }) => ({
    verdict: media.deviceWidthMatches && media.deviceHeightMatches ? 'pass' : 'fail',
    observed: { deviceWidthMatches: media.deviceWidthMatches, deviceHeightMatches: media.deviceHeightMatches },
    expected: `(device-width: ${scr.width}px) and (device-height: ${scr.height}px) match`,
  }),
})

export const resolutionMedia = mediaCheck({
  id: 'resolution-media',
  name: 'devicePixelRatio agrees with CSS resolution',
  found: 'devicePixelRatio contradicts CSS resolution',
  source: 'client',
  why: 'Like device-width: a patched devicePixelRatio disagrees with the resolution media query.',
  ref: 'https://drafts.csswg.org/mediaqueries-4/#resolution',
  needs: ['media', 'screen', 'window'],
  judge: ({ media, window: win }) => ({
    verdict: media.resolutionMatches ? 'pass' : 'fail',
    observed: { devicePixelRatio: win.devicePixelRatio, resolutionMatches: media.resolutionMatches },
    expected: `(resolution: ${win.devicePixelRatio}dppx) matches`,
  }),
})
