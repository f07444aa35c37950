// Tests never skip themselves: a prerequisite the gate installs (tests/gate.sh) or the machine
// kind provides that is missing fails the test, saying what is missing, instead of hiding it.

/** Throws when `missing` names something the test needs; call it first in the test or its beforeAll. */
export function requirePrerequisite(missing: string | null | false | undefined): void {
  if (missing) throw new Error(`missing prerequisite: ${missing}`)
}
