// Reading an HTML form post (application/x-www-form-urlencoded, what browsers and htmx send)
// under a small byte cap.

import { orThrow, readTyped } from './body'

export const MAX_FORM_BYTES = 16 * 1024

export async function readForm(request: Request, what: string): Promise<URLSearchParams> {
  return new URLSearchParams(orThrow(await readTyped(request, 'application/x-www-form-urlencoded', MAX_FORM_BYTES), what))
}
