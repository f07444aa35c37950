// What people type into the dashboard's forms, checked before anything touches the database.
// Each failure is a value naming the field and saying what is wrong, shown next to the input.

import type { Plan } from './quota'
import { isCommonPassword } from './common-passwords'
import { readTimestampInput } from './time-input'

export const PASSWORD_MIN = 8
export const PASSWORD_MAX = 256
export const EMAIL_MAX = 254
export const KEY_NAME_MAX = 100
export const DEFAULT_KEY_NAME = 'default'
/** MAX_KEYS_PER_ACCOUNT when unset: keys an account may create for itself. */
export const DEFAULT_MAX_KEYS_PER_ACCOUNT = 20

const EMAIL = /^[^@\s]+@[^@\s]+$/
// C0 and C1 control characters, DEL, and the Unicode line and paragraph separators.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is this pattern's purpose.
export const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/

export type FieldErrors<F extends string> = Partial<Record<F, string>>
export type Checked<T, F extends string> = { ok: true; value: T } | { ok: false; errors: FieldErrors<F> }

/** Emails are compared lower-cased, as db/accounts.ts stores them. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase()
}

export interface Credentials {
  email: string
  password: string
}

/**
 * Text a person could not have meant: control characters, and U+FFFD, which is what a byte
 * that is not UTF-8 (`%FF` in a form) turns into. Lone surrogates cannot come out of a form,
 * but are refused too, so nothing unstorable reaches the database.
 */
function unreadable(text: string): boolean {
  return CONTROL.test(text) || text.includes('\ufffd') || !text.isWellFormed()
}

const EMAIL_EXAMPLE = 'Enter an email address such as name@example.com.'

/** The email of both forms: present, at most 254 characters, one `@`, nothing unreadable. */
function emailError(email: string): string | undefined {
  if (email === '') return 'Enter your email address.'
  if (email.length > EMAIL_MAX) return `${EMAIL_EXAMPLE.slice(0, -1)}, of at most ${EMAIL_MAX} characters.`
  if (!EMAIL.test(email) || unreadable(email)) return EMAIL_EXAMPLE
  return undefined
}

/**
 * Sign-up: a plausible email and a password of 8 to 256 characters, all of it readable text,
 * and not one of the common passwords (src/core/common-passwords.ts).
 */
export function checkSignup(input: { email?: string | null; password?: string | null }): Checked<Credentials, 'email' | 'password'> {
  const errors: FieldErrors<'email' | 'password'> = {}
  const email = normalizeEmail(input.email ?? '')
  const password = input.password ?? ''
  const badEmail = emailError(email)
  if (badEmail) errors.email = badEmail
  if (password.length < PASSWORD_MIN) errors.password = `Choose a password of at least ${PASSWORD_MIN} characters.`
  else if (password.length > PASSWORD_MAX) errors.password = `Choose a password of at most ${PASSWORD_MAX} characters.`
  else if (unreadable(password)) errors.password = 'Choose a password without control characters (such as tabs or line breaks) or bytes that are not UTF-8.'
  else if (isCommonPassword(password)) errors.password = COMMON_PASSWORD
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, value: { email, password } }
}

/** Why a common password is refused, and what to do instead. */
export const COMMON_PASSWORD =
  'Choose another password: this one is among the most common passwords, which are the first ones tried when an account is attacked. A few unrelated words make a strong one.'

/**
 * Log-in: an email that could belong to an account (the sign-up rules, so no account is shut
 * out) and a password of at most 256 characters. Nothing else is said about them, so nothing
 * leaks; the password's content is not checked, so accounts made before a rule still log in.
 */
export function checkLogin(input: { email?: string | null; password?: string | null }): Checked<Credentials, 'email' | 'password'> {
  const errors: FieldErrors<'email' | 'password'> = {}
  const email = normalizeEmail(input.email ?? '')
  const password = input.password ?? ''
  const badEmail = emailError(email)
  if (badEmail) errors.email = badEmail
  if (password === '') errors.password = 'Enter your password.'
  // Longer than any password we accept: refuse without hashing megabytes.
  else if (password.length > PASSWORD_MAX) errors.password = `A password has at most ${PASSWORD_MAX} characters.`
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, value: { email, password } }
}

/**
 * An expiry typed into a date field: empty means never; otherwise a date (the key stops
 * working at 00:00 UTC that day) or an ISO 8601 timestamp, which must be in the future.
 */
export function checkExpiry(input: string | null | undefined, now: Date): { ok: true; value: Date | null } | { ok: false; error: string } {
  const text = (input ?? '').trim()
  if (text === '') return { ok: true, value: null }
  const at = readTimestampInput(text)
  if (!at.ok && at.reason === 'format') return { ok: false, error: 'Enter a date such as 2027-01-31, or leave it empty for no expiry.' }
  if (!at.ok && at.reason === 'too_late') return { ok: false, error: 'Choose a date no later than 9999-12-31 (UTC), or leave it empty for no expiry.' }
  if (!at.ok || at.value.getTime() <= now.getTime()) return { ok: false, error: 'Choose a date in the future, or leave it empty for no expiry.' }
  return { ok: true, value: at.value }
}

export interface KeyInput {
  name: string
  plan: Pick<Plan, 'id' | 'name'>
  expiresAt: Date | null
}

/** The create-key form: an optional name, one of the plans, an optional expiry. */
export function checkKeyInput(
  input: { name?: string | null; plan?: string | null; expires?: string | null },
  plans: ReadonlyArray<Pick<Plan, 'id' | 'name'>>,
  now: Date,
): Checked<KeyInput, 'name' | 'plan' | 'expires'> {
  const errors: FieldErrors<'name' | 'plan' | 'expires'> = {}
  const name = (input.name ?? '').trim() || DEFAULT_KEY_NAME
  if (name.length > KEY_NAME_MAX) errors.name = `Use at most ${KEY_NAME_MAX} characters.`
  else if (CONTROL.test(name) || !name.isWellFormed()) errors.name = 'Use letters, digits, spaces and punctuation only.'
  // `plans` are the ones an account may choose (self-serve); any other name, an operator's
  // plan included, is refused like one that does not exist.
  const plan = plans.find((p) => p.name === (input.plan ?? '').trim())
  if (!plan) errors.plan = plans.length ? `Choose one of the plans: ${plans.map((p) => p.name).join(', ')}.` : 'No plan is open for new keys; ask the operator of this service.'
  const expiry = checkExpiry(input.expires, now)
  if (!expiry.ok) errors.expires = expiry.error
  if (Object.keys(errors).length || !plan || !expiry.ok) return { ok: false, errors }
  return { ok: true, value: { name, plan, expiresAt: expiry.value } }
}
