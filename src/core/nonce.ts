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

/**
 * PAGE_NONCE_LIMIT when unset: nonces never used (pages rendered and not run, or still running)
 * one network (an IPv4 address, an IPv6 /64) keeps; each further page load replaces its oldest.
 * A page is run within seconds of loading, so only a network with 50 pages loaded and not yet
 * run at once sees its oldest lose its nonce (db/nonces.ts issueNonce).
 */
export const DEFAULT_PAGE_NONCE_LIMIT = 50
