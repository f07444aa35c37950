// The per-connection digests (src/evidence/digests.ts: JA3's MD5, JA4's SHA-256, STUN's
// HMAC-SHA1) and the API key checksum (src/core/crc32.ts), each against node:crypto / node:zlib
// doing the same work in the same run: ns per call and the ratio (issue 61).
//   node_modules/.bin/bun tests/bench/digests.ts
import { createHash, createHmac } from 'node:crypto'
import { crc32 as zlibCrc32 } from 'node:zlib'
import { crc32 } from '../../src/core/crc32'
import { hmacSha1, md5Hex, sha256Hex } from '../../src/evidence/digests'

const JA3 = '771,4865-4866-4867-49195-49199-49196-49200-52393-52392-49171-49172-156-157-47-53,0-23-65281-10-11-35-16-5-13-18-51-45-43-27-17513-21,29-23-24,0'
const JA4_CIPHERS = '002f,0035,009c,009d,1301,1302,1303,c013,c014,c02b,c02c,c02f,c030,cca8,cca9'
const STUN_KEY = new Uint8Array(16).fill(7)
const STUN_MESSAGE = new Uint8Array(120).fill(3)
const KEY_BODY = new TextEncoder().encode('ab_live_0123456789abcdefghijklmnopqrstuvwxyzABCD')

function perCall(f: () => unknown, n: number): number {
  for (let i = 0; i < 5000; i++) f()
  const t = Bun.nanoseconds()
  for (let i = 0; i < n; i++) f()
  return (Bun.nanoseconds() - t) / n
}

const rows: Array<[string, () => unknown, () => unknown, number]> = [
  ['JA3 MD5 (hex)', () => md5Hex(JA3), () => createHash('md5').update(JA3).digest('hex'), 200_000],
  ['JA4 SHA-256 (hex)', () => sha256Hex(JA4_CIPHERS), () => createHash('sha256').update(JA4_CIPHERS).digest('hex'), 200_000],
  ['STUN HMAC-SHA1', () => hmacSha1(STUN_KEY, STUN_MESSAGE), () => createHmac('sha1', STUN_KEY).update(STUN_MESSAGE).digest(), 200_000],
  ['API key CRC-32', () => crc32(KEY_BODY), () => zlibCrc32(KEY_BODY), 2_000_000],
]
console.log('| digest | service, ns/call | node:crypto / node:zlib, ns/call | service / baseline speed |')
console.log('|---|---|---|---|')
for (const [name, ours, baseline, n] of rows) {
  const a = perCall(ours, n)
  const b = perCall(baseline, n)
  console.log(`| ${name} | ${a.toFixed(0)} | ${b.toFixed(0)} | ${(b / a).toFixed(2)}× |`)
}
