// window.chrome: every Chromium browser tab defines it with native loadTimes/csi; stealth
// plugins mock it (puppeteer-extra-plugin-stealth evasions/chrome.runtime).
// https://github.com/berstend/puppeteer-extra/tree/master/packages/puppeteer-extra-plugin-stealth/evasions/chrome.runtime

import type { BotDetectorSignals } from '../../common/signals/bot-detector'
import { claimedBrowser } from './claimed-browser'
import { checkOn, na } from './define'
import { pageEngine } from './page-engine'

export const chromeObject = checkOn<BotDetectorSignals>()({
  id: 'chrome-object',
  name: 'window.chrome is real',
  found: 'window.chrome is missing or fake',
  source: 'client',
  why: 'Every Chromium browser defines window.chrome with native loadTimes/csi; old headless had none, and stealth plugins add one whose chrome.runtime.sendMessage/connect are JavaScript (not native, constructible). A page on a V8 engine without window.chrome is not a Chromium browser tab (old headless, Electron, jsdom).',
  ref: 'https://github.com/berstend/puppeteer-extra/tree/master/packages/puppeteer-extra-plugin-stealth/evasions/chrome.runtime',
  needs: ['chrome'],
  uses: ['engine', 'navigator'],
  judge: ({ chrome, engine: e, navigator: nav }, { server }) => {
    const { engine, basis } = pageEngine(e)
    if (engine === 'unknown') return na(`the JavaScript engine could not be identified (${basis})`)
    const blink = engine === 'blink' && claimedBrowser(nav, server).engine === 'blink'
    const mocks = Object.entries(chrome.functions)
      .filter(([k, f]) => !f.native || (k.startsWith('runtime.') && f.constructible))
      .map(([k, f]) => `chrome.${k} is ${f.native ? 'constructible' : 'not native code'}`)
    const problems = [...mocks]
    if (blink && !chrome.present) problems.push('window.chrome is missing on a Chromium engine')
    return {
      verdict: problems.length ? 'fail' : 'pass',
      observed: problems.length ? problems : chrome.present ? `window.chrome with ${chrome.keys.join(', ') || 'no keys'}` : 'no window.chrome',
      expected: `${blink ? 'window.chrome with native functions' : 'no mock of window.chrome'} (${basis}${engine === 'blink' && !blink ? '; the user agent claims no Chromium, so a missing window.chrome is not judged' : ''})`,
      labels: mocks.length ? ['stealth'] : [],
    }
  },
})
