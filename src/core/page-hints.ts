// The client hints a tool page asks Chromium for (Accept-CH), and those it names critical
// (Critical-CH): a Chromium that loads the page without the critical ones restarts the
// navigation at once with every hint the page asked for, on the same connection. The
// restarted request writes its hints after Accept instead of before User-Agent
// (src/core/header-order.ts), so the header-order checks need to know which hints trigger it.

/** Asked for with Accept-CH on every tool page: the hints the tools compare with what the page reports. */
export const ACCEPT_CH_HINTS = [
  'Sec-CH-UA',
  'Sec-CH-UA-Mobile',
  'Sec-CH-UA-Platform',
  'Sec-CH-UA-Platform-Version',
  'Sec-CH-UA-Full-Version-List',
  'Sec-CH-UA-Arch',
  'Sec-CH-UA-Bitness',
  'Sec-CH-UA-Model',
  'Sec-CH-UA-WoW64',
  'Sec-CH-DPR',
  'Sec-CH-Viewport-Width',
  'Sec-CH-Viewport-Height',
  'Sec-CH-Device-Memory',
  'Sec-CH-Prefers-Color-Scheme',
  'Sec-CH-Prefers-Reduced-Motion',
  'DPR',
  'Viewport-Width',
  'Device-Memory',
] as const

/** Named in Critical-CH: without them Chromium restarts the page's navigation. */
export const CRITICAL_CH_HINTS = ['Sec-CH-DPR', 'Sec-CH-Viewport-Width'] as const
