// Sizes of the pictures and plots the tool pages send with their signals: a module without
// TypeBox, so that the probes that read them stay small (the schemas in common/signals use
// them too).

/** The largest picture of a drawing a task keeps (characters of its data: URL), and of a noise mask. */
export const PICTURE_MAX = 6000
export const MASK_MAX = 4000

/** How many values of each kind audio-fingerprint's plot keeps. */
export const PLOT_SAMPLES = 96
export const PLOT_ENVELOPE = 64
export const PLOT_BANDS = 64
