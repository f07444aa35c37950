// The CSS system fonts (`font: caption | icon | menu | message-box | small-caption |
// status-bar`, https://drafts.csswg.org/css-fonts/#font-prop) resolve to the platform's UI font,
// and getComputedStyle shows its family: "Segoe UI" on Windows, "system-ui" or -apple-system on
// Apple systems, and in Chromium on Linux/ChromeOS/Android a hard-coded "Arial"
// (LayoutThemeFontProvider::SystemFont, layout_theme_font_provider_default.cc). A user agent
// string edited to claim another OS rarely edits this too (CreepJS "system styles").

const KEYWORDS = ['caption', 'icon', 'menu', 'message-box', 'small-caption', 'status-bar'] as const

export function systemFonts(): Record<string, string> {
  const el = document.createElement('div')
  el.style.cssText = 'position:absolute;visibility:hidden'
  document.body.appendChild(el)
  try {
    const out: Record<string, string> = {}
    for (const k of KEYWORDS) {
      el.style.font = k
      out[k] = getComputedStyle(el).fontFamily.slice(0, 100)
    }
    return out
  } finally {
    el.remove()
  }
}
