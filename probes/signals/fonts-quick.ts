// Installed fonts by a quick metrics probe (the FingerprintJS method, after Lalit Patel's
// http://www.lalit.org/lab/javascript-css-font-detect/): a string set in "<font>, <fallback>"
// has the fallback's size unless <font> exists. Each candidate is measured against the three
// generic families, all spans are laid out in one pass, then read once.
// Brave's font protection reports a session-stable subset; Firefox resistFingerprinting and
// Tor only expose bundled fonts: both show up as a short list, not as an error.

// About seventy families: OS markers (Segoe UI, Helvetica Neue, DejaVu Sans, Roboto, …),
// Office and Adobe fonts, and the common web fonts. The judge infers the OS from them with
// common/font-os.ts; the font-detection page probes a much longer list.
export const QUICK_FONTS = [
  // Windows
  'Segoe UI', 'Segoe UI Emoji', 'Calibri', 'Cambria', 'Consolas', 'Candara', 'Constantia', 'Corbel', 'Franklin Gothic Medium',
  'Gabriola', 'Lucida Console', 'Marlett', 'Sylfaen', 'Leelawadee UI', 'Ebrima', 'Microsoft YaHei', 'Palatino Linotype', 'Bahnschrift',
  // Apple
  'Helvetica Neue', 'Menlo', 'Monaco', 'Geneva', 'Lucida Grande', 'Apple Color Emoji', 'Avenir Next', 'Optima', 'PingFang SC',
  'Apple Chancery', 'American Typewriter', 'Skia', 'Futura', 'Gill Sans', 'Didot',
  // Linux
  'DejaVu Sans', 'DejaVu Serif', 'Liberation Sans', 'Liberation Mono', 'Ubuntu', 'Cantarell', 'FreeSans', 'Nimbus Sans',
  'Bitstream Vera Sans', 'Carlito', 'Noto Sans', 'Noto Color Emoji',
  // Android
  'Roboto', 'sans-serif-thin', 'sans-serif-condensed', 'Droid Sans',
  // Applications and the web core fonts
  'Century Gothic', 'Garamond', 'Bookman Old Style', 'Myriad Pro', 'Minion Pro', 'Source Sans Pro', 'Arial', 'Arial Black',
  'Courier New', 'Georgia', 'Times New Roman', 'Comic Sans MS', 'Impact', 'Trebuchet MS', 'Verdana', 'Tahoma', 'Helvetica',
] as const

const BASES = ['monospace', 'sans-serif', 'serif'] as const
// Wide and narrow glyphs so that fonts with similar widths still differ somewhere.
const TEXT = 'mmMwWLliI0O&1'

export async function quickFonts(): Promise<string[]> {
  const box = document.createElement('div')
  // Out of sight and out of the page's layout, unaffected by the page's CSS.
  box.style.cssText = 'position:absolute;left:-9999px;top:0;visibility:hidden;font-size:48px;font-style:normal;font-weight:normal;letter-spacing:normal;line-height:normal;white-space:nowrap'
  const span = (family: string) => {
    const s = document.createElement('span')
    s.style.fontFamily = family
    s.textContent = TEXT
    box.appendChild(s)
    return s
  }
  const base = BASES.map((b) => span(b))
  const probes = QUICK_FONTS.map((f: string) => BASES.map((b) => span(`'${f}',${b}`)))
  document.body.appendChild(box)
  try {
    const size = base.map((s) => [s.offsetWidth, s.offsetHeight])
    return QUICK_FONTS.filter((_, i) => probes[i]!.some((s, j) => s.offsetWidth !== size[j]![0] || s.offsetHeight !== size[j]![1]))
  } finally {
    box.remove()
  }
}
