import { describe, expect, test } from 'bun:test'
import { collect, patient, runSource } from './collect'
import { ProbeError } from './probe-error'

// A source that answers when the test says so, not after some time: no test here depends on
// how fast the machine is, only on which timer can fire first.
function gated<T>(value: T) {
  let open!: () => void
  const opened = new Promise<void>((r) => (open = r))
  return {
    source: async () => {
      await opened
      return value
    },
    open,
  }
}

describe('runSource', () => {
  test('a source that never answers ends as a typed timeout at the page budget', async () => {
    const { source } = gated(1)
    const r = await runSource(source, 5)
    expect(r.ok).toBe(false)
    if (!r.ok) expect(r.error).toEqual({ kind: 'timeout', message: 'no answer within 5 ms' })
  })

  test('a patient source is given its own, longer budget', async () => {
    const g = gated('late')
    const slow = patient(g.source, 60_000)
    // Answer only after the page budget has certainly passed.
    setTimeout(g.open, 30)
    const r = await runSource(slow, 5)
    expect(r).toMatchObject({ ok: true, value: 'late' })
  })

  test('a budget shorter than the page’s does not shorten it', async () => {
    const g = gated('on time')
    const r = runSource(patient(g.source, 1), 60_000)
    setTimeout(g.open, 20)
    expect(await r).toMatchObject({ ok: true, value: 'on time' })
  })

  test('errors keep their kind; thrown non-errors are stringified', async () => {
    const blocked = await runSource(() => {
      throw new ProbeError('blocked', 'no worker')
    }, 1000)
    expect(blocked).toMatchObject({ ok: false, error: { kind: 'blocked', message: 'no worker' } })
    const odd = await runSource(() => Promise.reject('plain string'), 1000)
    expect(odd).toMatchObject({ ok: false, error: { kind: 'error', message: 'plain string' } })
  })
})

describe('collect', () => {
  test('one stuck source does not hold the others, and each keeps its name', async () => {
    const stuck = gated(0)
    const out = await collect({ a: () => 1, b: stuck.source, c: async () => 'x' }, 10)
    expect(out.a).toMatchObject({ ok: true, value: 1 })
    expect(out.b).toMatchObject({ ok: false, error: { kind: 'timeout' } })
    expect(out.c).toMatchObject({ ok: true, value: 'x' })
  })
})
