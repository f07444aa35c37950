// autocannon ships no types; the benchmark uses its callback API with loosely typed results.
declare module 'autocannon' {
  const autocannon: (opts: Record<string, unknown>, cb: (err: Error | null, result: any) => void) => unknown
  export default autocannon
}
