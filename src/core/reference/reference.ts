// The reference population of the uniqueness figures (issue 59; docs/uniqueness.md): each
// attribute's share among real browsers, from a shipped, versioned dataset, so that a new
// instance answers "how identifying is this?" from the first visit. Pure: the tables come in as
// an argument (population.json, built by src/cli/reference-data.ts from fingerprint-generator's
// Bayesian network and committed; src/http/uniqueness-count.ts reads it once).
//
// The network's every node we use hangs off the User-Agent alone, so within a browser family and
// system ("chrome/windows") its attributes are modelled as independent; the tables are per group,
// and a whole combination's share is the mixture Σ_g P(g)·Π P(value | g) over the groups. Values
// a node gives together (the screen's size, area, depth, pixel ratio and HDR; the GPU's vendor
// and renderer) have a joint table, used when all of them were read.

import { hashHex } from '../../../common/hash'

/** Names of a joint table: its attributes' names joined; its keys: the hash of their hashes joined (jointKey). */
export const JOINT_SEPARATOR = '+'
/** The group every user agent belongs to: the attribute's share among all the dataset's browsers. */
export const ALL = '*'

/** A joint table's key for these attribute hashes, in the joint's order. */
export const jointKey = (hashes: readonly string[]): string => hashHex(hashes.join(JOINT_SEPARATOR))

/** One distribution: a value's hash → its share; `other` is the share of the values not listed. */
export interface ReferenceTable {
  values: Record<string, number>
  other: number
}

export interface ReferenceDataset {
  name: string
  version: string
  license: string
  what: string
  url: string
  /** The network file's date (its zip entry). */
  date: string
  /** The real browsers' fingerprints the network was learned from. */
  fingerprints: number
  /** Each table lists the values covering this share of its mass; the rest is `other`. */
  coverage: number
}

/** population.json: per tool, per attribute (or joint), per group, a table. */
export interface ReferenceData {
  dataset: ReferenceDataset
  /** P(group) per browser family and system; ALL is 1. */
  groups: Record<string, number>
  tables: Record<string, Record<string, Record<string, ReferenceTable>>>
}

/** The slice one tool reads. */
export interface ToolReference {
  dataset: ReferenceDataset
  groups: Record<string, number>
  tables: Record<string, Record<string, ReferenceTable>>
}

export function toolReference(data: ReferenceData | null | undefined, tool: string): ToolReference | null {
  const tables = data?.tables[tool]
  return data && tables ? { dataset: data.dataset, groups: data.groups, tables } : null
}

/** A value's share in the reference; `listed` false: not among the listed values, `share` is then an upper bound. */
export interface ReferenceShare {
  share: number
  listed: boolean
}

/**
 * A value's share in one group's table. A value the table does not list has at most the
 * table's `other` share, and is given at least one of the group's fingerprints (a value the
 * dataset never saw is not impossible, only rarer than its sample can tell).
 */
function shareIn(t: ReferenceTable | undefined, hash: string, groupFingerprints: number): ReferenceShare {
  const listed = t?.values[hash]
  if (listed !== undefined) return { share: listed, listed: true }
  return { share: Math.min(1, Math.max(t?.other ?? 0, 1 / Math.max(groupFingerprints, 1))), listed: false }
}

/** An attribute's share among all the dataset's browsers; null when the dataset lacks the attribute. */
export function attributeShare(ref: ToolReference, name: string, hash: string): ReferenceShare | null {
  const byGroup = ref.tables[name]
  if (!byGroup) return null
  return shareIn(byGroup[ALL], hash, ref.dataset.fingerprints)
}

/**
 * The share of browsers with every one of these values, of those the dataset has: the mixture
 * over browser families and systems, each group's values independent but a node's joint table
 * used where all its attributes were read. `covered`: the attributes it covers (null: none).
 * Independence within a group overstates how rare a combination is.
 */
export function combinationShare(ref: ToolReference, attributes: readonly { name: string; hash: string }[]): (ReferenceShare & { covered: string[] }) | null {
  const byName = new Map(attributes.map((a) => [a.name, a.hash]))
  const units: { name: string; hash: string }[] = []
  const used = new Set<string>()
  for (const name of Object.keys(ref.tables)) {
    if (!name.includes(JOINT_SEPARATOR)) continue
    const parts = name.split(JOINT_SEPARATOR)
    if (!parts.every((p) => byName.has(p))) continue
    units.push({ name, hash: jointKey(parts.map((p) => byName.get(p) as string)) })
    for (const p of parts) used.add(p)
  }
  for (const a of attributes) {
    if (used.has(a.name) || !ref.tables[a.name]) continue
    units.push(a)
    used.add(a.name)
  }
  if (!units.length) return null
  // A value the dataset lists but a group does not: the rest of its share among all browsers
  // (what the listing groups do not hold) spread over the other groups by their `other` share,
  // so that one attribute's mixture is its share among all. A value the dataset does not list
  // at all is given its bound among all browsers in every group: the figure is then a bound.
  const groups = Object.entries(ref.groups).filter(([g, p]) => g !== ALL && p > 0)
  const all = units.map((u) => {
    const byGroup = ref.tables[u.name] ?? {}
    const total = byGroup[ALL]?.values[u.hash]
    if (total === undefined) return { ...u, everywhere: attributeShare(ref, u.name, u.hash)?.share ?? 1, spread: 0 }
    let held = 0
    let room = 0
    for (const [g, p] of groups) {
      const listed = byGroup[g]?.values[u.hash]
      if (listed !== undefined) held += p * listed
      else room += p * (byGroup[g]?.other ?? 0)
    }
    return { ...u, everywhere: undefined, spread: room > 0 ? Math.max(0, total - held) / room : 0 }
  })
  let share = 0
  for (const [group, p] of groups) {
    let product = p
    for (const u of all) {
      const t = ref.tables[u.name]?.[group]
      product *= u.everywhere ?? t?.values[u.hash] ?? Math.min(1, u.spread) * (t?.other ?? 0)
    }
    share += product
  }
  const listed = all.every((u) => u.everywhere === undefined)
  if (!(share > 0)) return { share: Math.min(1, ...all.map((u) => attributeShare(ref, u.name, u.hash)?.share ?? 1)), listed: false, covered: attributes.filter((a) => used.has(a.name)).map((a) => a.name) }
  return { share: Math.min(1, share), listed, covered: attributes.filter((a) => used.has(a.name)).map((a) => a.name) }
}

/** The browser family and system of a User-Agent, as the reference groups them ("chrome/windows"). */
export function browserGroup(userAgent: string): string {
  const ua = userAgent
  const family = /Edg(e|A|iOS)?\//.test(ua)
    ? 'edge'
    : /OPR\//.test(ua)
      ? 'opera'
      : /Firefox\/|FxiOS\//.test(ua)
        ? 'firefox'
        : /Chrome\/|CriOS\//.test(ua)
          ? 'chrome'
          : /Safari\//.test(ua)
            ? 'safari'
            : 'other'
  const system = /Windows/.test(ua)
    ? 'windows'
    : /Android/.test(ua)
      ? 'android'
      : /iPhone|iPad|iPod/.test(ua)
        ? 'ios'
        : /CrOS/.test(ua)
          ? 'chromeos'
          : /Mac OS X/.test(ua)
            ? 'macos'
            : /Linux/.test(ua)
              ? 'linux'
              : 'other'
  return `${family}/${system}`
}
