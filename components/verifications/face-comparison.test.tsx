import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";

import type { CropBox } from "@/lib/verifications/crop";
import { mockApi, renderWithProviders } from "@/test/render";

import { FaceComparison } from "./face-comparison";

/*
 * The face comparison: the zoom, pan and rotation shared by both pictures (buttons, keys, wheel, double click)
 * and the document's portrait crop (drawn with the keyboard, saved, shown, set aside). jsdom lays nothing out:
 * the frames are given a width (400 px) and the document picture a natural size, as a browser would measure
 * them, through ResizeObserver and the image's load.
 */

const ID = "ver-faces-1";
const FRAME = 400;

const media = {
  items: ["selfie", "document_front"].map((key) => ({
    key,
    available: true,
    src: `/api/media/token-${key}`,
    mediaType: "image/jpeg",
    expiresAt: "2026-03-10T13:00:00Z",
    expiresInSeconds: 3600,
  })),
};

function answers(saved: CropBox | null = null) {
  return mockApi({
    [`GET /api/verifications/${ID}/media`]: media,
    [`GET /api/verifications/${ID}/crop`]: { crop: saved ? { box: saved, setAt: "2026-03-09T12:00:00Z" } : null },
    [`PUT /api/verifications/${ID}/crop`]: ({ body }) => ({ status: 200, body: { crop: { box: body, setAt: "2026-03-10T12:00:00Z" } } }),
    [`DELETE /api/verifications/${ID}/crop`]: { cleared: true },
  });
}

beforeEach(() => {
  // The layout a browser would give: square frames 400 px wide, measured by ResizeObserver once observed.
  vi.spyOn(HTMLElement.prototype, "clientWidth", "get").mockReturnValue(FRAME);
  vi.spyOn(HTMLImageElement.prototype, "naturalWidth", "get").mockReturnValue(800);
  vi.spyOn(HTMLImageElement.prototype, "naturalHeight", "get").mockReturnValue(500);
  vi.stubGlobal(
    "ResizeObserver",
    class {
      constructor(private readonly callback: ResizeObserverCallback) {}
      observe() {
        this.callback([], this as unknown as ResizeObserver);
      }
      unobserve() {}
      disconnect() {}
    },
  );
});

async function renderFaces({ canCrop = false, saved = null as CropBox | null, similarity = 91.5 } = {}) {
  const api = answers(saved);
  const view = renderWithProviders(<FaceComparison publicId={ID} similarity={similarity} canCrop={canCrop} />);
  const selfie = await screen.findByRole("img", { name: `Selfie of verification ${ID}` });
  const documentFace = screen.getByRole("img", { name: `Document (front) of verification ${ID}` });
  for (const image of [selfie, documentFace]) fireEvent.load(image);
  return {
    api,
    selfie,
    documentFace,
    stage: screen.getByRole("group", { name: "Selfie and document face, zoomed and panned together" }),
    ...view,
  };
}

const readout = () => within(screen.getByRole("toolbar", { name: "Face comparison controls" })).getByText(/^Zoom \d+ %/);
/** The transform both pictures are drawn with (pan and zoom on each picture's wrapper). */
const transformOf = (image: HTMLElement) => (image.closest("[data-zoom]") as HTMLElement).style.transform;

