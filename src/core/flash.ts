// A one-time message carried across a 303 redirect in a cookie: a new API key shown to a
// browser without JavaScript (POST → 303 → GET /dashboard). The key must not sit in the
// cookie jar in the clear and must not outlive the page, so it is sealed with AES-256-GCM
// under a key derived from the session token: another session, or anyone without the
// session cookie, cannot open it, and a changed byte makes it unreadable.

import { createCipheriv, createDecipheriv, createHmac } from 'node:crypto'
import type { RandomBytes } from './keys'

const CONTEXT = 'antibot flash v1'
const IV_BYTES = 12
const TAG_BYTES = 16

function keyFor(sessionToken: string): Buffer {
  return createHmac('sha256', sessionToken).update(CONTEXT).digest()
}

export function sealFlash(sessionToken: string, plaintext: string, random: RandomBytes): string {
  const iv = Buffer.from(random(IV_BYTES))
  const cipher = createCipheriv('aes-256-gcm', keyFor(sessionToken), iv)
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()])
  return Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url')
}

/** The plaintext, or null when the value was not sealed for this session or was altered. */
export function openFlash(sessionToken: string, sealed: string): string | null {
  const raw = Buffer.from(sealed, 'base64url')
  if (raw.length < IV_BYTES + TAG_BYTES) return null
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyFor(sessionToken), raw.subarray(0, IV_BYTES))
    decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES))
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)), decipher.final()]).toString('utf8')
  } catch {
    return null
  }
}
