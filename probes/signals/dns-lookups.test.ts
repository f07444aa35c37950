import { afterEach, describe, expect, test } from 'bun:test'
import { NO_ZONE_MESSAGE } from '../../common/dns-zone'
import { ProbeError } from '../core/probe-error'
import { dnsLookups } from './dns-lookups'

const g = globalThis as unknown as { Image?: unknown; fetch: typeof fetch }
const NONCE = 'abcdefghijklmnopqrstuvwx27'
const realFetch = g.fetch
const realImage = g.Image
afterEach(() => {
  g.fetch = realFetch
  g.Image = realImage
})

describe('dnsLookups', () => {
  test('without a zone it reports unsupported with the message the judge recognises', async () => {
    const err = await dnsLookups(null, NONCE)().catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ProbeError)
    expect(err).toMatchObject({ kind: 'unsupported', message: NO_ZONE_MESSAGE })
    await expect(dnsLookups('', NONCE)()).rejects.toMatchObject({ kind: 'unsupported' })
  })

  test('a zone that is not a host name is an error, and nothing is loaded', async () => {
    let loads = 0
    g.fetch = (async () => { loads++; return new Response() }) as unknown as typeof fetch
    await expect(dnsLookups('bad zone/<x>', NONCE)()).rejects.toMatchObject({ kind: 'error' })
    expect(loads).toBe(0)
  })

  test('with a zone, loads <nonce>-<n>.<zone> names, half by <img>, half by fetch, and times them', async () => {
    const requested: string[] = []
    g.Image = class {
      onload: (() => void) | null = null
      onerror: (() => void) | null = null
      set src(v: string) {
        if (!v) return
        requested.push(v)
        setTimeout(() => this.onerror?.(), 1)
      }
    }
    g.fetch = (async (url: string) => {
      requested.push(url)
      throw new TypeError('Failed to fetch')
    }) as unknown as typeof fetch
    const r = await dnsLookups('Probe.Example.NET', NONCE, 4, 500)()
    expect(r.zone).toBe('probe.example.net')
    expect(r.nonce).toBe(NONCE)
    expect(r.names.map((n) => n.name)).toEqual([1, 2, 3, 4].map((i) => `${r.nonce}-${i}.probe.example.net`))
    expect(r.names.map((n) => n.via)).toEqual(['img', 'img', 'fetch', 'fetch'])
    expect(r.names.every((n) => n.outcome === 'error' && n.ms >= 0)).toBe(true)
    expect(requested.sort()).toEqual(r.names.map((n) => `https://${n.name}/`).sort())
  })

  test('a load that never settles is reported as timeout', async () => {
    g.Image = class {
      onload = null
      onerror = null
      set src(_v: string) {}
    }
    g.fetch = ((_u: string, init: RequestInit) => new Promise((_, reject) => init.signal!.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))))) as unknown as typeof fetch
    const r = await dnsLookups('probe.example.net', NONCE, 2, 20)()
    expect(r.names.map((n) => n.outcome)).toEqual(['timeout', 'timeout'])
  })

  test('the names carry the page nonce; without a well-formed one nothing is loaded', async () => {
    let loads = 0
    g.fetch = (async () => { loads++; throw new TypeError('x') }) as unknown as typeof fetch
    for (const bad of [null, '', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', '3f9a0c1b2d4e5f60', `${NONCE}.evil`]) {
      await expect(dnsLookups('probe.example.net', bad, 2)()).rejects.toMatchObject({ kind: 'error', message: 'the page has no nonce (<body data-nonce>) to tie its lookups to' })
    }
    expect(loads).toBe(0)
  })
})
