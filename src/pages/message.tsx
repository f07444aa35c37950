// A page with one message: refusals (403), missing keys (404) and similar dead ends for
// browsers without JavaScript. htmx requests get the same text as a fragment (Alert).

import type { AssetStore } from '../http/assets'
import { Layout } from './layout'

export function MessagePage(props: { assets: AssetStore; title: string; message: string; back: { href: string; label: string } }): JSX.Element {
  return (
    <Layout title={props.title} assets={props.assets}>
      <section class="card narrow">
        <h1 safe>{props.title}</h1>
        <p class="error" safe>
          {props.message}
        </p>
        <p>
          <a href={props.back.href} safe>
            {props.back.label}
          </a>
        </p>
      </section>
    </Layout>
  )
}

/** The fragment htmx puts into the dashboard's alert area. */
export function Alert(props: { message: string }): JSX.Element {
  return (
    <p class="error" safe>
      {props.message}
    </p>
  )
}
