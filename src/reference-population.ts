// The uniqueness figures' reference population (issue 59; docs/uniqueness.md), read once at
// start from the committed src/core/reference/population.json (built by hand with
// src/cli/reference-data.ts from fingerprint-generator's network; nothing is downloaded).
// main.ts passes it to the app; an app built without it counts the instance's browsers alone.

import { readFileSync } from 'node:fs'
import type { ReferenceData } from './core/reference/reference'

export const REFERENCE_POPULATION_PATH = new URL('./core/reference/population.json', import.meta.url)

/** The reference tables; throws when the file is missing or not the reference's shape. */
export function loadReferencePopulation(path: URL | string = REFERENCE_POPULATION_PATH): ReferenceData {
  const data = JSON.parse(readFileSync(path, 'utf8')) as ReferenceData
  if (typeof data?.dataset?.name !== 'string' || typeof data.dataset.fingerprints !== 'number' || typeof data.groups !== 'object' || typeof data.tables !== 'object') {
    throw new Error(`Cannot load the reference population from ${String(path)}: it has no dataset, groups and tables (rebuild it with bun src/cli/reference-data.ts)`)
  }
  return data
}
