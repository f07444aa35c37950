// Tells of a patched iframe: puppeteer-extra-plugin-stealth's `iframe.contentWindow` evasion
// hooks srcdoc iframes and returns a Proxy of the window so that `contentWindow.chrome` exists
// in headless mode. A Proxy is not the WindowProxy the browser hands out elsewhere
// (`window[i]`), its `self` is the real window rather than itself, and the getter on
// HTMLIFrameElement.prototype is no longer native code. Old headless Chromium also had no
// `chrome` object inside iframes while it had one (mocked) in the page.

import type { IframeProxy } from '../../common/signals/bot-detector'
import { isNativeFunction } from './native'

export async function iframeProxy(): Promise<IframeProxy> {
  const f = document.createElement('iframe')
  f.srcdoc = '<!doctype html><title>probe</title>'
  f.style.cssText = 'position:absolute;width:1px;height:1px;left:-9999px;border:0'
  f.setAttribute('aria-hidden', 'true')
  f.tabIndex = -1
  const loaded = new Promise((r) => (f.onload = r))
  document.body.appendChild(f)
  try {
    await loaded
    const w = f.contentWindow as (Window & { chrome?: unknown }) | null
    const d = Object.getOwnPropertyDescriptor(HTMLIFrameElement.prototype, 'contentWindow')
    const index = Array.prototype.indexOf.call(document.querySelectorAll('iframe'), f)
    return {
      sameAsFrames: !!w && w === window[index],
      selfIsWindow: !!w && w.self === w,
      getterNative: isNativeFunction(d?.get, 'contentWindow'),
      chrome: w ? typeof w.chrome : 'no window',
    }
  } finally {
    f.remove()
  }
}
