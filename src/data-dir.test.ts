import { afterEach, describe, expect, test } from 'bun:test'
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ownerOnly, ownerOnlyLine } from './data-dir'

const made: string[] = []
afterEach(() => {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true })
})
function scratch(): string {
  const d = mkdtempSync(join(tmpdir(), 'antibot-owneronly-'))
  made.push(d)
  return d
}
const mode = (p: string) => lstatSync(p).mode & 0o7777

describe('ownerOnly', () => {
  test("removes group and other bits from DATA_DIR and the service's entries, recursively", () => {
    const dir = scratch()
    mkdirSync(join(dir, 'pglite/base/5'), { recursive: true })
    writeFileSync(join(dir, 'pglite/base/5/1259'), '')
    writeFileSync(join(dir, 'signing-key.secret'), 'x')
    for (const p of ['', 'pglite', 'pglite/base', 'pglite/base/5']) chmodSync(join(dir, p), 0o777)
    chmodSync(join(dir, 'pglite/base/5/1259'), 0o666)
    chmodSync(join(dir, 'signing-key.secret'), 0o640)
    const r = ownerOnly(dir)
    expect(r).toEqual({ tightened: 6, leftOpen: null })
    expect([mode(dir), mode(join(dir, 'pglite/base/5')), mode(join(dir, 'pglite/base/5/1259')), mode(join(dir, 'signing-key.secret'))]).toEqual([0o700, 0o700, 0o600, 0o600])
    expect(ownerOnlyLine(dir, r, 'entries')).toBe(`DATA_DIR ${dir}: 6 entries had permissions for other users; made owner-only (directories 0700, files 0600)`)
    // A second pass has nothing to do and nothing to say.
    expect(ownerOnlyLine(dir, ownerOnly(dir), 'entries')).toBeNull()
  })

  test("leaves the operator's other entries and whatever a symbolic link points to", () => {
    const dir = scratch()
    const outside = scratch()
    writeFileSync(join(outside, 'shared.txt'), '')
    chmodSync(join(outside, 'shared.txt'), 0o644)
    mkdirSync(join(dir, 'ipdb'))
    symlinkSync(join(outside, 'shared.txt'), join(dir, 'ipdb', 'link'))
    writeFileSync(join(dir, 'README.txt'), '')
    chmodSync(join(dir, 'README.txt'), 0o644)
    ownerOnly(dir)
    expect(mode(join(outside, 'shared.txt'))).toBe(0o644)
    expect(mode(join(dir, 'README.txt'))).toBe(0o644)
  })

  test('leaves a shared (sticky) DATA_DIR as it is and says so', () => {
    const dir = scratch()
    chmodSync(dir, 0o1777)
    writeFileSync(join(dir, 'signing-key.secret'), 'x')
    chmodSync(join(dir, 'signing-key.secret'), 0o644)
    const r = ownerOnly(dir)
    expect(statSync(dir).mode & 0o7777).toBe(0o1777)
    expect(mode(join(dir, 'signing-key.secret'))).toBe(0o600)
    expect(r.tightened).toBe(1)
    expect(r.leftOpen).toContain('is a shared directory (mode 1777)')
  })
})
