// Which pages each person of the tools matrix (tools.ts) opens, and how, per transport. Pure, so
// the rules below are unit-tested (walks.test.ts).
//
// Over HTTPS, the way production serves people, a person walks every tool page: the browser
// starts on its first page, the person types each next tool's address (the second page is
// reloaded once), then the run page (/run, every tool in one visit).
// Over plain HTTP a person opens a first page, types a second, reloads it, then types /run: every
// tool runs over HTTP in the run (whose tasks equal the tool pages', tests/run.e2e.ts), and every
// tool page is someone's first or second page over HTTP, so each page's own headers and shell
// meet every engine's people on some page while the gate's time stays within its budget.
// Every tool is someone's first page (on one transport or the other), and the pages the wire
// checks judge (http-headers, tls-fingerprint, vpn-detector; bot-detector in the detection
// matrix) are a Chromium person's first page over HTTPS, where Chromium restarts the navigation
// for the page's Critical-CH.

import type { Transport } from './transports'

/** The run page's step (person.ts types /run for it). */
export const RUN_STEP = 'run'

/** Each person's first page, per transport. */
export const FIRST_PAGE: Record<string, Record<Transport, string>> = {
  person: { https: 'http-headers', http: 'browser-fingerprint' },
  'person-de': { https: 'tls-fingerprint', http: 'canvas-fingerprint' },
  'person-hidpi': { https: 'vpn-detector', http: 'font-detection' },
  'person-firefox': { https: 'http-headers', http: 'audio-fingerprint' },
  'person-firefox-rfp': { https: 'tls-fingerprint', http: 'timezone-geo' },
  'person-firefox-de': { https: 'ip-leak', http: 'screen-display' },
  'person-firefox-blockers': { https: 'webrtc-leak', http: 'permissions-api' },
  'person-webkit': { https: 'http-headers', http: 'dns-leak' },
  'person-webkit-fr': { https: 'tls-fingerprint', http: 'bot-detector' },
  'person-webkit-mini': { https: 'vpn-detector', http: 'ip-leak' },
}

/**
 * Each person's second page over plain HTTP (typed, then reloaded): the tool pages that are no
 * one's first page over HTTP go to people of each engine, the rest to what the person's set-up
 * is about (a locale's headers and zone, a HiDPI screen, resistFingerprinting's canvas).
 */
export const SECOND_PAGE_HTTP: Record<string, string> = {
  person: 'http-headers',
  'person-de': 'timezone-geo',
  'person-hidpi': 'screen-display',
  'person-firefox': 'tls-fingerprint',
  'person-firefox-rfp': 'canvas-fingerprint',
  'person-firefox-de': 'http-headers',
  'person-firefox-blockers': 'webrtc-leak',
  'person-webkit': 'vpn-detector',
  'person-webkit-fr': 'timezone-geo',
  'person-webkit-mini': 'tls-fingerprint',
}

export interface WalkStep {
  /** A tool id, or RUN_STEP. */
  tool: string
  how: 'first' | 'typed' | 'reload' | 'run'
}

/** The pages person `id` opens over `transport`, in order. */
export function walkOf(id: string, transport: Transport, tools: readonly string[]): WalkStep[] {
  const first = FIRST_PAGE[id]?.[transport] ?? tools[0]!
  const rest = tools.filter((t) => t !== first)
  const second = transport === 'http' ? (SECOND_PAGE_HTTP[id] ?? rest[0]!) : rest[0]!
  const further = transport === 'http' ? [] : rest.filter((t) => t !== second)
  return [
    { tool: first, how: 'first' },
    { tool: second, how: 'typed' },
    { tool: second, how: 'reload' },
    ...further.map((tool) => ({ tool, how: 'typed' as const })),
    { tool: RUN_STEP, how: 'run' },
  ]
}
