// The signed-in account's API keys: create, rotate, activate, deactivate, change expiry and
// delete (with a confirmation step). Every query is scoped to the session's account, so a
// key id from another account is answered exactly like one that does not exist: 404.
// New keys go only on self-serve plans, and at most MAX_KEYS_PER_ACCOUNT per account
// (db/account-keys.ts counts and inserts under a lock on the account).

import { Elysia } from 'elysia'
import {
  createAccountKey,
  deleteAccountKey,
  getAccountKey,
  rotateAccountKey,
  setAccountKeyExpiry,
  setAccountKeyStatus,
  type KeyName,
} from '../../db/account-keys'
import { listSelfServePlans } from '../../db/plans'
import { checkExpiry, checkKeyInput, DEFAULT_MAX_KEYS_PER_ACCOUNT } from '../core/account-input'
import { isUuid } from '../core/ids'
import { generateApiKey, hashSecret, keyHint, type RandomBytes } from '../core/keys'
import { DeleteConfirmRow } from '../pages/key-row'
import { accountWeb, type AccountWeb, type SignedIn } from './account-web'
import { dashboardView } from './dashboard'
import type { AppDeps } from './deps'
import { isHtmx, VARY_HTMX } from './htmx'
import { htmlPage } from './page'

/** A fresh secret and what is stored of it. */
function mintKey(random: RandomBytes) {
  const key = generateApiKey(random)
  return { key, keyHash: hashSecret(key), ...keyHint(key) }
}

const quoted = (k: KeyName) => `“${k.name}”`

export function accountKeys(deps: AppDeps) {
  const web = accountWeb(deps)
  const view = dashboardView(deps)
  const { db, clock, random } = deps
  const maxKeys = deps.maxKeysPerAccount ?? DEFAULT_MAX_KEYS_PER_ACCOUNT

  const missing = (request: Request, what: string) => web.refuse(request, 404, `Cannot ${what}: there is no such key in your account.`)

  /** Runs `change` on the key in the path when the post is allowed; 404 for anyone else's key. */
  function keyAction(what: string, change: (g: SignedIn & { form: URLSearchParams }, keyId: string, request: Request) => Promise<Response | null>) {
    return async ({ request, server, params }: { request: Request; server: Parameters<AccountWeb['form']>[0]; params: { id: string } }) => {
      const g = await web.form(server, request, what)
      if (!g.ok) return g.response
      if (!isUuid(params.id)) return missing(request, what)
      return (await change(g, params.id.toLowerCase(), request)) ?? missing(request, what)
    }
  }

  const setStatus = (status: 'active' | 'inactive') =>
    keyAction(status === 'active' ? 'activate the key' : 'deactivate the key', async (g, keyId, request) => {
      const k = await setAccountKeyStatus(db, { accountId: g.session.accountId, keyId, status })
      if (!k) return null
      const notice =
        status === 'active' ? `Key ${quoted(k)} is active again.` : `Key ${quoted(k)} is deactivated: requests with it get 403 until you activate it.`
      return view.done(request, g, { notice })
    })

  return new Elysia({ name: 'account-keys', prefix: '/dashboard/keys' })
    .post(
      '',
      async ({ request, server }) => {
        const what = 'create the key'
        const g = await web.form(server, request, what)
        if (!g.ok) return g.response
        const typed = { name: g.form.get('name') ?? '', plan: g.form.get('plan') ?? '', expires: g.form.get('expires') ?? '' }
        const input = checkKeyInput(typed, await listSelfServePlans(db), clock())
        if (!input.ok) return view.render(request, g, { form: { values: typed, errors: input.errors } }, 422)
        const minted = mintKey(random)
        const { name, plan, expiresAt } = input.value
        const key = { accountId: g.session.accountId, planId: plan.id, name, keyHash: minted.keyHash, prefix: minted.prefix, last4: minted.last4, expiresAt }
        const created = await createAccountKey(db, key, maxKeys)
        if (!created.ok) {
          const error = `You already have ${created.count} keys, the most an account can have (${maxKeys}). Delete a key you no longer use to create another.`
          return view.render(request, g, { form: { values: typed, errors: { keys: error } } }, 409)
        }
        return view.done(request, g, { newKey: { name, key: minted.key, rotated: false } })
      },
      { parse: 'none', detail: { hide: true } },
    )
    .post(
      '/:id/rotate',
      keyAction('rotate the key', async (g, keyId, request) => {
        const minted = mintKey(random)
        const k = await rotateAccountKey(db, { accountId: g.session.accountId, keyId, keyHash: minted.keyHash, prefix: minted.prefix, last4: minted.last4 })
        return k ? view.done(request, g, { newKey: { name: k.name, key: minted.key, rotated: true } }) : null
      }),
      { parse: 'none', detail: { hide: true } },
    )
    .post('/:id/activate', setStatus('active'), { parse: 'none', detail: { hide: true } })
    .post('/:id/deactivate', setStatus('inactive'), { parse: 'none', detail: { hide: true } })
    .post(
      '/:id/expiry',
      keyAction('change the expiry', async (g, keyId, request) => {
        const typed = g.form.get('expires') ?? ''
        const expiry = checkExpiry(typed, clock())
        if (!expiry.ok) {
          if (!(await getAccountKey(db, { accountId: g.session.accountId, keyId }))) return null
          return view.render(request, g, { expiryError: { keyId, value: typed, error: expiry.error } }, 422)
        }
        const k = await setAccountKeyExpiry(db, { accountId: g.session.accountId, keyId, expiresAt: expiry.value })
        if (!k) return null
        const notice = expiry.value ? `Key ${quoted(k)} now expires ${expiry.value.toISOString().slice(0, 10)} (00:00 UTC).` : `Key ${quoted(k)} no longer expires.`
        return view.done(request, g, { notice })
      }),
      { parse: 'none', detail: { hide: true } },
    )
    .get(
      '/:id/delete',
      async ({ request, server, params }) => {
        const g = await web.page(server, request)
        if (!g.ok) return g.response
        const k = isUuid(params.id) ? await getAccountKey(db, { accountId: g.session.accountId, keyId: params.id.toLowerCase() }) : null
        if (!k) return missing(request, 'delete the key')
        if (isHtmx(request)) return htmlPage(<DeleteConfirmRow k={k} csrfToken={g.csrfToken} />, 200, VARY_HTMX, g.cookies)
        return view.render(request, g, { confirmDelete: k.id })
      },
      { detail: { hide: true } },
    )
    .post(
      '/:id/delete',
      keyAction('delete the key', async (g, keyId, request) => {
        const k = await deleteAccountKey(db, { accountId: g.session.accountId, keyId })
        return k ? view.done(request, g, { notice: `Key ${quoted(k)} deleted.` }) : null
      }),
      { parse: 'none', detail: { hide: true } },
    )
}
