// The CSS system fonts (`font: caption | icon | menu | message-box | small-caption |
// status-bar`, https://drafts.csswg.org/css-fonts/#font-prop) resolve to the platform's UI font,
// and getComputedStyle shows its family: "Segoe UI" on Windows, "system-ui" or -apple-system on
// Apple systems, and in Chromium on Linux/ChromeOS/Android a hard-coded "Arial"
// (LayoutThemeFontProvider::SystemFont, layout_theme_font_provider_default.cc). A user agent
// string edited to claim another OS rarely edits this too (CreepJS "system styles").

import type { SystemFonts } from '../../common/signals/font-detection'

// Every member of the schema, no more: the object literal fails the type check when they drift.
const KEYWORDS = Object.keys({ caption: 1, icon: 1, menu: 1, 'message-box': 1, 'small-caption': 1, 'status-bar': 1 } satisfies Record<keyof SystemFonts, 1>) as Array<keyof SystemFonts>

export function systemFonts(): SystemFonts {
  const el = document.createElement('div')
  el.style.cssText = 'position:absolute;visibility:hidden'
  document.body.appendChild(el)
  try {
    const out = {} as SystemFonts
    for (const k of KEYWORDS) {
      el.style.font = k
      out[k] = getComputedStyle(el).fontFamily.slice(0, 100)
    }
    return out
  } finally {
    el.remove()
  }
}
