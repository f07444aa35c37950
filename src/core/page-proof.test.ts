import { describe, expect, test } from 'bun:test'
import { proofChallenge, PROOF_VERSION, type Container, type Leaf } from '../../common/page-proof'
import { generateNonce } from './nonce'
import { layOut, verifyProof } from './page-proof'
import { randomBytes } from 'node:crypto'

const nonce = () => generateNonce((n) => new Uint8Array(randomBytes(n)))
/** What a browser engine answers: the layout, rounded (tests/page-proof.e2e.ts checks the model against Chromium's own layout). */
const answer = (n: string, v = PROOF_VERSION) => ({ ok: true, value: { v, boxes: layOut(proofChallenge(n)).flatMap((r) => r.map(Math.round)) }, ms: 1 })

function* boxes(c: Container): Generator<Leaf | Container> {
  for (const child of c.children) {
    yield child
    if (child.kind !== 'leaf') yield* boxes(child)
  }
}

describe('the layout challenge', () => {
  test('is the nonce\'s: the same tree for the same nonce, another for another', () => {
    const a = nonce()
    expect(JSON.stringify(proofChallenge(a))).toBe(JSON.stringify(proofChallenge(a)))
    const seen = new Set(Array.from({ length: 200 }, () => JSON.stringify(layOut(proofChallenge(nonce())))))
    expect(seen.size).toBe(200)
  })

  test('uses every part of its grammar across page loads, each challenge with 12 or more boxes', () => {
    const kinds = new Set<string>()
    for (let i = 0; i < 300; i++) {
      const ch = proofChallenge(nonce())
      const all = [...boxes(ch.root)]
      expect(all.length).toBeGreaterThanOrEqual(12)
      for (const b of all) {
        kinds.add(b.kind)
        if (b.kind === 'flex') kinds.add(`justify ${b.justify}`).add(`align ${b.align}`)
        if (b.kind === 'grid' && b.columns.some((t) => 'fr' in t)) kinds.add('fr track')
        if (b.kind === 'block' && b.positioned) kinds.add('positioned')
        if (b.kind !== 'leaf') continue
        if (b.transform) kinds.add(`transform ${Object.keys(b.transform)[0]}${'rotate' in b.transform ? b.transform.rotate : ''}`)
        if (b.abs) kinds.add('absolute')
        if (b.shift) kinds.add('relative')
        if (b.borderBox) kinds.add('border-box')
        if (b.maxWidth !== null) kinds.add('max-width')
        if (b.width && 'minus' in b.width) kinds.add('calc')
        else if (b.width && 'pct' in b.width) kinds.add('percent')
        if (b.justify) kinds.add(`justify-self ${b.justify}`)
        if (b.flex && b.flex.grow > 0) kinds.add('flex-grow')
      }
    }
    for (const k of ['block', 'flex', 'grid', 'leaf', 'positioned', 'fr track', 'absolute', 'relative', 'border-box', 'max-width', 'calc', 'percent', 'flex-grow', 'transform translate', 'transform rotate90', 'transform rotate180', 'transform scale']) expect(kinds).toContain(k)
    for (const j of ['flex-start', 'center', 'flex-end', 'space-between']) expect(kinds).toContain(`justify ${j}`)
    for (const a of ['flex-start', 'center', 'flex-end']) expect(kinds).toContain(`align ${a}`)
    for (const j of ['start', 'center', 'end']) expect(kinds).toContain(`justify-self ${j}`)
  })

  test('lays sibling margins out collapsed, and boxes of a flex row side by side', () => {
    // A hand-laid case: root padding 10, two leaves with margins 8/12 and 20/0 collapse to 20.
    const leaf = (over: Partial<Leaf>): Leaf => ({ kind: 'leaf', width: null, maxWidth: null, height: 10, margin: [0, 0, 0, 0], padding: [0, 0, 0, 0], borderBox: false, shift: null, transform: null, flex: null, justify: null, abs: null, ...over })
    const c = (over: Partial<Container>): Container => ({ kind: 'block', margin: [0, 0, 0, 0], padding: [1, 0, 1, 0], positioned: false, height: null, justify: 'flex-start', align: 'flex-start', columns: [], gap: [0, 0], children: [], ...over })
    const root = c({
      padding: [10, 10, 10, 10],
      positioned: true,
      children: [
        leaf({ margin: [8, 0, 12, 0] }),
        leaf({ margin: [20, 0, 0, 5], width: { pct: 50 }, transform: { rotate: 90 } }),
        c({ kind: 'flex', justify: 'space-between', align: 'center', children: [leaf({ flex: { grow: 0, basis: 20 }, height: 6 }), leaf({ flex: { grow: 0, basis: 30 }, height: 20 })] }),
      ],
    })
    const rects = layOut({ version: PROOF_VERSION, width: 200, root })
    expect(rects[0]).toEqual([10, 18, 200, 10])
    // 18 + 10, then max(12, 20) = 20: the second leaf's box is at y 48, 100 × 10, turned a quarter about its centre.
    expect(rects[1]).toEqual([15 + 50 - 5, 48 + 5 - 50, 10, 100])
    // The flex row after it: its top at 58, content at 59; 20 + 30 of 200, the rest between them.
    expect(rects[2]).toEqual([10, 58, 200, 22])
    expect(rects[3]).toEqual([10, 59 + 7, 20, 6])
    expect(rects[4]).toEqual([180, 59, 30, 20])
  })
})

