// vpn-detector: WebRTC addresses, the browser's time zone and languages, and the round trip
// measured in the page. The server adds its address, proxy headers and Accept-Language.
import { runToolPage } from '../core/runner'
import { fetchRtt } from '../signals/fetch-rtt'
import { iceCandidates } from '../signals/ice-candidates'
import { intlZone } from '../signals/tz-zone'

void runToolPage('vpn-detector', { ice: iceCandidates(1500, { serviceStun: true }), zone: intlZone, rtt: fetchRtt(5) }, { timeoutMs: 3000 })
