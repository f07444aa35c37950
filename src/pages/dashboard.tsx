/// <reference types="@kitajs/html/htmx.d.ts" />
// The account dashboard. Everything that changes lives in one region, #keys-panel: the
// create-key form, a newly shown key, the keys table and the usage chart. Every action is a
// plain HTML form (POST, then 303 back here) that htmx upgrades: it posts the same form and
// swaps the re-rendered panel in place, so the page works with and without JavaScript.

import type { FieldErrors } from '../core/account-input'
import { DEFAULT_KEY_NAME } from '../core/account-input'
import { sumByDay } from '../core/chart'
import { daysInMonth } from '../core/month'
import type { Plan } from '../core/quota'
import type { DashboardKey } from '../../db/dashboard'
import type { AssetStore } from '../http/assets'
import { HTMX_CONFIG } from '../http/htmx'
import { Layout } from './layout'
import { UsageChart } from './usage-chart'
import { Csrf, KeyRow, DeleteConfirmRow } from './key-row'
import { TableHead } from './table-head'

export interface NewKey {
  name: string
  key: string
  rotated: boolean
}

export interface KeyFormState {
  values: { name: string; plan: string; expires: string }
  /** Per field, and `keys` when the account already has as many keys as it may. */
  errors: FieldErrors<'name' | 'plan' | 'expires' | 'keys'>
}

export interface PanelProps {
  csrfToken: string
  now: Date
  /** The plans an account may choose (self-serve). */
  plans: Plan[]
  keys: DashboardKey[]
  /** How many keys an account may have (MAX_KEYS_PER_ACCOUNT). */
  maxKeys: number
  newKey?: NewKey | null
  /** A short confirmation of what just happened, e.g. "Key “ci” deleted." */
  notice?: string | null
  form?: KeyFormState | null
  /** The key whose row asks "delete?" (the no-JavaScript confirmation step). */
  confirmDelete?: string | null
  /** An expiry change that was refused, shown in that key's row. */
  expiryError?: { keyId: string; value: string; error: string } | null
}

export interface DashboardProps extends PanelProps {
  assets: AssetStore
  email: string
}

function NewKeyNotice(props: { newKey: NewKey }): JSX.Element {
  const { newKey } = props
  return (
    // Named without the key's name: a region labelled with what someone typed could match a
    // form label (a key called "Plan B" would make "Plan" ambiguous for screen readers and tests).
    <section class="card new-key" aria-label={newKey.rotated ? 'New secret' : 'New key'}>
      <h3>
        {newKey.rotated ? 'New secret for key' : 'Your new key'} “<span safe>{newKey.name}</span>”
      </h3>
      <p>
        Copy it now and keep it somewhere safe: <strong>you will not see it again.</strong> Only a hash of it is stored.
        {newKey.rotated ? ' The previous secret has stopped working.' : ''}
      </p>
      <div class="secret-row">
        <code class="secret" id="new-key-secret" safe>
          {newKey.key}
        </code>
        <button type="button" class="secondary copy" data-copy="new-key-secret" autofocus>
          Copy key
        </button>
      </div>
      <p class="muted">
        Send it as <code>Authorization: Bearer …</code> or <code>?apikey=…</code> with <code>{'GET /api/antibot/tasks/{task_id}'}</code>.
      </p>
    </section>
  )
}

function CreateKeyForm(props: { plans: Plan[]; csrfToken: string; form?: KeyFormState | null | undefined }): JSX.Element {
  const values = props.form?.values ?? { name: '', plan: props.plans[0]?.name ?? '', expires: '' }
  const errors = props.form?.errors ?? {}
  const described = (field: 'name' | 'plan' | 'expires', hint?: string) =>
    [errors[field] ? `key-${field}-error` : '', hint ?? ''].filter(Boolean).join(' ') || undefined
  const fieldError = (field: 'name' | 'plan' | 'expires') =>
    errors[field] ? (
      <p class="field-error" id={`key-${field}-error`} safe>
        {errors[field]}
      </p>
    ) : (
      ''
    )
  return (
    <form method="post" action="/dashboard/keys" hx-post="/dashboard/keys" class="create-key">
      <Csrf token={props.csrfToken} />
      {errors.keys ? (
        <p class="field-error" id="key-keys-error" safe>
          {errors.keys}
        </p>
      ) : (
        ''
      )}
      <div class="field">
        <label for="key-name">Name</label>
        <input
          id="key-name"
          name="name"
          type="text"
          maxlength="100"
          placeholder={DEFAULT_KEY_NAME}
          value={values.name}
          aria-invalid={errors.name ? 'true' : undefined}
          aria-describedby={described('name')}
        />
        {fieldError('name')}
      </div>
      <div class="field">
        <label for="key-plan">Plan</label>
        <select id="key-plan" name="plan" aria-invalid={errors.plan ? 'true' : undefined} aria-describedby={described('plan')}>
          {props.plans.map((p) => (
            // Just the name, so that the option's label and value agree; the limits are in the table above.
            <option value={p.name} selected={p.name === values.plan} safe>
              {p.name}
            </option>
          ))}
        </select>
        {fieldError('plan')}
      </div>
      <div class="field">
        <label for="key-expires">Expires</label>
        <input
          id="key-expires"
          name="expires"
          type="date"
          value={values.expires}
          aria-invalid={errors.expires ? 'true' : undefined}
          aria-describedby={described('expires', 'key-expires-hint')}
        />
        <p class="hint" id="key-expires-hint">
          Optional; 00:00 UTC that day.
        </p>
        {fieldError('expires')}
      </div>
      <div class="field submit">
        <button type="submit" aria-describedby={errors.keys ? 'key-keys-error' : undefined}>
          Create key
        </button>
      </div>
    </form>
  )
}

