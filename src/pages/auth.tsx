// The sign-up and log-in pages: plain HTML forms (no htmx), which post; a log-in is redirected
// (303) to the dashboard, a sign-up is answered with the log-in page and a notice. Each
// carries the CSRF token in a hidden field.

import type { AssetStore } from '../http/assets'
import { CSRF_FIELD } from '../http/web-session'
import type { FieldErrors } from '../core/account-input'
import { PASSWORD_MIN } from '../core/account-input'
import { Layout } from './layout'

export interface CredentialsPageProps {
  assets: AssetStore
  csrfToken: string
  email?: string
  errors?: FieldErrors<'email' | 'password'>
  /** A message about the whole form (wrong credentials, throttled). */
  error?: string
  /** A message that is not an error (after a sign-up: log in now). */
  notice?: string
}

function FieldError(props: { id: string; message: string | undefined }): JSX.Element {
  if (!props.message) return ''
  return (
    <p class="field-error" id={props.id} safe>
      {props.message}
    </p>
  )
}

function CredentialsForm(props: CredentialsPageProps & { action: '/signup' | '/login'; submit: string }): JSX.Element {
  const errors = props.errors ?? {}
  const signup = props.action === '/signup'
  return (
    <form method="post" action={props.action} class="stack" novalidate>
      <input type="hidden" name={CSRF_FIELD} value={props.csrfToken} />
      <div class="field">
        <label for="email">Email</label>
        <input
          id="email"
          name="email"
          type="email"
          autocomplete={signup ? 'email' : 'username'}
          required
          maxlength="254"
          value={props.email ?? ''}
          aria-invalid={errors.email ? 'true' : undefined}
          aria-describedby={errors.email ? 'email-error' : undefined}
        />
        <FieldError id="email-error" message={errors.email} />
      </div>
      <div class="field">
        <label for="password">Password</label>
        <input
          id="password"
          name="password"
          type="password"
          autocomplete={signup ? 'new-password' : 'current-password'}
          required
          minlength={signup ? String(PASSWORD_MIN) : undefined}
          maxlength="256"
          aria-invalid={errors.password ? 'true' : undefined}
          aria-describedby={[errors.password ? 'password-error' : '', signup ? 'password-hint' : ''].filter(Boolean).join(' ') || undefined}
        />
        {signup ? (
          <p class="hint" id="password-hint">
            At least {PASSWORD_MIN} characters, and not a common password such as 12345678.
          </p>
        ) : (
          ''
        )}
        <FieldError id="password-error" message={errors.password} />
      </div>
      <div>
        <button type="submit" safe>
          {props.submit}
        </button>
      </div>
    </form>
  )
}

function FormError(props: { message: string | undefined }): JSX.Element {
  if (!props.message) return ''
  return (
    <p class="error" role="alert" safe>
      {props.message}
    </p>
  )
}

function Notice(props: { message: string | undefined }): JSX.Element {
  if (!props.message) return ''
  return (
    <p class="notice" role="status" safe>
      {props.message}
    </p>
  )
}

export function SignupPage(props: CredentialsPageProps): JSX.Element {
  return (
    <Layout title="Sign up" assets={props.assets}>
      <section class="card narrow" aria-labelledby="page-title">
        <h1 id="page-title">Sign up</h1>
        <p class="muted">An account gives you API keys for reading task results through the API.</p>
        <FormError message={props.error} />
        <CredentialsForm {...props} action="/signup" submit="Sign up" />
        <p>
          Already have an account? <a href="/login">Log in</a>
        </p>
      </section>
    </Layout>
  )
}

export function LoginPage(props: CredentialsPageProps): JSX.Element {
  return (
    <Layout title="Log in" assets={props.assets}>
      <section class="card narrow" aria-labelledby="page-title">
        <h1 id="page-title">Log in</h1>
        <Notice message={props.notice} />
        <FormError message={props.error} />
        <CredentialsForm {...props} action="/login" submit="Log in" />
        <p>
          No account yet? <a href="/signup">Sign up</a>
        </p>
      </section>
    </Layout>
  )
}
