// Pages that do not change while the service runs — the index, /docs and its schema pages,
// /openapi.json — are rendered at first use and then served from memory: the same bytes every
// time. A /docs render cost 60–100 ms of CPU, and 100 concurrent ones grew the heap by about
// 110 MB that was never given back (issue 33). What these pages may hold is what every
// request shares: they carry no CSP nonce, cookie, CSRF token or signed-in state (the security
// headers are set on each response by src/http/page.ts, outside the bytes kept here). The one
// per-request value, /docs's curl examples' origin, is a slot filled when the page is served
// (FilledPage).

import { escapeHtml } from '@kitajs/html'

export interface RenderedOnce {
  /** The page's bytes, rendered at the first call; a failed render is tried again at the next. */
  bytes(): Promise<Uint8Array<ArrayBuffer>>
  /** How many times it rendered (1 once served; tests read it). */
  readonly renders: number
}

/** `make()` at the first call, then its value; a failure is not kept. Counts the calls to `make`. */
function once<T>(make: () => T | Promise<T>): { get(): Promise<T>; readonly calls: number } {
  let kept: Promise<T> | undefined
  let calls = 0
  return {
    get() {
      if (!kept) {
        const p = Promise.resolve().then(() => {
          calls++
          return make()
        })
        kept = p
        p.catch(() => {
          if (kept === p) kept = undefined
        })
      }
      return kept
    },
    get calls() {
      return calls
    },
  }
}

const encoder = new TextEncoder()

export function renderedOnce(render: () => string | Promise<string>): RenderedOnce {
  const page = once(async () => encoder.encode(await render()))
  return {
    bytes: () => page.get(),
    get renders() {
      return page.calls
    },
  }
}

/**
 * A slot for the request's origin in a page rendered once: the page is rendered with this
 * text where the origin goes, and each response fills it in. Letters, digits and underscores
 * only, so neither HTML escaping nor shell quoting changes it.
 */
export const ORIGIN_SLOT = 'ANTIBOT_ORIGIN_SLOT_9F3C'

export interface FilledPage {
  /** The page for `origin`: the kept bytes around the slots, the origin between them. */
  body(origin: string): Promise<Uint8Array<ArrayBuffer>>
  readonly renders: number
}

/**
 * A page rendered once with ORIGIN_SLOT where the origin goes, each slot standing inside a
 * single-quoted shell word in HTML text (the curl examples): a response puts the origin there,
 * shell-quoted and HTML-escaped as a render for that origin would have. The page filled for
 * the latest origin is kept too (a service is nearly always reached under one name), so the
 * usual request allocates nothing; a request under another name costs one copy of the page.
 */
export function filledOnce(render: () => string | Promise<string>): FilledPage {
  const pieces = once(async () => (await render()).split(ORIGIN_SLOT).map((p) => encoder.encode(p)))
  let last: { origin: string; bytes: Uint8Array<ArrayBuffer> } | undefined
  return {
    async body(origin) {
      const parts = await pieces.get()
      if (last?.origin === origin) return last.bytes
      const fill = encoder.encode(escapeHtml(origin.replace(/'/g, `'\\''`)))
      const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0) + fill.length * (parts.length - 1))
      let at = 0
      parts.forEach((p, i) => {
        if (i > 0) {
          bytes.set(fill, at)
          at += fill.length
        }
        bytes.set(p, at)
        at += p.length
      })
      last = { origin, bytes }
      return bytes
    },
    get renders() {
      return pieces.calls
    },
  }
}
