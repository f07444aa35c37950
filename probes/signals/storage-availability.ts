// Which storage the page may use: cookies (really written and read back, as FingerprintJS
// does: navigator.cookieEnabled lies in some embedded browsers), localStorage,
// sessionStorage, indexedDB and the legacy openDatabase (WebSQL, gone from Chrome 119 pages).
// Touching localStorage throws a SecurityError when storage is blocked, hence the try.
function works(f: () => unknown): boolean {
  try {
    return !!f()
  } catch {
    return false
  }
}

export function storageAvailability() {
  const cookies = works(() => {
    const name = `fp_probe_${Date.now()}`
    // biome-ignore lint/suspicious/noDocumentCookie: the probe asks whether document.cookie can be written; the Cookie Store API is missing in Firefox and Safari.
    document.cookie = `${name}=1; SameSite=Strict`
    const ok = document.cookie.includes(`${name}=1`)
    // biome-ignore lint/suspicious/noDocumentCookie: removes the cookie written above.
    document.cookie = `${name}=1; SameSite=Strict; expires=Thu, 01 Jan 1970 00:00:00 GMT`
    return ok
  })
  return {
    cookieEnabled: navigator.cookieEnabled,
    cookies,
    localStorage: works(() => window.localStorage),
    sessionStorage: works(() => window.sessionStorage),
    indexedDB: works(() => window.indexedDB),
    openDatabase: typeof (window as unknown as { openDatabase?: unknown }).openDatabase === 'function',
  }
}