describe('verifyProof', () => {
  test("a browser's answer to this page load's challenge is valid", () => {
    const n = nonce()
    const v = verifyProof(n, answer(n))
    expect(v.state).toBe('valid')
    expect(v.detail).toMatch(/^all \d+ boxes where layout puts them$/)
  })

  test('the answer of another page load (a recording, from this or any other instance) is wrong', () => {
    const n = nonce()
    for (let i = 0; i < 50; i++) expect(verifyProof(n, answer(nonce())).state).toBe('wrong')
  })

  test("a DOM emulator's boxes of no size are wrong", () => {
    const n = nonce()
    const a = answer(n)
    const zeros = { ...a, value: { ...a.value, boxes: a.value.boxes.map(() => 0) } }
    const v = verifyProof(n, zeros)
    expect(v.state).toBe('wrong')
    expect(v.detail).toContain('are not where laying out')
  })

  test('one px of rounding is allowed; one box in ten may be off; more is wrong', () => {
    const n = nonce()
    const a = answer(n)
    const count = a.value.boxes.length / 4
    const nudged = a.value.boxes.map((b) => b + 1)
    expect(verifyProof(n, { ...a, value: { ...a.value, boxes: nudged } }).state).toBe('valid')
    const off = (k: number) => a.value.boxes.map((b, i) => (i % 4 === 0 && i / 4 < k ? b + 5 : b))
    const allowed = Math.floor(count / 10)
    const some = verifyProof(n, { ...a, value: { ...a.value, boxes: off(allowed) } })
    expect(some.state).toBe('valid')
    if (allowed > 0) expect(some.detail).toContain(`${count - allowed} of ${count} boxes`)
    expect(verifyProof(n, { ...a, value: { ...a.value, boxes: off(allowed + 1) } }).state).toBe('wrong')
  })

  test('no answer, a failed probe, a malformed answer, another version and no live nonce are each said', () => {
    const n = nonce()
    expect(verifyProof(n, undefined).state).toBe('missing')
    const failed = verifyProof(n, { ok: false, error: { kind: 'unsupported', message: 'no nonce' }, ms: 0 })
    expect(failed.state).toBe('missing')
    expect(failed.detail).toContain('unsupported: no nonce')
    expect(verifyProof(n, { ok: true, value: { v: 1, boxes: ['1'] }, ms: 0 }).state).toBe('wrong')
    expect(verifyProof(n, { ok: true, value: 'x', ms: 0 }).state).toBe('wrong')
    expect(verifyProof(n, answer(n, PROOF_VERSION + 1)).detail).toContain(`version ${PROOF_VERSION + 1}`)
    expect(verifyProof(n, { ok: true, value: { v: PROOF_VERSION, boxes: [1, 2, 3, 4] }, ms: 0 }).detail).toContain('1 boxes measured')
    expect(verifyProof(null, answer(n)).state).toBe('no-nonce')
  })
})
