// How a figure from the reference population (src/core/reference/reference.ts) and one from
// this instance's own counts (src/core/uniqueness.ts) make one (issue 59; docs/uniqueness.md).
// Pure: the weights and shares come in as arguments.

import type { ReferenceShare } from './reference'

/**
 * The reference's weight, in browsers: the instance's own counts weigh n/(n + REFERENCE_WEIGHT)
 * against it (n: the browsers it counted besides the submitter's), rescaled so that the
 * reference alone answers while that is under a tenth and the instance alone from nine tenths.
 */
export const REFERENCE_WEIGHT = 1000

/** Where a figure comes from: the reference alone, both, or this instance's counts alone. */
export type Source = 'reference' | 'blended' | 'instance'

/** What a figure says of its source (src/core/results.ts UniquenessSchema). */
export interface SourceFields {
  source: Source
  /** Whether the reference dataset has this attribute (the fingerprint: any of its attributes). */
  inReference: boolean
  /** The value's share among the reference's browsers (6 significant digits); null when the dataset lacks it. */
  referenceShare: number | null
  /** `share`, `oneIn` and `bits` are bounds (at most, at least, at least); old stored figures: `rare`. */
  bound: boolean
}

/** What the blend reads of the instance's figure (src/core/uniqueness.ts Figure). */
interface InstanceFigure {
  browsers: number | null
  rare: boolean
  share: number
}

const round = (x: number, digits: number) => Number(x.toFixed(digits))

/** A share's figures: 6 decimals (significant digits under a millionth), one in N, bits. */
export function shareFigures(share: number): { share: number; oneIn: number; bits: number } {
  return { share: share >= 1e-6 ? round(share, 6) : Number(share.toPrecision(6)), oneIn: round(1 / share, 2), bits: round(-Math.log2(share), 3) }
}

/**
 * How much the instance's own counts weigh against the reference, from the n browsers it
 * counted besides the submitter's: λ = n/(n + weight) rescaled from [0.1, 0.9] to [0, 1], so
 * 0 (the reference alone) up to n = weight/9, ½ at n = weight, 1 (the instance alone) from
 * n = 9·weight. Continuous, and the submitter's own browser (always in the counts) is no evidence.
 */
export function blendWeight(others: number, weight = REFERENCE_WEIGHT): number {
  const lambda = others / (others + weight)
  return Math.min(1, Math.max(0, (lambda - 0.1) / 0.8))
}

/**
 * A figure from the reference blended with the instance's: share = (1 − w)·reference + w·instance.
 * The instance's part is its figure as the k floor allows (for a rare value the upper bound
 * from k − 1 browsers, whatever the count), so the blend never says more than the floor lets
 * it; the reference's part is public. `browsers` and `rare` stay the instance's count and floor.
 */
export function blended(instance: InstanceFigure, ref: ReferenceShare, w: number): InstanceFigure & { oneIn: number; bits: number } & SourceFields {
  const source: Source = w <= 0 ? 'reference' : w >= 1 ? 'instance' : 'blended'
  const share = (1 - w) * ref.share + w * instance.share
  const bound = (w > 0 && instance.rare) || (w < 1 && !ref.listed)
  return { browsers: instance.browsers, rare: instance.rare, ...shareFigures(share), source, inReference: true, referenceShare: Number(ref.share.toPrecision(6)), bound }
}
