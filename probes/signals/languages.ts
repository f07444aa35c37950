// The preferred languages as the page sees them; the first one should equal
// navigator.language and the first tag of the Accept-Language header.
export function languages() {
  return { language: navigator.language, languages: Array.from(navigator.languages ?? []) }
}
