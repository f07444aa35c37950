// Property tests (fast-check) with a fixed seed: a failure names the property, the seed and the
// number of runs with the counterexample, and FUZZ_SEED / FUZZ_RUNS replay or widen it.

import fc from 'fast-check'

export interface FuzzSettings {
  seed: number
  runs: number
}

/** The seed and runs for a suite: its defaults, unless FUZZ_SEED / FUZZ_RUNS say otherwise. */
export function fuzzSettings(defaultSeed: number, defaultRuns: number): FuzzSettings {
  return { seed: Number(process.env.FUZZ_SEED ?? defaultSeed), runs: Number(process.env.FUZZ_RUNS ?? defaultRuns) }
}

/** Asserts an async property; a failure is rethrown naming it, with how to replay it. */
export async function checkProperty<T>(name: string, arb: fc.Arbitrary<T>, predicate: (v: T) => Promise<void>, settings: FuzzSettings): Promise<void> {
  try {
    await fc.assert(fc.asyncProperty(arb, predicate), { seed: settings.seed, numRuns: settings.runs })
  } catch (e) {
    const cause = e instanceof Error && e.cause instanceof Error ? `\nCaused by: ${e.cause.message}` : ''
    throw new Error(`fuzz '${name}' failed (FUZZ_SEED=${settings.seed}, FUZZ_RUNS=${settings.runs}):\n${e instanceof Error ? e.message : String(e)}${cause}`)
  }
}
