// The dashboard page, and the rendering every key action answers with: the whole page for a
// plain request, only the keys panel for htmx.

import { Elysia } from 'elysia'
import { readDashboard } from '../../db/dashboard'
import { openFlash, sealFlash } from '../core/flash'
import { DEFAULT_MAX_KEYS_PER_ACCOUNT } from '../core/account-input'
import { monthKey } from '../core/month'
import { DashboardPage, KeysPanel, type NewKey, type PanelProps } from '../pages/dashboard'
import { accountWeb, type SignedIn } from './account-web'
import type { AppDeps } from './deps'
import { isHtmx, redirect, VARY_HTMX } from './htmx'
import { htmlPage, withCookies } from './page'
import { cookieName, cookieOptions, deleteCookie, requestCookie } from './web-session'
import { serializeCookie } from '../core/cookies'

export type PanelExtras = Omit<PanelProps, 'csrfToken' | 'now' | 'plans' | 'keys' | 'maxKeys'>

/** What a no-JavaScript form leaves for the page it redirects to. */
interface Flash {
  newKey?: NewKey
  notice?: string
}

const FLASH_SECONDS = 300

function readFlash(request: Request, s: SignedIn): Flash | null {
  const sealed = requestCookie(request, 'flash', s.https)
  const text = sealed ? openFlash(s.session.token, sealed) : null
  if (!text) return null
  try {
    const f = JSON.parse(text) as Flash
    return typeof f === 'object' && f !== null ? f : null
  } catch {
    return null
  }
}

export function dashboardView(deps: AppDeps) {
  const { db, clock, random, assets } = deps
  const maxKeys = deps.maxKeysPerAccount ?? DEFAULT_MAX_KEYS_PER_ACCOUNT

  /** The dashboard (or, for htmx, its keys panel) as of now, with the given extras. */
  async function render(request: Request, s: SignedIn, extras: PanelExtras = {}, status = 200, cookies: string[] = []): Promise<Response> {
    const now = clock()
    const data = await readDashboard(db, { accountId: s.session.accountId, month: monthKey(now) })
    const props: PanelProps = { csrfToken: s.csrfToken, now, plans: data.plans, keys: data.keys, maxKeys, ...extras }
    const allCookies = [...s.cookies, ...cookies]
    if (isHtmx(request)) {
      const fragment = (
        <>
          <KeysPanel {...props} />
          <div id="alert" role="alert" hx-swap-oob="true"></div>
        </>
      )
      return htmlPage(fragment, status, VARY_HTMX, allCookies)
    }
    return htmlPage(<DashboardPage assets={assets} email={s.session.email} {...props} />, status, VARY_HTMX, allCookies)
  }

  /**
   * After a successful action: htmx gets the panel showing the outcome; a plain form post is
   * redirected (303) to /dashboard, with the outcome sealed in a short-lived cookie.
   */
  function done(request: Request, s: SignedIn, flash: Flash): Promise<Response> | Response {
    if (isHtmx(request)) return render(request, s, flash)
    const sealed = sealFlash(s.session.token, JSON.stringify(flash), random)
    const cookie = serializeCookie(cookieName('flash', s.https), sealed, cookieOptions(s.https, { path: '/dashboard', maxAge: FLASH_SECONDS }))
    return withCookies(redirect(request, '/dashboard'), [...s.cookies, cookie])
  }

  return { render, done }
}

export type DashboardView = ReturnType<typeof dashboardView>

export function dashboardPages(deps: AppDeps) {
  const web = accountWeb(deps)
  const view = dashboardView(deps)
  return new Elysia({ name: 'dashboard-pages' }).get(
    '/dashboard',
    async ({ request, server }) => {
      const g = await web.page(server, request)
      if (!g.ok) return g.response
      const flash = readFlash(request, g)
      const hadCookie = requestCookie(request, 'flash', g.https) !== undefined
      // The flash is shown once: the cookie goes with this answer.
      return view.render(request, g, flash ?? {}, 200, hadCookie ? [deleteCookie('flash', g.https, '/dashboard')] : [])
    },
    { detail: { hide: true } },
  )
}
