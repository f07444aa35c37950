// Every tool's signal schema by tool id: what its page sends as `results.signals`. The page
// runner (probes/core/runner.ts) is typed by it, so a probe whose output drifts from the
// schema the server validates fails the type check; the server validates with the same schemas.

import { AudioFingerprintSignals } from './audio-fingerprint'

export const TOOL_SIGNALS = {
  'audio-fingerprint': AudioFingerprintSignals,
} as const

export type ToolWithSignals = keyof typeof TOOL_SIGNALS
