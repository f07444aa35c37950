// The same few navigator and time-zone values read in three places by
// probes/signals/scope-snapshot.ts: the page, a fresh same-origin iframe and a dedicated
// worker. bot-detector (page/iframe/worker) and browser-fingerprint
// (pageScope/iframeScope/workerScope) both send it; src/checks/scope-consistency.ts compares
// two of them.

import { Type, type Static } from '@sinclair/typebox'
import { List, NBool, NNum, NStr, Num, Str } from '../shorthands'

export const ScopeSnapshotSchema = Type.Object({
  userAgent: Str(1000),
  platform: Str(1000),
  languages: List(200, 32),
  hardwareConcurrency: NNum,
  deviceMemory: NNum,
  webdriver: NBool,
  /** Intl's resolved zone; null without one, "error: …" when Intl threw. */
  timeZone: NStr(1000),
  /** new Date().getTimezoneOffset() in that scope, minutes west of UTC. */
  timezoneOffset: Num,
  /** navigator.userAgentData.platform; null without userAgentData (not Chromium, or not a secure context). */
  uaPlatform: NStr(1000),
  /** navigator.userAgentData.brands as "brand/version, …"; null without userAgentData. */
  uaBrands: NStr(1000),
})
export type ScopeSnapshot = Static<typeof ScopeSnapshotSchema>
