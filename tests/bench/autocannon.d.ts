// autocannon ships no types; these are the parts of its callback API the benchmark uses.
declare module 'autocannon' {
  export interface AutocannonRequest {
    method?: string
    path?: string
    headers?: Record<string, string>
    body?: string
    setupRequest?: (req: AutocannonRequest) => AutocannonRequest
  }
  export interface AutocannonResult {
    requests: { average: number; total: number }
    latency: { p50: number; p99: number }
    errors: number
    timeouts: number
    non2xx: number
    '2xx': number
  }
  export interface AutocannonInstance {
    /** Once a second while running: the requests completed in that second. */
    on(event: 'tick', listener: (t: { counter: number }) => void): void
  }
  const autocannon: (opts: Record<string, unknown>, cb: (err: Error | null, result: AutocannonResult) => void) => AutocannonInstance
  export default autocannon
}
