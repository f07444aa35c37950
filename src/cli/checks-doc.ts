// Writes docs/checks.md from the tools' check lists (npm run docs:checks).
import { checksMarkdown } from '../core/tools/check-list'

await Bun.write(new URL('../../docs/checks.md', import.meta.url), checksMarkdown())
console.log('docs/checks.md written')
