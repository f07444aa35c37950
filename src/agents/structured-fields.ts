// Structured Field Values for HTTP (RFC 8941), the part HTTP Message Signatures (RFC 9421) and
// Web Bot Auth read: Dictionaries whose members are Items or Inner Lists, with Parameters, and
// the canonical serialization RFC 9421 signs (§2.3: the signature parameters are signed as
// re-serialized, not as the client spelled them). Parsing is strict (RFC 8941 §4.2): anything
// that is not a valid field is `null`, which the verifier reports as a malformed header.

export type Bare = string | number | boolean | { token: string } | { bytes: Uint8Array }
export type Params = Array<[string, Bare]>
export interface Item {
  value: Bare
  params: Params
}
export interface InnerList {
  items: Item[]
  params: Params
}
export type Member = Item | InnerList
export type Dictionary = Array<[string, Member]>

export const isInnerList = (m: Member): m is InnerList => 'items' in m

class Input {
  i = 0
  constructor(readonly s: string) {}
  peek(): string {
    return this.s[this.i] ?? ''
  }
  sp(): void {
    while (this.peek() === ' ') this.i++
  }
  ows(): void {
    while (this.peek() === ' ' || this.peek() === '\t') this.i++
  }
}

const KEY_START = /[a-z*]/
const KEY_CHAR = /[a-z0-9_\-.*]/
const TOKEN_START = /[A-Za-z*]/
const TOKEN_CHAR = /[!#$%&'*+\-.^_`|~0-9A-Za-z:/]/

function key(p: Input): string {
  if (!KEY_START.test(p.peek())) throw new SyntaxError('key')
  const start = p.i
  while (p.peek() && KEY_CHAR.test(p.peek())) p.i++
  return p.s.slice(start, p.i)
}

function bare(p: Input): Bare {
  const c = p.peek()
  if (c === '"') {
    p.i++
    let out = ''
    for (;;) {
      const ch = p.s[p.i++]
      if (ch === undefined) throw new SyntaxError('string')
      if (ch === '\\') {
        const next = p.s[p.i++]
        if (next !== '"' && next !== '\\') throw new SyntaxError('escape')
        out += next
      } else if (ch === '"') return out
      else if (ch < ' ' || ch > '~') throw new SyntaxError('string char')
      else out += ch
    }
  }
  if (c === ':') {
    const end = p.s.indexOf(':', p.i + 1)
    if (end < 0) throw new SyntaxError('bytes')
    const b64 = p.s.slice(p.i + 1, end)
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(b64)) throw new SyntaxError('bytes')
    p.i = end + 1
    return { bytes: new Uint8Array(Buffer.from(b64, 'base64')) }
  }
  if (c === '?') {
    const v = p.s[p.i + 1]
    if (v !== '0' && v !== '1') throw new SyntaxError('boolean')
    p.i += 2
    return v === '1'
  }
  if (c === '-' || (c >= '0' && c <= '9')) {
    const m = /^-?\d{1,15}(\.\d{1,3})?/.exec(p.s.slice(p.i))
    if (!m || (m[1] && m[0].replace('-', '').split('.')[0]!.length > 12)) throw new SyntaxError('number')
    p.i += m[0].length
    return Number(m[0])
  }
  if (TOKEN_START.test(c)) {
    const start = p.i
    while (p.peek() && TOKEN_CHAR.test(p.peek())) p.i++
    return { token: p.s.slice(start, p.i) }
  }
  throw new SyntaxError('item')
}

function params(p: Input): Params {
  const out: Params = []
  while (p.peek() === ';') {
    p.i++
    p.sp()
    const k = key(p)
    let v: Bare = true
    if (p.peek() === '=') {
      p.i++
      v = bare(p)
    }
    const at = out.findIndex(([n]) => n === k)
    if (at >= 0) out[at] = [k, v]
    else out.push([k, v])
  }
  return out
}

function member(p: Input): Member {
  if (p.peek() !== '(') return { value: bare(p), params: params(p) }
  p.i++
  const items: Item[] = []
  for (;;) {
    p.sp()
    if (p.peek() === ')') {
      p.i++
      return { items, params: params(p) }
    }
    items.push({ value: bare(p), params: params(p) })
    if (p.peek() !== ' ' && p.peek() !== ')') throw new SyntaxError('inner list')
  }
}

/** An RFC 8941 Dictionary, members in order (a repeated key keeps its first place, last value); null when not one. */
export function parseDictionary(field: string): Dictionary | null {
  const p = new Input(field)
  const out: Dictionary = []
  try {
    p.sp()
    while (p.i < p.s.length) {
      const k = key(p)
      let m: Member = { value: true, params: [] }
      if (p.peek() === '=') {
        p.i++
        m = member(p)
      } else m = { value: true, params: params(p) }
      const at = out.findIndex(([n]) => n === k)
      if (at >= 0) out[at] = [k, m]
      else out.push([k, m])
      p.ows()
      if (p.i >= p.s.length) return out
      if (p.peek() !== ',') return null
      p.i++
      p.ows()
      if (p.i >= p.s.length) return null
    }
    return out
  } catch {
    return null
  }
}

/** An RFC 8941 Item (a bare item and its parameters); null when not one. */
export function parseItem(field: string): Item | null {
  const p = new Input(field)
  try {
    p.sp()
    const item = { value: bare(p), params: params(p) }
    p.sp()
    return p.i === p.s.length ? item : null
  } catch {
    return null
  }
}

export function serializeBare(v: Bare): string {
  if (typeof v === 'string') return `"${v.replace(/[\\"]/g, (c) => `\\${c}`)}"`
  if (typeof v === 'boolean') return v ? '?1' : '?0'
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : String(Math.round(v * 1000) / 1000)
  if ('token' in v) return v.token
  return `:${Buffer.from(v.bytes).toString('base64')}:`
}

export function serializeParams(ps: Params): string {
  return ps.map(([k, v]) => (v === true ? `;${k}` : `;${k}=${serializeBare(v)}`)).join('')
}

export function serializeMember(m: Member): string {
  if (isInnerList(m)) return `(${m.items.map(serializeMember).join(' ')})${serializeParams(m.params)}`
  return serializeBare(m.value) + serializeParams(m.params)
}

export function param(ps: Params, name: string): Bare | undefined {
  return ps.find(([k]) => k === name)?.[1]
}
