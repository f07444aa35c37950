// Which pages each person of the tools matrix (tools.ts) opens, and how, per transport. Pure, so
// the rules below are unit-tested (walks.test.ts).
//
// The three people of the engines as they ship (Chromium, Firefox ESR, GNOME Web: WALKERS) walk
// every tool page over HTTPS, the way production serves people: the browser starts on its first
// page, the person types each next tool's address (the second page is reloaded once), then the
// run page (/run, every tool in one visit). Every other walk is short: a first page, a second
// typed and reloaded, then /run. So every person meets every tool on both transports (in /run,
// whose tasks equal the tool pages', tests/run.e2e.ts), every tool page is walked by each engine
// over HTTPS and is someone's first or second page over HTTP, and the variants (a locale, HiDPI,
// resistFingerprinting, content blockers, MiniBrowser) open the pages their set-up is about,
// while the gate's time stays within its budget.
// Every tool is someone's first page (on one transport or the other), and the pages the wire
// checks judge (http-headers, tls-fingerprint, vpn-detector; bot-detector in the detection
// matrix) are a Chromium person's first page over HTTPS, where Chromium restarts the navigation
// for the page's Critical-CH.

import { RUN_PAGE } from './person'
import type { Transport } from './transports'

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
  // Behind a TLS-inspecting proxy (issue 56): the pages that judge the wire with the page's proof.
  'person-proxy': { https: 'tls-fingerprint', http: 'tls-fingerprint' },
  'person-firefox-proxy': { https: 'tls-fingerprint', http: 'tls-fingerprint' },
}

/** The people who walk every tool page over HTTPS. */
export const WALKERS: readonly string[] = ['person', 'person-firefox', 'person-webkit']

/**
 * Each person's second page on a short walk (typed, then reloaded): over HTTP the tool pages
 * that are no one's first page there go to people of each engine; the rest go to what the
 * person's set-up is about (a locale's headers and zone, a HiDPI screen, resistFingerprinting's
 * canvas and fingerprint, the blockers' headers, Intelligent Tracking Prevention's storage).
 */
export const SECOND_PAGE: Record<string, Partial<Record<Transport, string>>> = {
  person: { http: 'http-headers' },
  'person-de': { https: 'http-headers', http: 'timezone-geo' },
  'person-hidpi': { https: 'screen-display', http: 'screen-display' },
  'person-firefox': { http: 'tls-fingerprint' },
  'person-firefox-rfp': { https: 'browser-fingerprint', http: 'canvas-fingerprint' },
  'person-firefox-de': { https: 'timezone-geo', http: 'http-headers' },
  'person-firefox-blockers': { https: 'http-headers', http: 'webrtc-leak' },
  'person-webkit': { http: 'vpn-detector' },
  'person-webkit-fr': { https: 'http-headers', http: 'timezone-geo' },
  'person-webkit-mini': { https: 'bot-detector', http: 'tls-fingerprint' },
  'person-proxy': { https: 'bot-detector', http: 'bot-detector' },
  'person-firefox-proxy': { https: 'bot-detector', http: 'bot-detector' },
}

export interface WalkStep {
  /** A tool id, or RUN_PAGE (person.ts types /run for it). */
  tool: string
  how: 'first' | 'typed' | 'reload' | 'run'
}

/** The pages person `id` opens over `transport`, in order. */
export function walkOf(id: string, transport: Transport, tools: readonly string[]): WalkStep[] {
  const first = FIRST_PAGE[id]?.[transport] ?? tools[0]!
  const rest = tools.filter((t) => t !== first)
  const everyPage = transport === 'https' && WALKERS.includes(id)
  const second = everyPage ? rest[0]! : (SECOND_PAGE[id]?.[transport] ?? rest[0]!)
  const further = everyPage ? rest.filter((t) => t !== second) : []
  return [
    { tool: first, how: 'first' },
    { tool: second, how: 'typed' },
    { tool: second, how: 'reload' },
    ...further.map((tool) => ({ tool, how: 'typed' as const })),
    { tool: RUN_PAGE, how: 'run' },
  ]
}
