// navigator.plugins: since Chrome 94 / Firefox 99 / Safari 16 desktop browsers list the same
// five PDF viewers when their PDF viewer is on, none when off.
// https://html.spec.whatwg.org/multipage/system-state.html#pdf-viewing-support

import type { BotDetectorSignals } from '../../common/signals/bot-detector'
import type { Verdict } from '../core/scoring'
import { claimedBrowser } from './claimed-browser'
import { checkOn } from './define'

export const pluginList = checkOn<BotDetectorSignals>()({
  id: 'plugins',
  name: 'Plugins and MIME types look native',
  found: 'plugins or MIME types are not native',
  source: 'client',
  why: 'Desktop browsers list five PDF viewer plugins when their PDF viewer is on, none when off (pdfViewerEnabled false); old headless listed none while claiming a viewer, and stealth fakes are plain arrays instead of PluginArray/MimeTypeArray. An empty list on a desktop only warns: a person can turn the PDF viewer off.',
  ref: 'https://html.spec.whatwg.org/multipage/system-state.html#pdf-viewing-support',
  needs: ['plugins'],
  uses: ['navigator'],
  judge: ({ plugins: pl, navigator: nav }, { server }) => {
    const { mobile } = claimedBrowser(nav, server)
    const count = pl.plugins.length
    let verdict: Verdict = 'pass'
    if (!pl.nativePrototypes) verdict = 'fail'
    else if (count === 0 && pl.pdfViewerEnabled === true) verdict = 'fail'
    else if (count === 0 && !mobile) verdict = 'warn'
    return {
      verdict,
      observed: `${count} plugins, ${pl.mimeTypes} MIME types, pdfViewerEnabled ${pl.pdfViewerEnabled}, ${pl.nativePrototypes ? 'native' : 'FAKE'} PluginArray/MimeTypeArray`,
      expected: mobile ? 'native PluginArray/MimeTypeArray (mobile browsers list none)' : 'native PluginArray/MimeTypeArray with the PDF viewer plugins',
      labels: pl.nativePrototypes ? [] : ['stealth'],
    }
  },
})
