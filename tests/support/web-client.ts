// A tiny browser for HTTP tests through app.handle(): keeps cookies, sends Origin like a
// browser does, and reads the CSRF token out of the last page.

import type { App } from '../../src/app'

export interface PostOptions {
  /** The Origin header; defaults to the app's own origin, null to omit it. */
  origin?: string | null
  referer?: string
  /** Send as htmx does: HX-Request and the token in X-CSRF-Token instead of the body. */
  htmx?: boolean
  /** The CSRF token to send; defaults to the one on the last page, null to send none. */
  csrf?: string | null
}

export class WebClient {
  readonly cookies = new Map<string, string>()
  /** The last HTML page or fragment received. */
  html = ''
  csrf: string | null = null

  /**
   * `send`: how a request reaches the app; `app.handle` by default (no socket, so the client
   * address is 'unknown'). A test that needs a socket peer passes a fetch to a listening app,
   * and `headers` (e.g. X-Forwarded-For) go with every request.
   */
  constructor(
    readonly app: App,
    readonly base = 'http://localhost',
    readonly send: (request: Request) => Promise<Response> = (request) => app.handle(request),
    readonly headers: Record<string, string> = {},
  ) {}

  private cookieHeader(): Record<string, string> {
    return { ...this.headers, ...(this.cookies.size ? { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } : {}) }
  }

  private async receive(res: Response): Promise<Response> {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';')
      const eq = pair!.indexOf('=')
      const name = pair!.slice(0, eq)
      if (/Max-Age=0(;|$)/.test(c)) this.cookies.delete(name)
      else this.cookies.set(name, pair!.slice(eq + 1))
    }
    const type = res.headers.get('content-type') ?? ''
    if (type.startsWith('text/html')) {
      this.html = await res.clone().text()
      const m = /name="_csrf" value="([^"]+)"/.exec(this.html)
      if (m) this.csrf = m[1]!
    }
    return res
  }

  async get(path: string, headers: Record<string, string> = {}): Promise<Response> {
    return this.receive(await this.send(new Request(this.base + path, { headers: { ...this.cookieHeader(), ...headers } })))
  }

  async post(path: string, fields: Record<string, string> = {}, o: PostOptions = {}): Promise<Response> {
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', ...this.cookieHeader() }
    const origin = o.origin === undefined ? new URL(this.base).origin : o.origin
    if (origin !== null) headers.origin = origin
    if (o.referer) headers.referer = o.referer
    const token = o.csrf === undefined ? this.csrf : o.csrf
    const body = new URLSearchParams(fields)
    if (o.htmx) {
      headers['hx-request'] = 'true'
      if (token) headers['x-csrf-token'] = token
    } else if (token) {
      body.set('_csrf', token)
    }
    return this.receive(await this.send(new Request(this.base + path, { method: 'POST', headers, body })))
  }

  /** Follows a 303 (or an htmx HX-Location) with a GET, as a browser would. */
  async follow(res: Response): Promise<Response> {
    const to = res.headers.get('location') ?? res.headers.get('hx-location')
    if (!to) throw new Error(`no redirect in a ${res.status} answer`)
    return this.get(to)
  }

  /** Signs up, then logs in as a person does on the page a sign-up answers with. */
  async signUp(email: string, password = 'correct horse battery'): Promise<Response> {
    await this.get('/signup')
    const signedUp = await this.post('/signup', { email, password })
    if (signedUp.status !== 200 || !this.html.includes('action="/login"')) throw new Error(`sign-up failed: ${signedUp.status} ${await signedUp.text()}`)
    const res = await this.post('/login', { email, password })
    if (res.status !== 303) throw new Error(`log-in after sign-up failed: ${res.status} ${await res.text()}`)
    await this.follow(res)
    return res
  }

  async logIn(email: string, password = 'correct horse battery'): Promise<Response> {
    await this.get('/login')
    return this.post('/login', { email, password })
  }

  /** Creates a key through the plain form; returns the secret shown once and the key id. */
  async createKey(fields: { name?: string; plan?: string; expires?: string } = {}): Promise<{ key: string; id: string }> {
    const res = await this.post('/dashboard/keys', { name: fields.name ?? 'test key', plan: fields.plan ?? 'free', expires: fields.expires ?? '' })
    if (res.status !== 303) throw new Error(`create key failed: ${res.status} ${await res.text()}`)
    await this.follow(res)
    const key = /id="new-key-secret">\s*(ab_[0-9A-Za-z]+)/.exec(this.html)?.[1]
    if (!key) throw new Error('no key shown after creating one')
    const ids = [...this.html.matchAll(/<tr id="key-([0-9a-f-]{36})"/g)].map((m) => m[1]!)
    return { key, id: ids[ids.length - 1]! }
  }
}
