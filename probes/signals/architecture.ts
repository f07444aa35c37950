// The CPU family from the sign of a NaN (FingerprintJS src/sources/architecture.ts):
// Infinity − Infinity yields the platform's default NaN, whose sign bit is set on x86
// (byte 255) and clear on ARM (byte 127). Apple Silicon Macs say "Intel" in the UA but give
// 127; Rosetta and other x86 emulation give 255 on ARM hardware.
export function architecture(): number {
  const f = new Float32Array(1)
  const u8 = new Uint8Array(f.buffer)
  f[0] = Infinity
  f[0] = f[0] - f[0]
  return u8[3]!
}
