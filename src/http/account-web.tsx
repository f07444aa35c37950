// What the account pages share: the signed-in session (or a redirect to /login), the guard
// for state-changing posts (Origin, session, CSRF token), and refusals as pages or as htmx
// alerts. Built once per app from its dependencies.

import { endSession, resumeSession, startSession, type ActiveSession } from '../auth/sessions'
import { csrfTokenFor } from '../core/csrf'
import type { AppDeps } from './deps'
import { isHtmx, redirect, retarget } from './htmx'
import { htmlPage, withCookies } from './page'
import { Alert, MessagePage } from '../pages/message'
import {
  checkRequestOrigin,
  deleteCookie,
  formSecret,
  isHttpsRequest,
  readCheckedForm,
  requestCookie,
  sessionCookie,
} from './web-session'

interface Peer {
  requestIP(request: Request): { address: string } | null
}

export interface SignedIn {
  session: ActiveSession
  csrfToken: string
  https: boolean
  /** Set-Cookie values to send with the answer (a renewed session). */
  cookies: string[]
}

export type Guarded<T> = ({ ok: true } & T) | { ok: false; response: Response }

export function accountWeb(deps: AppDeps) {
  const { db, clock, random, trustedProxies, assets } = deps

  const https = (server: Peer | null | undefined, request: Request) => isHttpsRequest(server, request, trustedProxies)

  /** A 403/404 with a sentence saying what could not be done and why. */
  function refuse(request: Request, status: number, message: string, back = { href: '/dashboard', label: 'Back to the dashboard' }): Promise<Response> {
    if (isHtmx(request)) return htmlPage(<Alert message={message} />, status, retarget('#alert'))
    return htmlPage(<MessagePage assets={assets} title="Request refused" message={message} back={back} />, status)
  }

  function refuseForgery(request: Request, code: 'foreign_origin' | 'bad_csrf', what: string): Promise<Response> {
    const message =
      code === 'foreign_origin'
        ? `Cannot ${what}: the request did not come from a page of this site.`
        : `Cannot ${what}: the form’s security token is missing or out of date. Reload the page and try again.`
    return refuse(request, 403, message)
  }

  async function signedIn(server: Peer | null | undefined, request: Request): Promise<SignedIn | null> {
    const isHttps = https(server, request)
    const session = await resumeSession(db, { token: requestCookie(request, 'session', isHttps), now: clock() })
    if (!session) return null
    const cookies = session.renewed ? [sessionCookie(session.token, isHttps, session.expiresAt, clock())] : []
    return { session, csrfToken: csrfTokenFor(session.token), https: isHttps, cookies }
  }

  const toLogin = (request: Request, isHttps: boolean) =>
    withCookies(redirect(request, '/login'), requestCookie(request, 'session', isHttps) !== undefined ? [deleteCookie('session', isHttps)] : [])

  return {
    https,
    refuse,

    /** A page only for signed-in people; others are sent to /login. */
    async page(server: Peer | null | undefined, request: Request): Promise<Guarded<SignedIn>> {
      const s = await signedIn(server, request)
      return s ? { ok: true, ...s } : { ok: false, response: toLogin(request, https(server, request)) }
    },

    /**
     * The sign-up or log-in page: someone signed in goes to the dashboard (with a renewed
     * session cookie); anyone else gets the form, its CSRF token bound to the form cookie.
     */
    async anonymousPage(server: Peer | null | undefined, request: Request, render: (csrfToken: string) => JSX.Element): Promise<Response> {
      const s = await signedIn(server, request)
      if (s) return withCookies(redirect(request, '/dashboard'), s.cookies)
      const { secret, setCookie } = formSecret(request, random, https(server, request))
      return htmlPage(render(csrfTokenFor(secret)), 200, {}, setCookie ? [setCookie] : [])
    },

    /** A state-changing post from a signed-in page: Origin, then session, then CSRF token. */
    async form(server: Peer | null | undefined, request: Request, what: string): Promise<Guarded<SignedIn & { form: URLSearchParams }>> {
      const isHttps = https(server, request)
      if (!checkRequestOrigin(request, isHttps)) return { ok: false, response: await refuseForgery(request, 'foreign_origin', what) }
      const s = await signedIn(server, request)
      if (!s) return { ok: false, response: toLogin(request, isHttps) }
      const checked = await readCheckedForm(request, s.session.token, `Cannot ${what}`)
      if (!checked.ok) return { ok: false, response: await refuseForgery(request, checked.code, what) }
      return { ok: true, ...s, form: checked.form }
    },

    /** A post from the sign-up or log-in page, whose token comes from the form cookie. */
    async anonymousForm(server: Peer | null | undefined, request: Request, what: string): Promise<Guarded<{ https: boolean; form: URLSearchParams }>> {
      const isHttps = https(server, request)
      const back = { href: '/login', label: 'Back to log in' }
      if (!checkRequestOrigin(request, isHttps)) {
        return { ok: false, response: await refuse(request, 403, `Cannot ${what}: the request did not come from a page of this site.`, back) }
      }
      const checked = await readCheckedForm(request, requestCookie(request, 'form', isHttps), `Cannot ${what}`)
      if (!checked.ok) {
        const message = `Cannot ${what}: the form’s security token is missing or out of date. Reload the page and try again.`
        return { ok: false, response: await refuse(request, 403, message, back) }
      }
      return { ok: true, https: isHttps, form: checked.form }
    },

    /**
     * Starts a session for the account and sends the browser to the dashboard. Any session
     * the browser had is ended, and the pre-log-in form cookie is dropped.
     */
    async enter(request: Request, isHttps: boolean, accountId: string): Promise<Response> {
      const now = clock()
      await endSession(db, requestCookie(request, 'session', isHttps))
      const { token, expiresAt } = await startSession(db, { accountId, random, now })
      return withCookies(redirect(request, '/dashboard'), [sessionCookie(token, isHttps, expiresAt, now), deleteCookie('form', isHttps)])
    },

    /** Logout: Origin, then (when there is a session cookie) its CSRF token; the row is deleted. */
    async leave(server: Peer | null | undefined, request: Request): Promise<Response> {
      const isHttps = https(server, request)
      const what = 'log out'
      if (!checkRequestOrigin(request, isHttps)) return refuseForgery(request, 'foreign_origin', what)
      const token = requestCookie(request, 'session', isHttps)
      if (token) {
        const checked = await readCheckedForm(request, token, `Cannot ${what}`)
        if (!checked.ok) return refuseForgery(request, checked.code, what)
        await endSession(db, token)
      }
      return withCookies(redirect(request, '/login'), [deleteCookie('session', isHttps), deleteCookie('flash', isHttps, '/dashboard')])
    },
  }
}

export type AccountWeb = ReturnType<typeof accountWeb>
