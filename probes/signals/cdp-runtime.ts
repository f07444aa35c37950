// The Chrome DevTools Protocol's Runtime domain, which Puppeteer, Playwright, Selenium 4's CDP
// bridge and DevTools itself enable, serialises every console call into a
// Runtime.consoleAPICalled event. Serialising an Error formats its stack trace, which V8 does
// lazily on first use by calling Error.prepareStackTrace when a page defined one; older V8 also
// read the `stack` property through its getter. Without a CDP client nothing formats the
// stack, so neither fires.
// https://datadome.co/threat-research/how-new-headless-chrome-the-cdp-signal-are-impacting-bot-detection/
// V8 stopped reading `stack` through the getter in 2025 (the classic test no longer fires);
// the prepareStackTrace hook still does, as deviceandbrowserinfo.com uses it. The `name` and
// `message` getters are read even without CDP (Blink builds a log line for every console
// message), so they prove nothing and are not used.
// Known false positive: a person with DevTools open on this page.

import type { CdpRuntime } from '../../common/signals/bot-detector'

export function cdpRuntime(): CdpRuntime {
  const seen = { prepareStackTrace: false, stackGetter: false }
  const E = Error as ErrorConstructor & { prepareStackTrace?: unknown }
  const saved = Object.getOwnPropertyDescriptor(E, 'prepareStackTrace')
  try {
    E.prepareStackTrace = () => {
      seen.prepareStackTrace = true
      return ''
    }
    console.debug(new Error('bot-detector: CDP probe'))
  } finally {
    if (saved) Object.defineProperty(E, 'prepareStackTrace', saved)
    else Reflect.deleteProperty(E, 'prepareStackTrace')
  }
  const e = new Error('bot-detector: CDP probe')
  Object.defineProperty(e, 'stack', {
    configurable: false,
    get() {
      seen.stackGetter = true
      return ''
    },
  })
  console.debug(e)
  return seen
}
