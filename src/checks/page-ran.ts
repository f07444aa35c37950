// The page's proof that it ran in a browser engine for this page load (issue 56): the layout
// challenge derived from the page's nonce, laid out by the page and checked by the server
// against its own layout of the same challenge (common/page-proof.ts, src/core/page-proof.ts,
// judged in src/http/observe.ts as results.server.proof).

import { checkOn, na } from './define'

export const pageRan = checkOn<Record<string, never>>()({
  id: 'page-ran',
  name: "The page laid out this visit's own challenge",
  found: "the page did not lay out this visit's challenge: its scripts did not run in a browser",
  source: 'server',
  why: "Every page load carries a fresh challenge made from its single-use nonce: a few dozen empty boxes in block, flex and grid layouts, with margins that collapse, percentages, absolute positions and transforms. The page lays them out and sends where each landed; the service lays the same challenge out itself and compares. A browser engine does this as it renders any page, whatever its settings, zoom or extensions; a program that replays a recorded visit answers another visit's challenge, and one that runs the page's scripts in a DOM emulator (jsdom, happy-dom, linkedom) gets boxes of no size. It proves that a layout engine ran this visit's challenge, not who drove it: a real browser under automation passes it and meets the other checks, and an author who rewrites this service's own layout model into a replayer could answer it too.",
  expected: "every box where laying out this visit's challenge puts it (within 1 px)",
  needs: [],
  judge: (_, { server }) => {
    const state = server.proof
    if (state === undefined) return na('this tool does not take the layout challenge')
    const observed = server.proofDetail ?? state
    if (state === 'valid') return { verdict: 'pass', observed }
    return { verdict: 'fail', observed, labels: ['browserless'] }
  },
})
