// Accounts: the sign-up page and its form post.
//
// A sign-up does not say whether the email already had an account: every accepted sign-up is
// answered with the same log-in page (200), its email filled in and a notice that is true
// either way. A new email has an account from then on; an existing one is left as it was.
// So the person logs in next, with the password just chosen (src/auth/signup.ts).

import { Elysia } from 'elysia'
import { signUp } from '../auth/signup'
import { checkSignup } from '../core/account-input'
import { LoginPage, SignupPage } from '../pages/auth'
import { accountWeb } from './account-web'
import { requestClientIp } from './client-ip'
import type { AppDeps } from './deps'
import { htmlPage } from './page'
import { CSRF_FIELD } from './web-session'

export const SIGNED_UP =
  'If this email had no account, it has one now, with the password you chose; if it had one, nothing was changed. Log in to continue.'

function throttled(seconds: number): string {
  const minutes = Math.ceil(seconds / 60)
  return `Cannot sign up: too many sign-ups from this address. Try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`
}

export function signupPages(deps: AppDeps) {
  const web = accountWeb(deps)
  const { db, clock, assets, trustedProxies, signupLimit } = deps
  return new Elysia({ name: 'signup-pages' })
    .get(
      '/signup',
      ({ request, server }) => web.anonymousPage(server, request, (csrfToken) => <SignupPage assets={assets} csrfToken={csrfToken} />),
      { detail: { hide: true } },
    )
    .post(
      '/signup',
      async ({ request, server }) => {
        const g = await web.anonymousForm(server, request, 'sign up')
        if (!g.ok) return g.response
        const { form } = g
        const typed = { email: form.get('email'), password: form.get('password') }
        const csrfToken = form.get(CSRF_FIELD) ?? ''
        const input = checkSignup(typed)
        if (!input.ok) return htmlPage(<SignupPage assets={assets} csrfToken={csrfToken} email={typed.email ?? ''} errors={input.errors} />, 422)
        const address = requestClientIp(server, request, trustedProxies)
        const result = await signUp(db, { ...input.value, address, now: clock(), policy: signupLimit })
        if (!result.ok) {
          deps.metrics?.limited('signup')
          const page = <SignupPage assets={assets} csrfToken={csrfToken} email={input.value.email} error={throttled(result.retryAfterSeconds)} />
          return htmlPage(page, 429, { 'retry-after': String(result.retryAfterSeconds) })
        }
        // The form cookie stays: the token on this page is valid for the log-in form too.
        return htmlPage(<LoginPage assets={assets} csrfToken={csrfToken} email={input.value.email} notice={SIGNED_UP} />, 200)
      },
      { parse: 'none', detail: { hide: true } },
    )
}
