import { describe, expect, test } from 'bun:test'
import { concatBytes } from './bytes'
import { readProxyHeader } from './proxy-protocol'

const text = (s: string) => new TextEncoder().encode(s)
const SIG = Uint8Array.of(0x0d, 0x0a, 0x0d, 0x0a, 0x00, 0x0d, 0x0a, 0x51, 0x55, 0x49, 0x54, 0x0a)
const v2 = (command: number, family: number, addresses: number[], tlvs: number[] = []) => {
  const len = addresses.length + tlvs.length
  return concatBytes([SIG, Uint8Array.of(0x20 | command, family, len >> 8, len & 0xff, ...addresses, ...tlvs)])
}
const HELLO = Uint8Array.of(0x16, 0x03, 0x01, 0x00, 0x05)

describe('PROXY protocol header', () => {
  test('v1 TCP4 and TCP6: the source address, and the length to take off before the TLS bytes', () => {
    const line = 'PROXY TCP4 203.0.113.5 192.0.2.1 40001 443\r\n'
    expect(readProxyHeader(concatBytes([text(line), HELLO]))).toEqual({ status: 'complete', length: line.length, source: '203.0.113.5' })
    const six = 'PROXY TCP6 2001:db8::1 2001:db8::2 40001 443\r\n'
    expect(readProxyHeader(text(six))).toEqual({ status: 'complete', length: six.length, source: '2001:db8::1' })
    expect(readProxyHeader(text('PROXY UNKNOWN\r\n'))).toEqual({ status: 'complete', length: 15, source: null })
  })

  test('v2 PROXY over IPv4 and IPv6 with TLVs; LOCAL names nobody', () => {
    const four = v2(1, 0x11, [203, 0, 113, 5, 192, 0, 2, 1, 0x9c, 0x41, 1, 0xbb], [0x04, 0, 1, 0])
    expect(readProxyHeader(concatBytes([four, HELLO]))).toEqual({ status: 'complete', length: four.length, source: '203.0.113.5' })
    const src6 = [0x20, 0x01, 0x0d, 0xb8, ...Array(11).fill(0), 1]
    const six = v2(1, 0x21, [...src6, ...Array(16).fill(0), 0, 1, 0, 2])
    expect(readProxyHeader(six)).toEqual({ status: 'complete', length: six.length, source: '2001:db8::1' })
    const mapped = v2(1, 0x21, [...Array(10).fill(0), 0xff, 0xff, 198, 51, 100, 7, ...Array(16).fill(0), 0, 1, 0, 2])
    expect(readProxyHeader(mapped)).toMatchObject({ status: 'complete', source: '198.51.100.7' })
    expect(readProxyHeader(v2(0, 0x00, []))).toEqual({ status: 'complete', length: 16, source: null })
  })

  test('split reads wait for more; a TLS hello is no header; broken headers are invalid', () => {
    expect(readProxyHeader(text('PROX'))).toEqual({ status: 'need-more' })
    expect(readProxyHeader(text('PROXY TCP4 203.0.113.5'))).toEqual({ status: 'need-more' })
    expect(readProxyHeader(SIG.subarray(0, 5))).toEqual({ status: 'need-more' })
    expect(readProxyHeader(v2(1, 0x11, [203, 0, 113, 5, 192, 0, 2, 1, 0, 1, 0, 2]).subarray(0, 20))).toEqual({ status: 'need-more' })
    expect(readProxyHeader(HELLO)).toEqual({ status: 'none' })
    expect(readProxyHeader(text('GET / HTTP/1.1\r\n'))).toEqual({ status: 'none' })
    for (const bad of ['PROXY TCP4 203.0.113.500 192.0.2.1 1 2\r\n', 'PROXY TCP4 2001:db8::1 192.0.2.1 1 2\r\n', 'PROXY TCP4 203.0.113.5 192.0.2.1 1 99999\r\n', 'PROXY TCP4 203.0.113.5 192.0.2.1 1 2\n', `PROXY ${'x'.repeat(120)}`]) {
      expect(readProxyHeader(text(bad)).status, bad).toBe('invalid')
    }
    expect(readProxyHeader(v2(1, 0x11, [203, 0, 113]))).toMatchObject({ status: 'invalid' })
    expect(readProxyHeader(concatBytes([SIG, Uint8Array.of(0x31, 0x11, 0, 0)]))).toMatchObject({ status: 'invalid' })
  })
})
