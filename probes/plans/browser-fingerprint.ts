// browser-fingerprint: the FingerprintJS component families, each read twice (noise shows as
// a difference), and the same navigator values read in an iframe and a worker. The server
// hashes the components and judges their consistency, engine-specific values by the engine
// the page runs on (its error messages).
import { definePlan, type ToolPlan } from '../core/runner'
import { jsEngine } from '../signals/js-engine'
import { architecture } from '../signals/architecture'
import { audioSum } from '../signals/audio'
import { canvas2dHash } from '../signals/canvas-2d'
import { quickFonts } from '../signals/fonts-quick'
import { hardware } from '../signals/hardware'
import { languages } from '../signals/languages'
import { mathFingerprint } from '../signals/math-fingerprint'
import { mediaPreferences } from '../signals/media-preferences'
import { navigatorProps } from '../signals/navigator-props'
import { plugins } from '../signals/plugins'
import { readTwice } from '../signals/read-twice'
import { iframeScope, pageScope, workerScope } from '../signals/scope-snapshot'
import { screenMetrics } from '../signals/screen'
import { storageAvailability } from '../signals/storage-availability'
import { timezoneBasics } from '../signals/timezone-basics'
import { touchSupport } from '../signals/touch'
import { uaClientHints } from '../signals/ua-client-hints'
import { vendorFlavours } from '../signals/vendor-flavours'
import { webglInfo } from '../signals/webgl'

/** browser-fingerprint's sources, made when its run starts (they read the page's nonce then). */
export function browserFingerprintPlan(): ToolPlan {
  return definePlan('browser-fingerprint', {
    fonts: readTwice(quickFonts),
    canvas: readTwice(canvas2dHash),
    webgl: readTwice(webglInfo),
    audio: readTwice(audioSum),
    screen: readTwice(() => ({ ...screenMetrics(), devicePixelRatio })),
    timezone: readTwice(timezoneBasics),
    languages: readTwice(languages),
    navigator: readTwice(navigatorProps),
    hardware: readTwice(hardware),
    plugins: readTwice(plugins),
    vendorFlavours: readTwice(vendorFlavours),
    math: readTwice(mathFingerprint),
    media: readTwice(mediaPreferences),
    touch: readTwice(touchSupport),
    storage: readTwice(storageAvailability),
    architecture: readTwice(architecture),
    uaData: readTwice(uaClientHints),
    pageScope,
    iframeScope,
    workerScope,
    engine: jsEngine,
  })
}
