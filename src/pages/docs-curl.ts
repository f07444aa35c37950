// The API docs page's curl examples, from the OpenAPI document's own example body.

import { type ApiDocument, pretty } from './openapi-parts'

/** A POSIX shell single-quoted word. */
const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`

export function curlExamples(doc: ApiDocument, baseUrl: string) {
  const create = doc.paths['/api/antibot/tasks']?.post
  const example = create?.requestBody?.content?.['application/json']?.example ?? { tool: 'bot-detector', results: {} }
  const tasks = `${baseUrl}/api/antibot/tasks`
  return {
    create: `curl -sS -X POST ${shellQuote(tasks)} \\\n  -H 'Content-Type: application/json' \\\n  -d ${shellQuote(JSON.stringify(example))}`,
    created: pretty({ task_id: '3f1c2a9e-8b4d-4c6e-9f0a-1b2c3d4e5f60' }),
    byQuery: `curl -sS ${shellQuote(`${tasks}/<task_id>?apikey=<API_KEY>`)}`,
    byHeader: `curl -sS -H 'Authorization: Bearer <API_KEY>' \\\n  ${shellQuote(`${tasks}/<task_id>`)}`,
    headers: `curl -sS -i -H 'Authorization: Bearer <API_KEY>' ${shellQuote(`${tasks}/<task_id>`)}`,
  }
}
