import { patient } from '../core/collect'
import { definePlan, type ToolPlan } from '../core/runner'
import { animationFrames } from '../signals/animation-frames'
import { apiLies } from '../signals/api-lies'
import { automationGlobals } from '../signals/automation-globals'
import { canvasNoise } from '../signals/canvas-noise'
import { cdpRuntime } from '../signals/cdp-runtime'
import { chromeObject } from '../signals/chrome-object'
import { iframeProxy } from '../signals/iframe-proxy'
import { jsEngine } from '../signals/js-engine'
import { navigationRateLimit } from '../signals/navigation-rate-limit'
import { navigatorIdentity } from '../signals/navigator-identity'
import { notificationPermission } from '../signals/notification-permission'
import { plugins } from '../signals/plugins'
import { pointerMedia } from '../signals/pointer-media'
import { iframeScope, pageScope, workerScope } from '../signals/scope-snapshot'
import { screenMetrics } from '../signals/screen'
import { sharedWorkerUa } from '../signals/shared-worker-ua'
import { FRAME_TIMEOUT_MS, storagePartition } from '../signals/storage-partition'
import { watchInputPacing } from '../signals/input-pacing'
import { CLOCK_DEFAULTS, observeEnds, watchInputClock } from '../signals/input-clock'
import { watchStackLeaks } from '../signals/stack-leaks'
import { tlsEvidence } from '../signals/tls-evidence'
import { webdriverFlag } from '../signals/webdriver'
import { webglGpu } from '../signals/webgl-gpu'
import { windowMetrics } from '../signals/window-metrics'

/** bot-detector's sources, made when its run starts (they read the page's nonce then). */
export function botDetectorPlan(): ToolPlan {
  // The DOM lookups are wrapped first, before anything else runs, so that code evaluated by a
  // driver while the tests run is seen (signals/stack-leaks.ts), and the pointer is watched from
  // the start (signals/input-pacing.ts); both report what they saw until the page submits. The
  // lie tests come first in the registry: they must see the APIs as the page received them.
  const stack = watchStackLeaks()
  const input = watchInputPacing()
  // Where each input event's time stamp falls within its millisecond (signals/input-clock.ts).
  const inputClock = watchInputClock()

  // Every source's end is observed, so that the input-clock source knows when the page's own
  // work is done (input may come until then).
  const { sources, done } = observeEnds({
    lies: apiLies,
    webdriver: webdriverFlag,
    cdp: cdpRuntime,
    // Placeholders, replaced as the page submits (below) with what was seen until then.
    stack: () => ({ hooked: 0, calls: 0, frames: [], reads: [] }),
    // …the input one once the pointer is still or probed (at once when nobody moves it).
    input: async () => {
      await input.settled()
      return { coalescing: false, moves: 0, raw: 0, wheels: 0, blocks: [] }
    },
    globals: automationGlobals,
    navigator: navigatorIdentity,
    page: pageScope,
    iframe: iframeScope,
    worker: workerScope,
    sharedWorker: sharedWorkerUa,
    iframeProxy,
    chrome: chromeObject,
    notification: notificationPermission,
    plugins,
    engine: jsEngine,
    webgl: webglGpu,
    canvas: canvasNoise,
    screen: screenMetrics,
    window: () => windowMetrics(),
    frames: () => animationFrames(),
    pointer: () => pointerMedia(),
    navRate: () => navigationRateLimit(),
    // As patient as the workers: the nested frame may take seconds to load on a busy machine.
    partition: patient(() => storagePartition(), FRAME_TIMEOUT_MS + 500),
    tlsEvidence,
  })

  return definePlan('bot-detector', {
    ...sources,
    // …and the input-clock one once it has enough stamps, or nobody touched the page while it ran.
    inputClock: patient(async () => {
      await inputClock.settled(done)
      return { events: 0, fractions: [], screenX: 0, screenY: 0 }
    }, CLOCK_DEFAULTS.capMs + 500),
  }, {
    extra(signals) {
      const watched = { stack: stack.stop(), input: input.stop(), inputClock: inputClock.stop() }
      for (const [name, value] of Object.entries(watched)) signals[name] = { ok: true, value, ms: (signals[name] as { ms?: number } | undefined)?.ms ?? 0 }
      return {}
    },
  })
}
