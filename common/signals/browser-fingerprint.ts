// browser-fingerprint: the FingerprintJS component families, each read twice by the page
// (probes/signals/read-twice.ts), and the same navigator values read in the page, an iframe
// and a worker (common/signals/scope.ts), as probes/entries/browser-fingerprint.ts sends them.

import { Type, type Static, type TSchema } from '@sinclair/typebox'
import { Bool, List, NBool, NNum, NStr, Num, Str } from '../shorthands'
import { Signal } from '../signal'
import { Canvas2dHashSchema, WebglSummarySchema } from './canvas-fingerprint'
import { ScopeSnapshotSchema } from './scope'
import { JsEngineSchema, UaClientHintsSchema } from './shared'

/** A component read twice: `again` only when the second read differed. */
function Twice<T extends TSchema>(value: T) {
  return Signal(Type.Object({ value, again: Type.Optional(value) }))
}

export const COMPONENTS = {
  fonts: List(200, 200),
  canvas: Canvas2dHashSchema,
  webgl: WebglSummarySchema,
  audio: Type.Object({ sum: Num, copySum: NNum, reduction: NNum }),
  screen: Type.Object({ width: Num, height: Num, availWidth: Num, availHeight: Num, colorDepth: Num, pixelDepth: Num, orientation: NStr(1000), devicePixelRatio: Num }),
  timezone: Type.Object({ zone: NStr(1000), offset: Num, intlOffset: NNum, locale: NStr(1000), calendar: NStr(1000) }),
  languages: Type.Object({ language: Str(1000), languages: List(200, 30) }),
  navigator: Type.Object({ userAgent: Str(1000), appVersion: Str(1000), platform: Str(1000), vendor: Str(1000), productSub: Str(1000), oscpu: NStr(1000), cpuClass: NStr(1000) }),
  hardware: Type.Object({ hardwareConcurrency: NNum, deviceMemory: NNum }),
  plugins: Type.Object({
    plugins: Type.Array(Type.Object({ name: Str(1000), filename: Str(1000), mimeTypes: List(200, 20) }), { maxItems: 32 }),
    mimeTypes: Num,
    pdfViewerEnabled: NBool,
    nativePrototypes: Bool,
  }),
  vendorFlavours: Type.Object({ flavours: List(200, 20), chromeKeys: Type.Union([List(200, 20), Type.Null()]) }),
  math: Type.Record(Type.String({ maxLength: 20 }), NNum),
  media: Type.Object({
    colorGamut: NStr(1000), invertedColors: NStr(1000), forcedColors: NStr(1000), monochrome: Num, contrast: NStr(1000),
    reducedMotion: NStr(1000), reducedTransparency: NStr(1000), hdr: NStr(1000), colorScheme: NStr(1000),
  }),
  touch: Type.Object({ maxTouchPoints: Num, touchEvent: Bool }),
  storage: Type.Object({ cookieEnabled: Bool, cookies: Bool, localStorage: Bool, sessionStorage: Bool, indexedDB: Bool, openDatabase: Bool }),
  architecture: Num,
  uaData: UaClientHintsSchema,
} as const
export type ComponentName = keyof typeof COMPONENTS
/** Every component, in the order the visitor id hashes them. */
export const COMPONENT_NAMES = (Object.keys(COMPONENTS) as ComponentName[]).sort()

export const BrowserFingerprintSignals = Type.Object({
  ...(Object.fromEntries(Object.entries(COMPONENTS).map(([k, v]) => [k, Twice(v)])) as { [K in ComponentName]: ReturnType<typeof Twice<(typeof COMPONENTS)[K]>> }),
  pageScope: Signal(ScopeSnapshotSchema),
  iframeScope: Signal(ScopeSnapshotSchema),
  workerScope: Signal(ScopeSnapshotSchema),
  /** probes/signals/js-engine.ts: the engine the page runs on, told by its error messages, which the engine-dependent checks judge by. Optional: pages from before this signal do not send it. */
  engine: Type.Optional(Signal(JsEngineSchema)),
})
export type BrowserFingerprintSignals = Static<typeof BrowserFingerprintSignals>
