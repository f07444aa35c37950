// The page shell shared by the tool pages, the index, the docs and the dashboard.
// User data is escaped: pass it as children with the `safe` attribute, never raw.

import type { Children } from '@kitajs/html'
import type { AssetStore } from '../http/assets'

export interface LayoutProps {
  title: string
  assets: AssetStore
  /** Extra elements for <head> (already-escaped JSX). */
  head?: Children
  /** Attributes for <body>, e.g. data-tool. */
  bodyAttrs?: Record<string, string>
  /** Load htmx (the dashboard). */
  htmx?: boolean
  /** CSRF token sent by htmx on every request (hx-headers on <body>). */
  csrfToken?: string
  /** Small print under the page, e.g. the data credits of a tool (already-escaped JSX). */
  footer?: Children
  children?: Children
}

export function Layout(props: LayoutProps): JSX.Element {
  // Both are JSX built (and escaped) by the caller.
  const { head: safeHead, children: safeChildren, footer: safeFooter } = props
  const bodyAttrs: Record<string, string> = { ...(props.bodyAttrs ?? {}) }
  if (props.csrfToken) bodyAttrs['hx-headers'] = JSON.stringify({ 'X-CSRF-Token': props.csrfToken })
  return (
    <>
      {'<!doctype html>'}
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <title safe>{props.title} · Antibot</title>
          <link rel="stylesheet" href={props.assets.url('app.css')} />
          {props.htmx ? <script src={props.assets.url('htmx.js')} defer></script> : ''}
          {safeHead}
        </head>
        <body {...bodyAttrs}>
          <header class="site">
            <a class="brand" href="/">Antibot</a>
            <nav aria-label="Main">
              <a href="/">Tools</a>
              <a href="/docs">API docs</a>
              <a href="/dashboard">Dashboard</a>
            </nav>
          </header>
          <main>{safeChildren}</main>
          {safeFooter ? <footer class="site muted">{safeFooter}</footer> : ''}
        </body>
      </html>
    </>
  )
}
