import { describe, expect, test } from 'bun:test'
import { initialTtl, kernelFamily, parseSyn } from './tcp-syn'

// TCP options as bytes.
const MSS = (v: number) => [2, 4, v >> 8, v & 0xff]
const WS = (v: number) => [3, 3, v]
const SACK = [4, 2]
const TS = [8, 10, 0x12, 0x34, 0x56, 0x78, 0, 0, 0, 0]
const NOP = [1]
const EOL = [0]

/** A SYN as the kernel keeps it: IPv4 (20 bytes) or IPv6 (40) header, then TCP with `options`. */
function syn(o: { v?: 4 | 6; ttl: number; df?: boolean; window: number; options: number[]; flags?: number }): Uint8Array {
  const opts = [...o.options]
  while (opts.length % 4) opts.push(0)
  const tcp = [0xc3, 0x50, 0x01, 0xbb, 0, 0, 0, 1, 0, 0, 0, 0, ((20 + opts.length) / 4) << 4, o.flags ?? 0x02, o.window >> 8, o.window & 0xff, 0, 0, 0, 0, ...opts]
  if ((o.v ?? 4) === 4) {
    const len = 20 + tcp.length
    const ip = [0x45, 0, len >> 8, len & 0xff, 0x12, 0x34, o.df === false ? 0 : 0x40, 0, o.ttl, 6, 0, 0, 198, 51, 100, 7, 203, 0, 113, 1]
    return Uint8Array.from([...ip, ...tcp])
  }
  const ip6 = [0x60, 0, 0, 0, tcp.length >> 8, tcp.length & 0xff, 6, o.ttl, ...new Array(32).fill(0x20)]
  return Uint8Array.from([...ip6, ...tcp])
}

// Published defaults (p0f's fingerprint database, FoxIO's JA4T examples), as they arrive a few hops away.
const WINDOWS_11 = syn({ ttl: 117, window: 64240, options: [...MSS(1460), ...NOP, ...WS(8), ...NOP, ...NOP, ...SACK] })
const LINUX_6 = syn({ ttl: 52, window: 64240, options: [...MSS(1460), ...SACK, ...TS, ...NOP, ...WS(7)] })
const ANDROID_14 = syn({ ttl: 50, window: 65535, options: [...MSS(1400), ...SACK, ...TS, ...NOP, ...WS(9)] })
const MACOS_14 = syn({ ttl: 56, window: 65535, options: [...MSS(1460), ...NOP, ...WS(6), ...NOP, ...NOP, ...TS, ...SACK, ...EOL] })
const IOS_17 = syn({ ttl: 51, window: 65535, options: [...MSS(1380), ...NOP, ...WS(6), ...NOP, ...NOP, ...TS, ...SACK, ...EOL] })
const LINUX_V6_WIREGUARD = syn({ v: 6, ttl: 60, window: 64800, options: [...MSS(1360), ...SACK, ...TS, ...NOP, ...WS(7)] })

describe('parseSyn', () => {
  test('Windows 10/11: TTL 128, DF, 64240, MSS-NOP-WS-NOP-NOP-SACK, no timestamps', () => {
    expect(parseSyn(WINDOWS_11)).toEqual({ ipVersion: 4, ttl: 117, initialTtl: 128, hops: 11, df: true, window: 64240, options: [2, 1, 3, 1, 1, 4], mss: 1460, windowScale: 8, timestamps: false, sack: true, ja4t: '64240_2-1-3-1-1-4_1460_8' })
  })
  test('Linux: TTL 64, MSS-SACK-TS-NOP-WS', () => {
    expect(parseSyn(LINUX_6)).toMatchObject({ initialTtl: 64, hops: 12, options: [2, 4, 8, 1, 3], timestamps: true, sack: true, ja4t: '64240_2-4-8-1-3_1460_7' })
    expect(parseSyn(ANDROID_14)!.ja4t).toBe('65535_2-4-8-1-3_1400_9')
  })
  test('macOS and iOS: the EOL and its padding are listed, as JA4T lists them', () => {
    expect(parseSyn(MACOS_14)!.ja4t).toBe('65535_2-1-3-1-1-8-4-0-0_1460_6')
    expect(parseSyn(IOS_17)).toMatchObject({ initialTtl: 64, mss: 1380, ja4t: '65535_2-1-3-1-1-8-4-0-0_1380_6' })
  })
  test('IPv6: the hop limit, no DF', () => {
    expect(parseSyn(LINUX_V6_WIREGUARD)).toMatchObject({ ipVersion: 6, ttl: 60, initialTtl: 64, df: null, mss: 1360, ja4t: '64800_2-4-8-1-3_1360_7' })
  })
  test('DF clear, no options: 00 in JA4T', () => {
    expect(parseSyn(syn({ ttl: 255, df: false, window: 1024, options: [] }))).toMatchObject({ df: false, initialTtl: 255, options: [], mss: null, windowScale: null, ja4t: '1024_00_00_00' })
  })
  test('not a SYN: a SYN-ACK, a truncated packet, UDP, garbage', () => {
    expect(parseSyn(syn({ ttl: 64, window: 100, options: [], flags: 0x12 }))).toBeNull()
    expect(parseSyn(WINDOWS_11.subarray(0, 30))).toBeNull()
    const udp = Uint8Array.from(LINUX_6)
    udp[9] = 17
    expect(parseSyn(udp)).toBeNull()
    expect(parseSyn(new Uint8Array(10))).toBeNull()
    expect(parseSyn(Uint8Array.from({ length: 60 }, (_, i) => (i * 37) & 0xff))).toBeNull()
  })
  test('an option whose length runs past the header stops the walk, never throws', () => {
    const bad = syn({ ttl: 64, window: 100, options: [2, 40, 5, 180] })
    expect(parseSyn(bad)).toMatchObject({ options: [2], mss: null })
  })
})

describe('initialTtl and kernelFamily', () => {
  test('the TTL rounds up to 64, 128 or 255', () => {
    expect([1, 64, 65, 128, 129, 255].map(initialTtl)).toEqual([64, 64, 128, 128, 255, 255])
  })
  test('each published default names its family; a tuned stack is other', () => {
    const family = (b: Uint8Array) => kernelFamily(parseSyn(b)!)
    expect([WINDOWS_11, LINUX_6, ANDROID_14, MACOS_14, IOS_17, LINUX_V6_WIREGUARD].map(family)).toEqual(['windows', 'linux', 'linux', 'apple', 'apple', 'linux'])
    // Linux with net.ipv4.ip_default_ttl=128: neither Windows nor Linux.
    expect(family(syn({ ttl: 128, window: 64240, options: [...MSS(1460), ...SACK, ...TS, ...NOP, ...WS(7)] }))).toBe('other')
    // Linux with tcp_timestamps=0: MSS-NOP-NOP-SACK-NOP-WS.
    expect(family(syn({ ttl: 64, window: 64240, options: [...MSS(1460), ...NOP, ...NOP, ...SACK, ...NOP, ...WS(7)] }))).toBe('linux')
    expect(family(syn({ ttl: 255, window: 4128, options: [...MSS(536)] }))).toBe('other')
  })
})