describe("FaceComparison: zoom", () => {
  it("zooms both pictures together with the buttons, and resets", async () => {
    const { user, selfie, documentFace } = await renderFaces();
    expect(readout()).toHaveTextContent("Zoom 100 %, rotated 0°");
    await user.click(screen.getByRole("button", { name: "Zoom in" }));
    await user.click(screen.getByRole("button", { name: "Zoom in" }));
    expect(readout()).toHaveTextContent("Zoom 156 %");
    expect(transformOf(selfie)).toContain("scale(1.5625)");
    expect(transformOf(documentFace)).toBe(transformOf(selfie));

    await user.click(screen.getByRole("button", { name: "Zoom out" }));
    expect(readout()).toHaveTextContent("Zoom 125 %");
    await user.click(screen.getByRole("button", { name: "Reset zoom and rotation" }));
    expect(readout()).toHaveTextContent("Zoom 100 %, rotated 0°");
  });

  it("never zooms out below the whole picture", async () => {
    const { user } = await renderFaces();
    await user.click(screen.getByRole("button", { name: "Zoom out" }));
    expect(readout()).toHaveTextContent("Zoom 100 %");
  });

  it("answers the keys while the pictures have the focus: + zooms, arrows pan, r rotates, 0 resets", async () => {
    const { user, stage, selfie } = await renderFaces();
    stage.focus();
    await user.keyboard("++");
    expect(readout()).toHaveTextContent("Zoom 156 %");
    await user.keyboard("{ArrowRight}");
    // Panning shows more of the right: the picture moves left by 40 px, within the frame.
    expect((selfie.closest("[data-zoom]") as HTMLElement).dataset.x).toBe(String(Math.round(FRAME / 2 - (FRAME / 2) * 1.5625 - 40)));
    await user.keyboard("r");
    expect(readout()).toHaveTextContent("rotated 90°");
    expect(selfie.style.transform).toBe("rotate(90deg)");
    await user.keyboard("0");
    expect(readout()).toHaveTextContent("Zoom 100 %, rotated 0°");
  });

  it("zooms where the pointer is: the wheel by a step, a double click twice", async () => {
    const { stage, selfie } = await renderFaces();
    fireEvent.wheel(stage, { deltaY: -100, clientX: 0, clientY: 0 });
    expect(readout()).toHaveTextContent("Zoom 125 %");
    // The frame's top-left corner stays under a pointer there.
    expect(transformOf(selfie)).toBe("translate(0px, 0px) scale(1.25)");
    fireEvent.doubleClick(stage, { clientX: 0, clientY: 0 });
    expect(readout()).toHaveTextContent("Zoom 250 %");
  });

  it("says whether the similarity is above the threshold", async () => {
    await renderFaces({ similarity: 12 });
    expect(screen.getByText("✕ does not count as valid")).toBeVisible();
    expect(screen.getByRole("meter", { name: "Similarity" })).toHaveAttribute("aria-valuetext", "12 %");
    expect(screen.getByText("(80 % validity line)")).toBeVisible();
  });
});

describe("FaceComparison: the portrait crop", () => {
  it("draws a crop with the keyboard and saves it for everyone; the document frame then shows the portrait", async () => {
    const { user, api } = await renderFaces({ canCrop: true });
    await user.click(await screen.findByRole("button", { name: "Crop to the portrait" }));
    // The editor loads when first asked for.
    const box = await screen.findByRole("group", { name: "Portrait crop on the document" });
    box.focus();
    // Arrows move the box by 1 % of the picture, Shift+arrows resize it.
    await user.keyboard("{ArrowRight}{ArrowRight}{Shift>}{ArrowDown}{/Shift}");
    await user.click(screen.getByRole("button", { name: "Save crop" }));

    expect(await screen.findByText("Crop saved.")).toBeVisible();
    const [put] = api.callsTo(`PUT /api/verifications/${ID}/crop`);
    const sent = put?.body as CropBox;
    expect(sent.x).toBeCloseTo(0.07);
    expect(sent.y).toBeCloseTo(0.15);
    expect(sent.w).toBeCloseTo(0.35);
    expect(sent.h).toBeCloseTo(0.71);
    expect(screen.getByText("Document (portrait crop)")).toBeVisible();
    expect(screen.queryByRole("group", { name: "Portrait crop on the document" })).not.toBeInTheDocument();
  });

  it("cancelling a drawn crop sends nothing", async () => {
    const { user, api } = await renderFaces({ canCrop: true });
    await user.click(await screen.findByRole("button", { name: "Crop to the portrait" }));
    await user.click(screen.getByRole("button", { name: "Cancel" }));
    expect(screen.getByRole("button", { name: "Crop to the portrait" })).toBeVisible();
    expect(api.callsTo(`PUT /api/verifications/${ID}/crop`)).toHaveLength(0);
  });

  it("a saved crop is shown, can be set aside to see the whole document, and cleared", async () => {
    const { user, api } = await renderFaces({ canCrop: true, saved: { x: 0.1, y: 0.2, w: 0.3, h: 0.6 } });
    expect(await screen.findByText("Document (portrait crop)")).toBeVisible();
    const whole = screen.getByRole("button", { name: "Show the whole document" });
    await user.click(whole);
    expect(screen.getByText("Document (face side)")).toBeVisible();
    expect(screen.getByRole("button", { name: "Show the portrait" })).toHaveAttribute("aria-pressed", "true");

    await user.click(screen.getByRole("button", { name: "Clear crop" }));
    await waitFor(() => expect(api.callsTo(`DELETE /api/verifications/${ID}/crop`)).toHaveLength(1));
    expect(await screen.findByRole("button", { name: "Crop to the portrait" })).toBeVisible();
  });

  it("a member without the crop permission sees the saved crop but cannot change it", async () => {
    await renderFaces({ canCrop: false, saved: { x: 0.1, y: 0.2, w: 0.3, h: 0.6 } });
    expect(await screen.findByText("Document (portrait crop)")).toBeVisible();
    expect(screen.queryByRole("button", { name: "Change the crop" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Clear crop" })).not.toBeInTheDocument();
  });
});
