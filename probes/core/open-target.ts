// The reports fold their checks into a closed <details> (src/pages/report.tsx). A link to a
// check (the overview's "what matters most", a report's "what was found", or a shared URL with
// its #fragment) must show it: on every hash change, and once the report is on the page, the
// <details> holding the target is opened and the target scrolled into view. The browser does
// this by itself only for a target inside the <details>' content where it supports
// auto-expanding (Chromium's `hidden=until-found` machinery); Firefox and WebKit do not.
// https://html.spec.whatwg.org/multipage/interactive-elements.html#the-details-element

/** Opens every closed <details> around the element `id` names; true when it opened one. */
function openAround(id: string): boolean {
  const target = id ? document.getElementById(id) : null
  if (!target) return false
  let opened = false
  for (let d = target.closest('details'); d; d = d.parentElement?.closest('details') ?? null) {
    if (!d.open) {
      d.open = true
      opened = true
    }
  }
  return opened
}

/** Opens the <details> around the element the URL's fragment names, and shows it. */
export function openHashTarget(): void {
  const id = decodeURIComponent(location.hash.slice(1))
  if (openAround(id)) document.getElementById(id)?.scrollIntoView({ block: 'start' })
}

/**
 * Call once per page. A click on an in-page link opens the target's <details> before the
 * browser follows it (so it scrolls to a visible row, and a second click on the same link,
 * which fires no hashchange, works too); a hash typed or pasted opens it on hashchange.
 */
export function watchHashTargets(): void {
  document.addEventListener(
    'click',
    (e) => {
      const a = (e.target as Element | null)?.closest?.('a[href^="#"]')
      if (a) openAround(decodeURIComponent((a.getAttribute('href') ?? '').slice(1)))
    },
    true,
  )
  addEventListener('hashchange', openHashTarget)
}
