// Builds the uniqueness figures' reference population (issue 59; docs/uniqueness.md), run by
// hand after bumping fingerprint-generator, its output committed:
//
//   bun src/cli/reference-data.ts            writes src/core/reference/population.json
//
// fingerprint-generator (Apify, Apache-2.0) ships a Bayesian network learned from real browsers'
// fingerprints (data_files/fingerprint-network-definition.zip). Its root is the User-Agent; every
// node we use (screen, videoCard, maxTouchPoints, hardwareConcurrency, deviceMemory) has the
// User-Agent as its only parent, so the
// exact distribution of a value among a browser family and system is the sum over that group's
// user agents of P(ua)·P(value | ua): no sampling. The network's probabilities are counts over
// 14,192 fingerprints (the root's smallest probability is 1/14192 and each user agent's table has
// the granularity of its own count), which is the sample size written below.
//
// Values are hashed exactly as src/core/uniqueness.ts hashes our attributes (hashValue of the
// shown string or number), so a lookup is a hash-map read. Per table the values that cover
// COVERAGE of the mass are kept and the rest is one "other" share.

import { readFileSync, writeFileSync } from 'node:fs'
import { inflateRawSync } from 'node:zlib'
import { hashValue } from '../../common/hash'
import { browserGroup, JOINT_SEPARATOR, jointKey, type ReferenceData, type ReferenceTable } from '../core/reference/reference'

const COVERAGE = 0.999
const PACKAGE = 'node_modules/fingerprint-generator'
const ZIP = `${PACKAGE}/data_files/fingerprint-network-definition.zip`
const OUT = 'src/core/reference/population.json'

/** The one file of a zip archive (its central directory's first entry, deflated or stored) and the entry's date. */
function unzipOne(zip: Buffer): { text: string; date: string } {
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]))
  if (eocd < 0) throw new Error(`Cannot read ${ZIP}: no zip end record`)
  const cd = zip.readUInt32LE(eocd + 16)
  const method = zip.readUInt16LE(cd + 10)
  const day = zip.readUInt16LE(cd + 14)
  const size = zip.readUInt32LE(cd + 20)
  const local = zip.readUInt32LE(cd + 42)
  const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28)
  const data = zip.subarray(start, start + size)
  const text = (method === 8 ? inflateRawSync(data) : data).toString('utf8')
  const date = `${1980 + (day >> 9)}-${String((day >> 5) & 15).padStart(2, '0')}-${String(day & 31).padStart(2, '0')}`
  return { text, date }
}

interface NetworkNode {
  name: string
  parentNames: string[]
  possibleValues: string[]
  conditionalProbabilities: Record<string, unknown>
}

const MISSING = '*MISSING_VALUE*'
const parse = (v: string): unknown => (v.startsWith('*STRINGIFIED*') ? JSON.parse(v.slice('*STRINGIFIED*'.length)) : v)

/** P(value | ua) of a node whose one parent is the User-Agent (the network's `deeper`/`skip`). */
function given(node: NetworkNode, ua: string): Record<string, number> {
  const cp = node.conditionalProbabilities as { deeper?: Record<string, Record<string, number>>; skip?: Record<string, number> }
  return cp.deeper?.[ua] ?? cp.skip ?? {}
}

/** Our hashes from a node's value (and, for `with`, the second node's; its missing value is null). */
type Mapper = (value: unknown, second?: unknown) => string[] | null

/** Our attributes per tool, each from one network node: the hashes src/core/uniqueness.ts counts. */
const screenParts = ['screen.size', 'screen.available', 'screen.colorDepth', 'devicePixelRatio', 'hdr'] as const
const MAPPING: { tool: string; node: string; with?: string; names: readonly string[]; map: Mapper }[] = [
  {
    tool: 'screen-display',
    node: 'screen',
    names: screenParts,
    map: (v) => {
      const s = v as { width: number; height: number; availWidth: number; availHeight: number; colorDepth: number; devicePixelRatio: number; hasHDR: boolean }
      return [hashValue(`${s.width}×${s.height}`), hashValue(`${s.availWidth}×${s.availHeight}`), hashValue(`${s.colorDepth} bits`), hashValue(s.devicePixelRatio), hashValue(s.hasHDR)]
    },
  },
  { tool: 'screen-display', node: 'maxTouchPoints', names: ['maxTouchPoints'], map: (v) => [hashValue(v)] },
  {
    tool: 'canvas-fingerprint',
    node: 'videoCard',
    names: ['webgl.vendor', 'webgl.renderer'],
    map: (v) => {
      const c = v as { vendor?: string; renderer?: string }
      return c.vendor && c.renderer ? [hashValue(c.vendor), hashValue(c.renderer)] : null
    },
  },
  { tool: 'http-headers', node: 'userAgent', names: ['userAgent'], map: (v) => [hashValue(v)] },
  // browser-fingerprint's `hardware` component is exactly these two (probes/signals/hardware.ts,
  // null where the browser has no deviceMemory: Firefox, Safari); both hang off the User-Agent
  // alone, so their joint per user agent is the product.
  {
    tool: 'browser-fingerprint',
    node: 'hardwareConcurrency',
    with: 'deviceMemory',
    names: ['hardware'],
    map: (hc, dm) => (typeof hc === 'number' ? [hashValue({ hardwareConcurrency: hc, deviceMemory: typeof dm === 'number' ? dm : null })] : null),
  },
]

