// The page's proof that it ran in a browser engine for this page load (common/page-proof.ts):
// the challenge of the page's nonce built as empty elements in a closed shadow root (the page's
// and the person's style sheets do not reach it), laid out off screen, and each box's bounding
// rectangle read relative to the root's. Styles are set through the CSSOM, which a Content
// Security Policy without 'unsafe-inline' allows. The server lays the same challenge out and
// compares (src/core/page-proof.ts).

import { boxStyle, proofChallenge, PROOF_VERSION, type Container, type Leaf, type ProofAnswer } from '../../common/page-proof'
import { unsupported } from '../core/probe-error'

const TAG = 'ab-proof-box'

function build(box: Leaf | Container, parent: Container | null, into: Node, measured: HTMLElement[]): HTMLElement {
  const el = document.createElement(TAG)
  for (const [name, value] of boxStyle(box, parent)) el.style.setProperty(name, value, 'important')
  into.appendChild(el)
  if (parent) measured.push(el)
  if (box.kind !== 'leaf') for (const child of box.children) build(child, box, el, measured)
  return el
}

/** Lays out the challenge of `nonce` and returns where each box landed. */
export function pageProof(nonce: string | undefined): ProofAnswer {
  if (!nonce || !/^[a-z2-7]{26}$/.test(nonce)) throw unsupported('the page has no nonce to derive its layout challenge from')
  const challenge = proofChallenge(nonce)
  const host = document.createElement(TAG)
  for (const [name, value] of [
    ['position', 'absolute'],
    ['left', '0'],
    ['top', '0'],
    ['width', '0'],
    ['height', '0'],
    ['overflow', 'visible'],
    ['visibility', 'hidden'],
    ['pointer-events', 'none'],
    ['display', 'block'],
    ['contain', 'none'],
    ['transform', 'none'],
  ] as const)
    host.style.setProperty(name, value, 'important')
  const shadow = typeof host.attachShadow === 'function' ? host.attachShadow({ mode: 'closed' }) : host
  const measured: HTMLElement[] = []
  const root = build(challenge.root, null, shadow, measured)
  root.style.setProperty('position', 'absolute', 'important')
  root.style.setProperty('left', '0', 'important')
  root.style.setProperty('top', '0', 'important')
  root.style.setProperty('width', `${challenge.width}px`, 'important')
  ;(document.body ?? document.documentElement).appendChild(host)
  try {
    const origin = root.getBoundingClientRect()
    const boxes: number[] = []
    for (const el of measured) {
      const r = el.getBoundingClientRect()
      boxes.push(Math.round(r.left - origin.left), Math.round(r.top - origin.top), Math.round(r.width), Math.round(r.height))
    }
    return { v: PROOF_VERSION, boxes }
  } finally {
    host.remove()
  }
}
