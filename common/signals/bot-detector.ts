// bot-detector: what probes/entries/bot-detector.ts reports, one schema per probe
// (probes/signals/*), so that the probe's return type is derived from what the server validates.

import { Type, type Static } from '@sinclair/typebox'
import { Bool, List, NBool, NNum, NStr, Num, Str } from '../shorthands'
import { Signal } from '../signal'
import { ScopeSnapshotSchema } from './scope'
import { JsEngineSchema, NavigatorIdentitySchema, NotificationPermissionSchema, PageProofSchema, TlsEvidenceProbeSchema } from './shared'

export { JsEngineSchema, type JsEngine } from './shared'

/** probes/signals/api-lies.ts: native getters and methods put through six tests. */
export const ApiLieSchema = Type.Object({ api: Str(100), tests: List(20, 8) })
export type ApiLie = Static<typeof ApiLieSchema>
export const ApiLiesSchema = Type.Object({
  /** Members found and tested. */
  tested: Num,
  lies: Type.Array(ApiLieSchema, { maxItems: 80 }),
})
export type ApiLies = Static<typeof ApiLiesSchema>

/** probes/signals/shared-worker-ua.ts: navigator.userAgent inside a SharedWorker. */
export const SharedWorkerUaSchema = Type.Object({ userAgent: Str(400) })
export type SharedWorkerUa = Static<typeof SharedWorkerUaSchema>

/** probes/signals/webdriver.ts */
export const WebdriverFlagSchema = Type.Object({
  /** navigator.webdriver as read (true/false), null when it is not a boolean (missing). */
  value: NBool,
  /** 'webdriver' in navigator */
  present: Bool,
  /** Names of the navigator instance's own properties (engines define none). */
  ownProperties: List(100, 20),
  /** How Navigator.prototype defines it. */
  proto: Type.Union([Type.Literal('getter'), Type.Literal('value'), Type.Literal('missing')]),
  /** The prototype getter's source is `[native code]`. */
  getterNative: NBool,
})
export type WebdriverFlag = Static<typeof WebdriverFlagSchema>

/** probes/signals/cdp-runtime.ts */
export const CdpRuntimeSchema = Type.Object({
  /** Error.prepareStackTrace was called while console.debug handled a fresh Error. */
  prepareStackTrace: Bool,
  /** The Error's own `stack` getter was read (older Chromium). */
  stackGetter: Bool,
})
export type CdpRuntime = Static<typeof CdpRuntimeSchema>

/** probes/signals/stack-leaks.ts */
export const StackLeaksSchema = Type.Object({
  /** Functions wrapped. */
  hooked: Num,
  /** Calls seen while wrapped (ours included). */
  calls: Num,
  /** Stack frames of callers outside this script that point at code (file:line:column). */
  frames: List(200, 12),
  /**
   * What code evaluated in the page (frames without a script URL) asked the DOM for, e.g.
   * `dataset.task` or `querySelector(body[data-task])`. Optional: pages from before it do not send it.
   */
  reads: Type.Optional(List(120, 12)),
})
export type StackLeaks = Static<typeof StackLeaksSchema>

/**
 * probes/signals/input-pacing.ts: a main-thread block the page made while the pointer moved,
 * and the pointer input around it, from the events' own time stamps (coalesced ones included).
 */
export const InputBlockSchema = Type.Object({
  /** How long the main thread was held (ms). */
  ms: Num,
  /** Median interval of the input events just before the block (ms); null with too few. */
  before: NNum,
  /** Input events created while the main thread was held. */
  inBlock: Num,
  /** Interval of the first two input events created after it (ms); null when the pointer stopped. */
  after: NNum,
  /**
   * Of the block, the time the page's own thread did not run (gaps of more than 3 ms between two
   * reads of the clock in the busy loop, ms): another process had the CPU, and the one moving
   * the pointer may have waited alike. Absent from pages before it.
   */
  lostMs: Type.Optional(Num),
})
export type InputBlock = Static<typeof InputBlockSchema>


