// navigator.plugins and mimeTypes. Since Chrome 94 / Firefox 99 / Safari 16 every desktop
// browser exposes the same fixed list of five PDF viewers when its PDF viewer is on, and an
// empty list when off (https://html.spec.whatwg.org/multipage/system-state.html#pdf-viewing-support);
// old headless Chromium had none. The prototypes must be the real PluginArray/MimeTypeArray:
// stealth plugins that fake the list often build plain arrays.
export function plugins() {
  const n = navigator as Navigator & { pdfViewerEnabled?: boolean }
  const list = Array.from(n.plugins ?? [], (p) => ({ name: p.name, filename: p.filename, mimeTypes: Array.from(p, (m) => m.type) }))
  return {
    plugins: list.slice(0, 32),
    mimeTypes: n.mimeTypes?.length ?? 0,
    pdfViewerEnabled: typeof n.pdfViewerEnabled === 'boolean' ? n.pdfViewerEnabled : null,
    nativePrototypes:
      typeof PluginArray === 'undefined' || (n.plugins instanceof PluginArray && (typeof MimeTypeArray === 'undefined' || n.mimeTypes instanceof MimeTypeArray)),
  }
}
