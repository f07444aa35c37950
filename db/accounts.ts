import { eq, sql } from 'drizzle-orm'
import type { Db } from './client'
import { accounts } from './schema'

export interface Account {
  id: string
  email: string
}

/** The account with this email, created when missing. Emails are compared lower-cased. */
export async function ensureAccount(db: Db, email: string): Promise<Account> {
  const normalized = email.trim().toLowerCase()
  const [row] = await db
    .insert(accounts)
    .values({ email: normalized })
    .onConflictDoUpdate({ target: accounts.email, set: { email: sql`excluded.email` } })
    .returning({ id: accounts.id, email: accounts.email })
  return row!
}

export async function getAccountByEmail(db: Db, email: string): Promise<Account | null> {
  const [row] = await db
    .select({ id: accounts.id, email: accounts.email })
    .from(accounts)
    .where(eq(accounts.email, email.trim().toLowerCase()))
  return row ?? null
}

/** A new account with a password; null when the email is already taken (by anyone, signed up or not). */
export async function createAccountWithPassword(db: Db, args: { email: string; passwordHash: string }): Promise<Account | null> {
  const [row] = await db
    .insert(accounts)
    .values({ email: args.email.trim().toLowerCase(), passwordHash: args.passwordHash })
    .onConflictDoNothing({ target: accounts.email })
    .returning({ id: accounts.id, email: accounts.email })
  return row ?? null
}

/** What a log-in needs: the account and its password hash (null when it never set one). */
export async function getLoginAccount(db: Db, email: string): Promise<(Account & { passwordHash: string | null }) | null> {
  const [row] = await db
    .select({ id: accounts.id, email: accounts.email, passwordHash: accounts.passwordHash })
    .from(accounts)
    .where(eq(accounts.email, email.trim().toLowerCase()))
  return row ?? null
}
