/// <reference types="@kitajs/html/htmx.d.ts" />
// One row of the dashboard's keys table (src/pages/dashboard.tsx): status, use this month,
// the expiry form and the delete confirmation, each a plain form that htmx upgrades.

import { formatTimestamp, } from '../core/month'
import type { DashboardKey } from '../../db/dashboard'
import { CSRF_FIELD } from '../http/web-session'

/** `2026-11-21 14:17 UTC`, breaking only between the date and the time. */
export function DateTime(props: { at: Date }): JSX.Element {
  const iso = formatTimestamp(props.at)
  return (
    <time datetime={iso}>
      <span class="nowrap" safe>
        {iso.slice(0, 10)}
      </span>{' '}
      <span class="nowrap" safe>
        {`${iso.slice(11, 16)} UTC`}
      </span>
    </time>
  )
}

export function Csrf(props: { token: string }): JSX.Element {
  return <input type="hidden" name={CSRF_FIELD} value={props.token} />
}

export function keyStatus(k: DashboardKey, now: Date): { label: string; cls: string } {
  if (k.status !== 'active') return { label: 'Inactive', cls: 'v-na' }
  if (k.expiresAt && k.expiresAt.getTime() <= now.getTime()) return { label: 'Expired', cls: 'v-fail' }
  return { label: 'Active', cls: 'v-pass' }
}

export function Usage(props: { used: number; limit: number }): JSX.Element {
  const { used, limit } = props
  const share = limit > 0 ? Math.min(1, used / limit) : 1
  const level = share >= 1 ? 'full' : share >= 0.8 ? 'high' : 'ok'
  return (
    <div class="usage">
      <span class="usage-n">
        {used} / {limit}
      </span>
      <div class={`bar ${level}`} aria-hidden="true">
        <span style={`width:${(share * 100).toFixed(1)}%`}></span>
      </div>
    </div>
  )
}

export function ExpiryCell(props: { k: DashboardKey; csrfToken: string; error?: { value: string; error: string } | undefined }): JSX.Element {
  const { k, error } = props
  const action = `/dashboard/keys/${k.id}/expiry`
  const inputId = `expiry-${k.id}`
  const current = k.expiresAt ? formatTimestamp(k.expiresAt).slice(0, 10) : ''
  return (
    <>
      <span>{k.expiresAt ? <DateTime at={k.expiresAt} /> : 'Never'}</span>
      <details class="inline-form" open={error ? true : undefined}>
        <summary>Change expiry</summary>
        <form method="post" action={action} hx-post={action}>
          <Csrf token={props.csrfToken} />
          <label for={inputId}>New expiry</label>
          <input
            id={inputId}
            name="expires"
            type="date"
            value={error ? error.value : current}
            aria-invalid={error ? 'true' : undefined}
            aria-describedby={error ? `${inputId}-error` : `${inputId}-hint`}
          />
          {error ? (
            <p class="field-error" id={`${inputId}-error`} safe>
              {error.error}
            </p>
          ) : (
            <p class="hint" id={`${inputId}-hint`}>
              00:00 UTC that day; empty for none.
            </p>
          )}
          <button type="submit" class="secondary">
            Save expiry
          </button>
        </form>
      </details>
    </>
  )
}

export function KeyRow(props: { k: DashboardKey; csrfToken: string; now: Date; expiryError?: { value: string; error: string } | undefined }): JSX.Element {
  const { k, csrfToken, now } = props
  const status = keyStatus(k, now)
  const base = `/dashboard/keys/${k.id}`
  const toggle = k.status === 'active' ? { path: 'deactivate', label: 'Deactivate' } : { path: 'activate', label: 'Activate' }
  return (
    <tr id={`key-${k.id}`}>
      <th scope="row" class="key-name" safe>
        {k.name}
      </th>
      <td>
        <code safe>
          {k.prefix}…{k.last4}
        </code>
      </td>
      <td safe>{k.plan}</td>
      <td>
        <span class={`badge ${status.cls}`} safe>
          {status.label}
        </span>
      </td>
      <td class="expires">
        <ExpiryCell k={k} csrfToken={csrfToken} error={props.expiryError} />
      </td>
      <td>
        {/* The bar is the account's allowance on the plan (what a 403 at the limit counts); the key's own share beside it when other keys drew on it too. */}
        <Usage used={k.planUsed} limit={k.monthlyLimit} />
        {k.used !== k.planUsed ? <span class="muted usage-own" safe>{`${k.used} through this key`}</span> : ''}
      </td>
      <td class="last-used">{k.lastUsedAt ? <DateTime at={k.lastUsedAt} /> : 'Never'}</td>
      <td>
        <div class="actions">
          <form method="post" action={`${base}/rotate`} hx-post={`${base}/rotate`}>
            <Csrf token={csrfToken} />
            <button type="submit" class="secondary">
              Rotate
            </button>
          </form>
          <form method="post" action={`${base}/${toggle.path}`} hx-post={`${base}/${toggle.path}`}>
            <Csrf token={csrfToken} />
            <button type="submit" class="secondary" safe>
              {toggle.label}
            </button>
          </form>
          <form method="get" action={`${base}/delete`} hx-get={`${base}/delete`} hx-target="closest tr" hx-swap="outerHTML">
            <button type="submit" class="danger">
              Delete
            </button>
          </form>
        </div>
      </td>
    </tr>
  )
}

/** The second step of Delete: the row asks for confirmation. Cancel costs nothing. */
export function DeleteConfirmRow(props: { k: Pick<DashboardKey, 'id' | 'name'>; csrfToken: string }): JSX.Element {
  const { k } = props
  const action = `/dashboard/keys/${k.id}/delete`
  return (
    <tr id={`key-${k.id}`} class="confirm">
      <td colspan="8">
        <form method="post" action={action} hx-post={action} class="confirm-delete">
          <Csrf token={props.csrfToken} />
          <p>
            <strong>
              Delete key “<span safe>{k.name}</span>”?
            </strong>{' '}
            Programs using it get 401 from then on, and its usage history is removed. This cannot be undone.
          </p>
          <button type="submit" class="danger">
            Delete
          </button>
          <a class="button-link" href="/dashboard" hx-get="/dashboard" hx-select="#keys-panel">
            Cancel
          </a>
        </form>
      </td>
    </tr>
  )
}
