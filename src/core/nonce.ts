// Page nonces: 26 characters of lower-case base32 (130 random bits). Lower case and digits
// only, so a nonce is also a valid DNS label (dns-leak looks up `<nonce>-<n>.<zone>`) and a
// valid TURN username.

import type { RandomBytes } from './keys'

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567'
export const NONCE_LENGTH = 26
const NONCE_PATTERN = /^[a-z2-7]{26}$/

export function generateNonce(random: RandomBytes): string {
  // 32 divides 256, so `byte % 32` is uniform.
  return Array.from(random(NONCE_LENGTH), (b) => ALPHABET[b % 32]).join('')
}

export function isNonce(value: unknown): value is string {
  return typeof value === 'string' && NONCE_PATTERN.test(value)
}

/** How long a page may take between render and submission. */
export const NONCE_TTL_SECONDS = 15 * 60
