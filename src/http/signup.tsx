// Accounts: the sign-up page and its form post.

import { Elysia } from 'elysia'
import { signUp } from '../auth/login'
import { checkSignup } from '../core/account-input'
import { SignupPage } from '../pages/auth'
import { accountWeb } from './account-web'
import type { AppDeps } from './deps'
import { htmlPage } from './page'
import { CSRF_FIELD } from './web-session'

export function signupPages(deps: AppDeps) {
  const web = accountWeb(deps)
  const { db, assets } = deps
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
        const result = await signUp(db, input.value)
        if (!result.ok) {
          const error = 'Cannot sign up: an account with this email already exists. Log in instead.'
          return htmlPage(<SignupPage assets={assets} csrfToken={csrfToken} email={input.value.email} error={error} />, 409)
        }
        return web.enter(request, g.https, result.accountId)
      },
      { parse: 'none', detail: { hide: true } },
    )
}
