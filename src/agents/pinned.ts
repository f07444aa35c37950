// AGENT_DIRECTORIES (issue 60): the key directories an operator trusts, each with the name the
// pages and the task give its agent: `ChatGPT agent=https://chatgpt.com, Example=https://…`. An
// origin stands for its well-known directory, as in Signature-Agent (src/agents/signature.ts).

import { directoryUrl } from './signature'

export function parsePinnedDirectories(value: string): { ok: true; map: Map<string, string> } | { ok: false; error: string } {
  const map = new Map<string, string>()
  for (const part of value.split(',').map((p) => p.trim()).filter(Boolean)) {
    const at = part.indexOf('=')
    const name = at > 0 ? part.slice(0, at).trim() : ''
    const url = at > 0 ? directoryUrl(part.slice(at + 1).trim()) : null
    if (!name || !url) return { ok: false, error: `Expected <name>=<https URL> entries separated by commas, got '${part}'` }
    map.set(url, name)
  }
  return { ok: true, map }
}