export const InputPacingSchema = Type.Object({
  /** PointerEvent.getCoalescedEvents exists: without it queued input cannot be told apart. */
  coalescing: Bool,
  /** pointermove events delivered, input events they carried, wheel events. */
  moves: Num,
  raw: Num,
  wheels: Num,
  blocks: Type.Array(InputBlockSchema, { maxItems: 8 }),
})
export type InputPacing = Static<typeof InputPacingSchema>

/** probes/signals/input-clock.ts: where within its millisecond each trusted input event was stamped. */
export const InputClockSchema = Type.Object({
  /** Trusted mouse, pen, wheel and key events seen. */
  events: Num,
  /** event.timeStamp modulo 1 ms (0–0.99) of the first distinct stamps, coalesced ones included. */
  fractions: Type.Array(Num, { maxItems: 64 }),
  /** window.screenX and screenY as the page submits (native Wayland puts every window at 0, 0). */
  screenX: Num,
  screenY: Num,
})
export type InputClock = Static<typeof InputClockSchema>

/** probes/signals/automation-globals.ts */
export const AutomationGlobalsSchema = Type.Object({
  window: List(200, 20),
  document: List(200, 20),
  /** Attributes of <html> named webdriver, selenium or driver. */
  attributes: List(20, 3),
})
export type AutomationGlobals = Static<typeof AutomationGlobalsSchema>

/** probes/signals/iframe-proxy.ts */
export const IframeProxySchema = Type.Object({
  /** iframe.contentWindow === window[index of the frame] */
  sameAsFrames: Bool,
  /** contentWindow.self === contentWindow */
  selfIsWindow: Bool,
  /** The contentWindow getter is native code. */
  getterNative: Bool,
  /** typeof contentWindow.chrome */
  chrome: Str(32),
})
export type IframeProxy = Static<typeof IframeProxySchema>

/** probes/signals/chrome-object.ts */
export const ChromeFnSchema = Type.Object({ native: Bool, constructible: Bool })
export type ChromeFn = Static<typeof ChromeFnSchema>
export const ChromeObjectSchema = Type.Object({
  present: Bool,
  keys: List(100, 20),
  runtime: Bool,
  functions: Type.Record(Str(64), ChromeFnSchema),
})
export type ChromeObject = Static<typeof ChromeObjectSchema>

/** probes/signals/plugins.ts (the members judged here). */
export const PluginsSchema = Type.Object({
  plugins: Type.Array(Type.Object({ name: Str(200) }), { maxItems: 32 }),
  mimeTypes: Num,
  pdfViewerEnabled: NBool,
  nativePrototypes: Bool,
})

/** probes/signals/webgl-gpu.ts */
export const WebglGpuSchema = Type.Object({ vendor: Str(500), renderer: Str(500), unmaskedVendor: NStr(500), unmaskedRenderer: NStr(500) })

/** probes/signals/canvas-noise.ts */
export const CanvasNoiseSchema = Type.Object({
  hash: Str(64),
  stable: Bool,
  /** Known-answer pixels that read back wrong (null when that read was refused). */
  knownWrong: NNum,
  /** The known-answer read-back was one flat colour (reading blocked, not noised). */
  knownFlat: NBool,
})
export type CanvasNoise = Static<typeof CanvasNoiseSchema>

/** probes/signals/screen.ts (the members judged here). */
export const ScreenSizeSchema = Type.Object({ width: Num, height: Num, availWidth: Num, availHeight: Num, colorDepth: Num })
/** probes/signals/window-metrics.ts (the members judged here). */
export const WindowSizeSchema = Type.Object({ innerWidth: Num, innerHeight: Num, outerWidth: Num, outerHeight: Num })

/** probes/signals/animation-frames.ts */
export const AnimationFramesSchema = Type.Object({
  /** requestAnimationFrame callbacks run. */
  frames: Num,
  /** 50 ms timer ticks run. */
  ticks: Num,
  waitedMs: Num,
  /** When the first frame came, from the start of the probe (null: none came). */
  firstFrameMs: NNum,
  /** When steady drawing was seen (null: never within the wait). */
  steadyAtMs: NNum,
  /** The most ticks in a row without a frame, after the first frame. */
  maxTicksWithoutFrame: Num,
  /** document.visibilityState was "visible" throughout. */
  visible: Bool,
})
export type AnimationFrames = Static<typeof AnimationFramesSchema>

