import { act } from "react";
import { hydrateRoot } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { afterEach, describe, expect, it, vi } from "vitest";

import { useSettledImage } from "./use-settled-image";

/*
 * The detail's first load sends its pictures in the HTML: one that finished before hydration fired its load or error
 * event with no listener. Server HTML, then hydration, as in the browser; jsdom loads no image, so each picture's
 * state is set on the element before the page's code hydrates it.
 */

function Picture({ onLoad, onError }: { onLoad: (image: HTMLImageElement) => void; onError: () => void }) {
  const ref = useSettledImage(onLoad, onError);
  // eslint-disable-next-line @next/next/no-img-element -- a plain picture, as the media viewer draws
  return <img ref={ref} src="/api/media/token" alt="Selfie" onLoad={(event) => onLoad(event.currentTarget)} onError={onError} />;
}

async function hydrated(state: { complete: boolean; naturalWidth: number }) {
  const onLoad = vi.fn();
  const onError = vi.fn();
  const container = document.createElement("div");
  container.innerHTML = renderToString(<Picture onLoad={onLoad} onError={onError} />);
  document.body.append(container);
  const image = container.querySelector("img")!;
  Object.defineProperty(image, "complete", { value: state.complete });
  Object.defineProperty(image, "naturalWidth", { value: state.naturalWidth });
  await act(async () => {
    hydrateRoot(container, <Picture onLoad={onLoad} onError={onError} />);
  });
  return { image, onLoad, onError };
}

afterEach(() => {
  document.body.innerHTML = "";
});

describe("useSettledImage", () => {
  it("gives a picture that loaded before hydration the load handler it missed", async () => {
    const { image, onLoad, onError } = await hydrated({ complete: true, naturalWidth: 640 });
    expect(onLoad).toHaveBeenCalledExactlyOnceWith(image);
    expect(onError).not.toHaveBeenCalled();
  });

  it("gives a picture that failed before hydration the error handler", async () => {
    const { onLoad, onError } = await hydrated({ complete: true, naturalWidth: 0 });
    expect(onError).toHaveBeenCalledOnce();
    expect(onLoad).not.toHaveBeenCalled();
  });

  it("leaves a picture still loading to its own event", async () => {
    const { image, onLoad, onError } = await hydrated({ complete: false, naturalWidth: 0 });
    expect(onLoad).not.toHaveBeenCalled();
    expect(onError).not.toHaveBeenCalled();
    await act(async () => {
      image.dispatchEvent(new Event("load"));
    });
    expect(onLoad).toHaveBeenCalledExactlyOnceWith(image);
  });
});
