// Reading the Prometheus text exposition format (what GET /metrics serves) in tests: the
// samples, each with its name, labels and value.

export interface Sample {
  name: string
  labels: Record<string, string>
  value: number
}

const LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g

export function samples(text: string): Sample[] {
  const out: Sample[] = []
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue
    const m = LINE.exec(line)
    if (!m) throw new Error(`not a sample line: ${line}`)
    const labels: Record<string, string> = {}
    for (const l of (m[2] ?? '').matchAll(LABEL)) labels[l[1]!] = l[2]!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c))
    out.push({ name: m[1]!, labels, value: Number(m[3]) })
  }
  return out
}

/** The value of the one sample with this name and (at least) these labels; undefined when none. */
export function value(text: string | Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const all = typeof text === 'string' ? samples(text) : text
  const found = all.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`)
  return found[0]?.value
}
