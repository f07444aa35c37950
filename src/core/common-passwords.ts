// Passwords attackers try first. A new password (sign-up is the only way one is set) must not be
// one of them: a throttle slows guessing down, but a list of the most used passwords gets through
// 10 guesses per 15 minutes on someone (NIST SP 800-63B 3.1.1.2: check new passwords against
// "passwords obtained from previous breach corpuses" and "commonly-used passwords").
//
// The list is the one zxcvbn ranks passwords with: the 49,233 most frequent passwords of Mark
// Burnett's ten-million-password corpus, all lower case, shipped as data by the npm package
// @zxcvbn-ts/language-common (MIT; its NOTICE.md names the source), pinned in package.json. Of
// them, 17,950 have 8 characters or more, which is what can reach this check. A password is
// refused when its lower-case form is on the list, so `Password` and `PASSWORD1` go too.
// The list is read on the first check (about 0.5 MB), not at import.

import { createRequire } from 'node:module'

const LIST = '@zxcvbn-ts/language-common/src/passwords.json'

let common: ReadonlySet<string> | undefined

function commonPasswords(): ReadonlySet<string> {
  if (!common) {
    const list: unknown = createRequire(import.meta.url)(LIST)
    if (!Array.isArray(list) || list.length < 10_000 || !list.every((p) => typeof p === 'string')) throw new Error(`Cannot check passwords: ${LIST} is not the list of common passwords it should be`)
    common = new Set(list as string[])
  }
  return common
}

/** Whether a password is on the list of common passwords (compared in lower case). */
export function isCommonPassword(password: string): boolean {
  return commonPasswords().has(password.toLowerCase())
}

/** How many passwords the list holds, for the docs and the tests. */
export function commonPasswordCount(): number {
  return commonPasswords().size
}
