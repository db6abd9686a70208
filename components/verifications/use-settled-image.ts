"use client";

import { useEffect, useEffectEvent, useRef, type RefObject } from "react";

/**
 * For an <img> the server's HTML already holds (the detail's first load sends its image tokens with the page): a
 * picture that finished loading, or failing, before the page's code hydrated it fired its event with no listener, so
 * its handler never ran. Once mounted, a picture already complete gets the handler it missed. A picture still loading
 * gets its event as usual; the handlers may run twice for one picture, so they must not mind.
 */
export function useSettledImage(onLoad: (image: HTMLImageElement) => void, onError: () => void): RefObject<HTMLImageElement | null> {
  const ref = useRef<HTMLImageElement | null>(null);
  const settle = useEffectEvent(() => {
    const image = ref.current;
    if (!image?.complete) return;
    if (image.naturalWidth > 0) onLoad(image);
    else onError();
  });
  useEffect(() => settle(), []);
  return ref;
}
