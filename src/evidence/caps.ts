// How much evidence one page nonce may collect (issue 13). The listeners answer anyone who
// connects, queries or sends a datagram, so without a bound one nonce could collect as much
// as a client cares to send, all of it copied into the task when the page submits: the 64 KiB
// body cap would not bound what is stored. Each kind has a number of items per nonce and a
// size per item; the excess is counted (page_nonces.evidence_dropped) but not stored. So the
// evidence of a task is at most Σ items × itemBytes (MAX_EVIDENCE_BYTES), whatever the
// listeners received.
//
// The numbers leave room for real page loads: a page opens the TLS listener once (one
// connection: one `tls` record and one `http2` or `http1`); the dns-leak page looks up four
// names (A, AAAA, HTTPS, through one or more resolvers, with their retries); WebRTC gathers a
// TURN allocation and a Binding per local interface. Measured on Chromium 156 and curl: `tls`
// 1.4–1.7 KB, `http2` 0.7 KB (0.8 with its round trips), `http1` 0.5 KB, `dns` 0.35 KB, `stun`
// 0.1 KB, `turn` 0.15 KB.

export type EvidenceKind = 'tls' | 'http2' | 'http1' | 'stun' | 'turn' | 'dns'

export interface EvidenceCap {
  /** Items of this kind kept per nonce; later ones are counted as dropped. */
  items: number
  /** Largest item, as UTF-8 bytes of its compact JSON (after the fields are truncated). */
  itemBytes: number
}

export const EVIDENCE_CAPS: Readonly<Record<EvidenceKind, EvidenceCap>> = {
  tls: { items: 4, itemBytes: 6 * 1024 },
  http2: { items: 4, itemBytes: 3 * 1024 },
  http1: { items: 4, itemBytes: 3 * 1024 },
  dns: { items: 64, itemBytes: 768 },
  stun: { items: 16, itemBytes: 256 },
  turn: { items: 16, itemBytes: 512 },
}

export const EVIDENCE_KINDS = Object.keys(EVIDENCE_CAPS) as EvidenceKind[]

/** The most listener evidence a nonce can hold, and so a task carry: 108 KiB. */
export const MAX_EVIDENCE_BYTES = EVIDENCE_KINDS.reduce((sum, k) => sum + EVIDENCE_CAPS[k].items * EVIDENCE_CAPS[k].itemBytes, 0)

export const isEvidenceKind = (k: unknown): k is EvidenceKind => typeof k === 'string' && Object.hasOwn(EVIDENCE_CAPS, k)

const utf8 = new TextEncoder()
export const jsonBytes = (value: unknown): number => utf8.encode(JSON.stringify(value) ?? 'null').length

/** Field limits tried in turn until an item fits its kind's size: strings (characters), arrays and object members. */
const LIMITS = [
  { string: 512, array: 64 },
  { string: 256, array: 32 },
  { string: 128, array: 16 },
  { string: 64, array: 8 },
  { string: 32, array: 4 },
] as const
const MAX_DEPTH = 6

interface Shrunk {
  value: unknown
  truncated: boolean
}

function cutString(s: string, max: number): Shrunk {
  // PostgreSQL's jsonb refuses \u0000: a NUL a client managed to send becomes U+FFFD.
  const clean = s.includes('\u0000') ? s.replaceAll('\u0000', '\uFFFD') : s
  if (clean.length <= max) return { value: clean, truncated: false }
  // Never split a surrogate pair (a lone surrogate is not valid in jsonb either).
  let end = max
  const last = clean.charCodeAt(end - 1)
  if (last >= 0xd800 && last <= 0xdbff) end -= 1
  return { value: clean.slice(0, end), truncated: true }
}

function shrink(value: unknown, limit: { string: number; array: number }, depth: number): Shrunk {
  if (typeof value === 'string') return cutString(value, limit.string)
  if (value === null || typeof value !== 'object') {
    // Numbers that JSON cannot carry become null, as JSON.stringify would make them.
    return { value: typeof value === 'number' && !Number.isFinite(value) ? null : value, truncated: false }
  }
  if (depth >= MAX_DEPTH) return { value: null, truncated: true }
  let truncated = false
  if (Array.isArray(value)) {
    const out = value.slice(0, limit.array).map((v) => {
      const s = shrink(v, limit, depth + 1)
      truncated ||= s.truncated
      return s.value
    })
    return { value: out, truncated: truncated || value.length > limit.array }
  }
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined && typeof v !== 'function')
  const out: Record<string, unknown> = {}
  for (const [k, v] of entries.slice(0, limit.array)) {
    const s = shrink(v, limit, depth + 1)
    const name = cutString(k, limit.string)
    truncated ||= s.truncated || name.truncated
    out[name.value as string] = s.value
  }
  return { value: out, truncated: truncated || entries.length > limit.array }
}

/**
 * The item as it may be stored: strings, arrays and objects cut to the first field limits
 * under which it fits `maxBytes`, with `truncated: true` added to an object that was cut;
 * null when even the tightest limits do not make it fit (the item is then dropped).
 */
export function boundEvidenceData(data: unknown, maxBytes: number): { data: unknown; truncated: boolean } | null {
  for (const limit of LIMITS) {
    const s = shrink(data, limit, 0)
    const marked = s.truncated && s.value !== null && typeof s.value === 'object' && !Array.isArray(s.value) ? { ...(s.value as object), truncated: true } : s.value
    if (jsonBytes(marked) <= maxBytes) return { data: marked, truncated: s.truncated }
  }
  return null
}

export interface CappedEvidence<T> {
  items: T[]
  /** Items counted per kind beyond the caps (added to what was counted when filing). */
  dropped: Record<string, number>
}

/**
 * The read side of the same caps, for a task: at most `items` of each kind (oldest first) and
 * none larger than `itemBytes`; the rest are counted with the dropped ones. Filing already
 * keeps to the caps; this holds even for evidence filed before they existed, or by hand.
 */
export function capEvidence<T extends { kind: string; data: unknown }>(items: readonly T[], dropped: Record<string, number>): CappedEvidence<T> {
  const kept: T[] = []
  const counts = new Map<string, number>()
  const out: Record<string, number> = {}
  for (const [k, n] of Object.entries(dropped)) if (Number.isSafeInteger(n) && n > 0) out[k] = n
  for (const item of items) {
    const cap = isEvidenceKind(item.kind) ? EVIDENCE_CAPS[item.kind] : null
    const seen = counts.get(item.kind) ?? 0
    if (cap && seen < cap.items && jsonBytes(item.data) <= cap.itemBytes) {
      counts.set(item.kind, seen + 1)
      kept.push(item)
    } else out[item.kind] = (out[item.kind] ?? 0) + 1
  }
  return { items: kept, dropped: out }
}

/**
 * The most a stored task's `results` take (compact JSON, bytes) with a small body and ordinary
 * request headers, whatever the listeners received: MAX_EVIDENCE_BYTES of evidence (108 KiB),
 * plus 52 KiB for the rest: the judges' checks and sections (some list what the listeners saw,
 * e.g. dns-leak's resolvers) and the request's headers. Measured by
 * tests/listeners/evidence-caps.test.ts, which floods every listener for one nonce of each tool
 * that reads them (58–67 KB) and files the largest records of every kind beyond every cap
 * (86–95 KB). What the body brings (up to MAX_TASK_BODY_BYTES, 64 KiB) comes on top.
 */
export const MAX_TASK_RESULTS_BYTES = MAX_EVIDENCE_BYTES + 52 * 1024
