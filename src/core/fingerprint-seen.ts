// How often a tool's identity hash (browser-fingerprint's visitor id, stored as tasks.fingerprint)
// was stored before: the bounds of the count the service makes over stored tasks, and the shape
// in which the judge receives it (JudgeContext.fingerprintSeen).

/**
 * Only tasks of the last 90 days count: browsers update every four to six weeks and change
 * their fingerprint with it, so an older match says little about today's configuration.
 */
export const SEEN_WINDOW_DAYS = 90

/**
 * At most 1000 matching tasks, and 1000 distinct addresses, are read, so a fingerprint stored a
 * million times costs no more than one seen a thousand times; counts at the cap are "at least".
 * Addresses are counted one by one, not among the newest tasks: one address storing it a
 * thousand times is one address (issue 57).
 */
export const SEEN_CAP = 1000

/**
 * `tasks`: stored tasks sharing the identity (the submitter's own address included);
 * `addresses`: distinct client addresses among them other than the submitter's.
 * `error`: the count could not be made (the check then says so instead of guessing).
 */
export type FingerprintSeen = { tasks: number; addresses: number } | { error: string }
