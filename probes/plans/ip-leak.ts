// ip-leak: the addresses the page itself can reveal. The server adds what it saw of the POST
// that submits these results: its address and proxy headers.
import { definePlan, type ToolPlan } from '../core/runner'
import { iceCandidates } from '../signals/ice-candidates'
import { ipFamilies } from '../signals/ip-families'

/** ip-leak's sources, made when its run starts (they read the page's nonce then). */
export function ipLeakPlan(): ToolPlan {
  // Host candidates take ~150 ms; 1.5 s is plenty without STUN servers and keeps the page fast.
  return definePlan('ip-leak', { ice: iceCandidates(1500), families: ipFamilies }, { timeoutMs: 3000 })
}
