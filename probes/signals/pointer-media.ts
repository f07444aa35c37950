// Input devices as CSS media features report them: `pointer`/`hover` for the primary device,
// `any-pointer`/`any-hover` for all of them (https://drafts.csswg.org/mediaqueries-4/#mf-interaction).
// Chromium derives them from the devices the OS lists: a mouse or touchpad gives fine + hover,
// a touchscreen coarse + none. Headless Chromium has no input devices at all, so every query
// says none — unless the client passes Playwright's --blink-settings that fake a mouse.

import type { PointerMedia } from '../../common/signals/bot-detector'

export type PointerKind = 'fine' | 'coarse' | 'none'

export function pointerMedia(matches: (query: string) => boolean = (q) => matchMedia(q).matches): PointerMedia {
  const kinds = ['fine', 'coarse', 'none'] as const
  const hovers = ['hover', 'none'] as const
  return {
    pointer: kinds.find((k) => matches(`(pointer: ${k})`)) ?? null,
    anyPointer: kinds.filter((k) => matches(`(any-pointer: ${k})`)),
    hover: hovers.find((h) => matches(`(hover: ${h})`)) ?? null,
    anyHover: hovers.filter((h) => matches(`(any-hover: ${h})`)),
  }
}
