// CRC-32 (IEEE 802.3, the zlib polynomial), used as the checksum inside API keys so that a
// mistyped or truncated key is rejected without a database query. The runtime's own
// (Bun.hash.crc32): 3× faster than the table-driven TypeScript it replaced, on every keyed
// request (issue 61; docs/performance.md, "Native digests"); its test holds it to zlib's.
export function crc32(bytes: Uint8Array): number {
  return Bun.hash.crc32(bytes)
}
