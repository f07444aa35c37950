// Sessions: the log-in page, its form post, and logout.

import { Elysia } from 'elysia'
import { logIn } from '../auth/login'
import { checkLogin } from '../core/account-input'
import { LoginPage } from '../pages/auth'
import { accountWeb } from './account-web'
import { requestClientIp } from './client-ip'
import type { AppDeps } from './deps'
import { htmlPage } from './page'
import { CSRF_FIELD } from './web-session'

const WRONG = 'Cannot log in: the email or password is not correct.'

function throttled(seconds: number): string {
  const minutes = Math.ceil(seconds / 60)
  return `Cannot log in: too many failed attempts for this account or from this address. Try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`
}

export function sessionPages(deps: AppDeps) {
  const web = accountWeb(deps)
  const { db, clock, assets, trustedProxies } = deps
  return new Elysia({ name: 'session-pages' })
    .get(
      '/login',
      ({ request, server }) => web.anonymousPage(server, request, (csrfToken) => <LoginPage assets={assets} csrfToken={csrfToken} />),
      { detail: { hide: true } },
    )
    .post(
      '/login',
      async ({ request, server }) => {
        const g = await web.anonymousForm(server, request, 'log in')
        if (!g.ok) return g.response
        const { form } = g
        const typed = { email: form.get('email'), password: form.get('password') }
        const csrfToken = form.get(CSRF_FIELD) ?? ''
        const input = checkLogin(typed)
        if (!input.ok) return htmlPage(<LoginPage assets={assets} csrfToken={csrfToken} email={typed.email ?? ''} errors={input.errors} />, 422)
        const result = await logIn(db, { ...input.value, address: requestClientIp(server, request, trustedProxies), now: clock() })
        if (result.ok) return web.enter(request, g.https, result.accountId)
        if (result.code === 'throttled') {
          deps.metrics?.limited('login')
          const page = <LoginPage assets={assets} csrfToken={csrfToken} email={input.value.email} error={throttled(result.retryAfterSeconds)} />
          return htmlPage(page, 429, { 'retry-after': String(result.retryAfterSeconds) })
        }
        return htmlPage(<LoginPage assets={assets} csrfToken={csrfToken} email={input.value.email} error={WRONG} />, 422)
      },
      { parse: 'none', detail: { hide: true } },
    )
    .post('/logout', ({ request, server }) => web.leave(server, request), { parse: 'none', detail: { hide: true } })
}
