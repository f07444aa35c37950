// tests/page-proof.e2e.ts loads the page's proof probe by itself into a page, to lay many
// challenges out in one browser: this entry puts it on window.
import { pageProof } from '../../probes/signals/page-proof'

;(window as unknown as { pageProof: typeof pageProof }).pageProof = pageProof
