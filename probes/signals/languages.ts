// The preferred languages as the page sees them; the first one should equal
// navigator.language and the first tag of the Accept-Language header.

import type { Languages } from '../../common/signals/shared'

export function languages(): Languages {
  return { language: navigator.language, languages: Array.from(navigator.languages ?? []) }
}
