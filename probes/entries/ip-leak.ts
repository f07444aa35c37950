// ip-leak: the addresses the page itself can reveal. The server adds what it saw of the POST
// that submits these results: its address and proxy headers.
import { runToolPage } from '../core/runner'
import { iceCandidates } from '../signals/ice-candidates'
import { ipFamilies } from '../signals/ip-families'

// Host candidates take ~150 ms; 1.5 s is plenty without STUN servers and keeps the page fast.
void runToolPage('ip-leak', { ice: iceCandidates(1500), families: ipFamilies }, { timeoutMs: 3000 })
