// navigator.plugins since Chrome 94 / Firefox 99 / Safari 16: the same fixed list of five PDF
// viewers when the PDF viewer is on, none when off, in real PluginArray/MimeTypeArray objects.
// Stealth scripts that fake the list build plain arrays or the wrong count; old headless
// Chromium had none.

import type { BrowserFingerprintSignals } from '../../common/signals/browser-fingerprint'
import { checkOn } from './define'
import { pageClaim } from './navigator-claims'
import { pageEngine } from './page-engine'

export const fpPlugins = checkOn<BrowserFingerprintSignals>()({
  id: 'fp-plugins',
  name: 'Plugins are consistent',
  found: 'plugins are inconsistent',
  source: 'client',
  why: 'Modern desktop browsers expose exactly the five standard PDF viewer entries when their PDF viewer is on (pdfViewerEnabled) and none when it is off; the list must be a real PluginArray. Fake lists built by stealth scripts break these rules. Mobile browsers have none.',
  ref: 'https://html.spec.whatwg.org/multipage/system-state.html#pdf-viewing-support',
  needs: ['plugins'],
  uses: ['navigator', 'engine'],
  judge: ({ plugins: { value: pl }, navigator, engine: e }, { server }) => {
    const ua = pageClaim(navigator, server)
    const { engine, basis } = pageEngine(e)
    const problems: string[] = []
    if (!pl.nativePrototypes) problems.push('plugins or mimeTypes is not a native PluginArray/MimeTypeArray')
    if (pl.pdfViewerEnabled === true && pl.plugins.length !== 5) problems.push(`pdfViewerEnabled with ${pl.plugins.length} plugins (the standard list has 5)`)
    if (pl.pdfViewerEnabled === false && pl.plugins.length > 0) problems.push(`pdfViewerEnabled false with ${pl.plugins.length} plugins`)
    // Old headless Chromium listed none: judged on V8 (told by its error messages), not by the user agent.
    const emptyDesktop = pl.plugins.length === 0 && !ua.mobile && engine === 'blink' && pl.pdfViewerEnabled !== false
    const verdict = !pl.nativePrototypes || problems.length > 1 ? 'fail' : problems.length || emptyDesktop ? 'warn' : 'pass'
    if (emptyDesktop) problems.push('no plugins on a desktop V8 (Blink) engine (old headless mode)')
    return {
      verdict,
      observed: problems.length ? problems.join('; ') : { plugins: pl.plugins.map((p) => p.name), pdfViewerEnabled: pl.pdfViewerEnabled },
      expected: `five PDF viewers with pdfViewerEnabled, none without, in native PluginArray objects (an empty list is judged on V8 only; ${basis})`,
    }
  },
})