/** probes/signals/pointer-media.ts: CSS pointer/any-pointer/hover/any-hover. */
export const PointerMediaSchema = Type.Object({
  pointer: NStr(8),
  /** Every kind `any-pointer` matches. */
  anyPointer: List(8, 3),
  hover: NStr(8),
  anyHover: List(8, 2),
})
export type PointerMedia = Static<typeof PointerMediaSchema>

/** probes/signals/navigation-rate-limit.ts */
export const NavigationRateLimitSchema = Type.Object({
  /** replaceState calls made. */
  calls: Num,
  /** Calls that returned without throwing. */
  accepted: Num,
  /** The number of the call whose state history.state holds afterwards (null: none of ours). */
  lastApplied: NNum,
  /** The error that stopped the loop, if one did (Firefox, Safari). */
  error: NStr(200),
})
export type NavigationRateLimit = Static<typeof NavigationRateLimitSchema>

/** probes/signals/storage-partition.ts */
export const StoragePartitionSchema = Type.Object({
  /**
   * What a frame of the page's own origin, nested under a cross-site (opaque, data:) frame, found
   * in localStorage: `partitioned` its own empty storage, `shared` the value the page had just
   * written, `denied` a SecurityError on reading localStorage there.
   */
  state: Type.Union([Type.Literal('partitioned'), Type.Literal('shared'), Type.Literal('denied')]),
  /** The error's name and message when denied. */
  error: NStr(200),
  /** Promise.withResolvers exists (V8 11.9: Chromium 119 and later, Firefox 121 and later). */
  withResolvers: Bool,
})
export type StoragePartition = Static<typeof StoragePartitionSchema>

export const BotDetectorSignals = Type.Object({
  lies: Signal(ApiLiesSchema),
  webdriver: Signal(WebdriverFlagSchema),
  cdp: Signal(CdpRuntimeSchema),
  stack: Signal(StackLeaksSchema),
  globals: Signal(AutomationGlobalsSchema),
  navigator: Signal(NavigatorIdentitySchema),
  page: Signal(ScopeSnapshotSchema),
  iframe: Signal(ScopeSnapshotSchema),
  worker: Signal(ScopeSnapshotSchema),
  iframeProxy: Signal(IframeProxySchema),
  chrome: Signal(ChromeObjectSchema),
  notification: Signal(NotificationPermissionSchema),
  plugins: Signal(PluginsSchema),
  engine: Signal(JsEngineSchema),
  webgl: Signal(WebglGpuSchema),
  canvas: Signal(CanvasNoiseSchema),
  screen: Signal(ScreenSizeSchema),
  window: Signal(WindowSizeSchema),
  frames: Signal(AnimationFramesSchema),
  pointer: Signal(PointerMediaSchema),
  navRate: Signal(NavigationRateLimitSchema),
  /** Optional: pages from before the TLS evidence listener, and other clients, do not send it. */
  tlsEvidence: Type.Optional(Signal(TlsEvidenceProbeSchema)),
  /** probes/signals/page-proof.ts: the page's answer to its layout challenge, which the server verifies against the nonce (results.server.proof). Optional: pages from before it do not send it. */
  proof: Type.Optional(Signal(PageProofSchema)),
  /** Optional: pages from before this signal do not send it. */
  sharedWorker: Type.Optional(Signal(SharedWorkerUaSchema)),
  /** Optional: pages from before this signal do not send it. */
  partition: Type.Optional(Signal(StoragePartitionSchema)),
  /** Optional: pages from before this signal do not send it. */
  input: Type.Optional(Signal(InputPacingSchema)),
  /** Optional: pages from before this signal do not send it. */
  inputClock: Type.Optional(Signal(InputClockSchema)),
})
export type BotDetectorSignals = Static<typeof BotDetectorSignals>