export function KeysPanel(props: PanelProps): JSX.Element {
  const { now, keys, csrfToken } = props
  const daily = sumByDay(
    keys.map((k) => k.daily),
    daysInMonth(now),
  )
  return (
    <div id="keys-panel" hx-target="this" hx-swap="outerHTML" hx-history="false">
      {props.newKey ? <NewKeyNotice newKey={props.newKey} /> : ''}
      {props.notice ? (
        <p class="notice" role="status" safe>
          {props.notice}
        </p>
      ) : (
        ''
      )}
      <section aria-labelledby="create-key-title">
        <h3 id="create-key-title">Create a key</h3>
        <p class="muted" id="key-count" safe>
          {keys.length >= props.maxKeys
            ? `You have ${keys.length} keys, the most an account can have (${props.maxKeys}): delete one to create another.`
            : `You have ${keys.length} of at most ${props.maxKeys} keys.`}
        </p>
        <CreateKeyForm plans={props.plans} csrfToken={csrfToken} form={props.form} />
      </section>
      <section aria-labelledby="keys-title">
        <h3 id="keys-title">Your keys</h3>
        {keys.length === 0 ? (
          <p class="muted">No keys yet. Create one above; it is shown once, right after you create it.</p>
        ) : (
          <div class="table-scroll">
            <table class="keys">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Key</th>
                  <th scope="col">Plan</th>
                  <th scope="col">Status</th>
                  <th scope="col">Expires</th>
                  <th scope="col">This month</th>
                  <th scope="col">Last used</th>
                  <th scope="col">
                    <span class="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {keys.map((k) =>
                  props.confirmDelete === k.id ? (
                    <DeleteConfirmRow k={k} csrfToken={csrfToken} />
                  ) : (
                    <KeyRow
                      k={k}
                      csrfToken={csrfToken}
                      now={now}
                      expiryError={props.expiryError?.keyId === k.id ? props.expiryError : undefined}
                    />
                  ),
                )}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <section aria-labelledby="usage-title">
        <h3 id="usage-title">Usage this month</h3>
        <UsageChart daily={daily} now={now} />
      </section>
    </div>
  )
}

export function DashboardPage(props: DashboardProps): JSX.Element {
  const head = (
    <>
      <meta name="htmx-config" content={HTMX_CONFIG} />
      <script src={props.assets.url('dashboard.js')} defer></script>
    </>
  )
  return (
    <Layout title="Dashboard" assets={props.assets} htmx csrfToken={props.csrfToken} head={head}>
      <div class="dash-head">
        <div>
          <h1>Dashboard</h1>
          <p class="muted">
            Signed in as <strong safe>{props.email}</strong>
          </p>
        </div>
        <form method="post" action="/logout">
          <Csrf token={props.csrfToken} />
          <button type="submit" class="secondary">
            Log out
          </button>
        </form>
      </div>
      <p>
        API keys authenticate task fetches (<span class="mono">{'GET /api/antibot/tasks/{task_id}'}</span>). The{' '}
        <a href="/docs">API docs</a> show how to send them and what each answer means.
      </p>
      <div id="alert" role="alert"></div>
      {/* Not a labelled region: its name "Plans" would also answer to the form label "Plan". */}
      <section class="card plans-section">
        <h2 id="plans-title">Plans</h2>
        <p>
          Every key belongs to a plan. Its monthly limit counts successful task fetches through the API; counts start again at 00:00 UTC on
          the 1st of each month. Running tests on the tool pages is free and never counted.
        </p>
        <p id="plan-allowance">
          A plan's limit is one allowance per account: all your keys on a plan share it, so creating, rotating, deactivating or deleting keys
          neither adds fetches nor gives any back. Other plans are assigned by the operator.
        </p>
        <table class="plans">
          <TableHead columns={['Plan', 'Monthly limit']} />
          <tbody>
            {props.plans.map((p) => (
              <tr>
                <th scope="row" safe>
                  {p.name}
                </th>
                <td safe>{`${p.monthlyLimit.toLocaleString('en-US')} requests`}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <KeysPanel {...props} />
      </section>
    </Layout>
  )
}
