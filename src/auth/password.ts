// Password hashing: argon2id through Bun.password, with OWASP's first recommended setting
// (19 MiB, 2 iterations, 1 lane): slow enough to make offline guessing expensive, small enough
// that a burst of log-ins does not exhaust memory. The PHC string records the parameters, so
// hashes made with other settings still verify.
// https://cheatsheetseries.owasp.org/cheatsheets/Password_Storage_Cheat_Sheet.html#argon2id

export const ARGON2ID = { algorithm: 'argon2id', memoryCost: 19_456, timeCost: 2 } as const

export function hashPassword(password: string): Promise<string> {
  return Bun.password.hash(password, ARGON2ID)
}

let dummy: Promise<string> | undefined

/**
 * Checks a password against a stored hash. With no hash (no such account, or an account an
 * operator made that never set a password), a dummy hash is checked instead and the answer is
 * false: the same work either way, so the time taken does not tell whether the email exists.
 */
export async function verifyPassword(password: string, hash: string | null): Promise<boolean> {
  if (hash === null) {
    dummy ??= hashPassword('not a password: equalises the time of unknown-email log-ins')
    await Bun.password.verify(password, await dummy)
    return false
  }
  try {
    return await Bun.password.verify(password, hash)
  } catch {
    // A corrupt stored hash is a failed log-in, not a crash; it cannot match any password.
    return false
  }
}