/** Rounded to 6 significant digits: the table is read to 6 decimals at most. */
const sig = (x: number) => Number(x.toPrecision(6))

function table(mass: Map<string, number>, total: number): ReferenceTable {
  const sorted = [...mass.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
  const values: Record<string, number> = {}
  let kept = 0
  for (const [hash, m] of sorted) {
    if (kept >= COVERAGE * total) break
    values[hash] = sig(m / total)
    kept += m
  }
  // Below a billionth the rest is the float sums' error, not a value.
  const other = 1 - kept / total
  return { values, other: other < 1e-9 ? 0 : sig(other) }
}

function main() {
  const pkg = JSON.parse(readFileSync(`${PACKAGE}/package.json`, 'utf8')) as { version: string; license: string }
  const { text, date } = unzipOne(readFileSync(ZIP))
  const nodes = new Map((JSON.parse(text) as { nodes: NetworkNode[] }).nodes.map((n) => [n.name, n]))
  const root = nodes.get('userAgent')
  if (!root || root.parentNames.length) throw new Error(`Cannot build the reference: ${ZIP} has no root userAgent node`)
  const pUa = root.conditionalProbabilities as Record<string, number>
  const fingerprints = Math.round(1 / Math.min(...Object.values(pUa)))

  const groupsOf = new Map<string, string[]>()
  for (const ua of Object.keys(pUa)) {
    for (const g of ['*', browserGroup(ua)]) groupsOf.set(g, [...(groupsOf.get(g) ?? []), ua])
  }
  const groups: Record<string, number> = {}
  for (const [g, uas] of [...groupsOf.entries()].sort()) groups[g] = sig(uas.reduce((s, ua) => s + (pUa[ua] ?? 0), 0))

  const tables: ReferenceData['tables'] = {}
  for (const m of MAPPING) {
    const node = nodes.get(m.node)
    const second = m.with === undefined ? undefined : nodes.get(m.with)
    if (!node || (m.with !== undefined && !second)) throw new Error(`Cannot build the reference: ${ZIP} has no node ${node ? m.with : m.node}`)
    const joint = m.names.join(JOINT_SEPARATOR)
    const names = m.names.length > 1 ? [...m.names, joint] : [...m.names]
    const perTool = tables[m.tool] ?? {}
    tables[m.tool] = perTool
    for (const name of names) perTool[name] = {}
    for (const [g, uas] of groupsOf) {
      const mass = new Map<string, Map<string, number>>(names.map((n) => [n, new Map()]))
      let total = 0
      for (const ua of uas) {
        const p = pUa[ua] ?? 0
        total += p
        const dist = node === root ? { [ua]: 1 } : given(node, ua)
        // The second node's values given the same user agent: independent of the first's.
        const others: [unknown, number][] = second ? Object.entries(given(second, ua)).map(([raw, q]) => [raw === MISSING ? null : parse(raw), q]) : [[undefined, 1]]
        for (const [raw, q1] of Object.entries(dist)) {
          if (raw === MISSING || !q1) continue
          for (const [other, q2] of others) {
            const q = q1 * q2
            if (!q) continue
            const hashes = m.map(parse(raw), other)
            if (!hashes) continue
            const add = (name: string, hash: string) => {
              const t = mass.get(name) as Map<string, number>
              t.set(hash, (t.get(hash) ?? 0) + p * q)
            }
            for (const [i, name] of m.names.entries()) add(name, hashes[i] as string)
            if (m.names.length > 1) add(joint, jointKey(hashes))
          }
        }
      }
      for (const name of names) (perTool[name] as Record<string, ReferenceTable>)[g] = table(mass.get(name) as Map<string, number>, total)
    }
  }

  const data: ReferenceData = {
    dataset: {
      name: 'fingerprint-generator',
      version: pkg.version,
      license: pkg.license,
      what: "Apify fingerprint-suite's Bayesian network of real browsers' fingerprints (data_files/fingerprint-network-definition.zip)",
      url: 'https://github.com/apify/fingerprint-suite',
      date,
      fingerprints,
      coverage: COVERAGE,
    },
    groups,
    tables,
  }
  writeFileSync(OUT, `${JSON.stringify(data)}\n`)
  const counts = Object.entries(tables).map(([tool, t]) => `${tool}: ${Object.entries(t).map(([n, byGroup]) => `${n} ${Object.keys(byGroup['*']?.values ?? {}).length}`).join(', ')}`)
  console.log(`Wrote ${OUT}: ${data.dataset.name} ${data.dataset.version} (${date}), ${fingerprints} fingerprints, ${Object.keys(groups).length - 1} groups\n${counts.join('\n')}`)
}

main()
