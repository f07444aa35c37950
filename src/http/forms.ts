// Reading an HTML form post (application/x-www-form-urlencoded, what browsers and htmx send)
// under a small byte cap.

import { HttpError } from '../core/errors'
import { mediaType, readBodyCapped } from './body'

export const MAX_FORM_BYTES = 16 * 1024

export async function readForm(request: Request, what: string): Promise<URLSearchParams> {
  const type = mediaType(request)
  if (type !== 'application/x-www-form-urlencoded') {
    throw new HttpError(415, `${what}: send the form as application/x-www-form-urlencoded, got ${type ? `'${type}'` : 'no Content-Type'}`)
  }
  return new URLSearchParams(await readBodyCapped(request, MAX_FORM_BYTES, what))
}
