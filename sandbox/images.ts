/*
 * Real, valid PNG pictures drawn from scratch (node:zlib for the deflate stream): a selfie, the front and
 * the back of an identity card. Colours, shapes and "text" lines derive from a per-person seed, so each
 * person's pictures differ, and the three pictures of one person differ from each other.
 */
import { deflateSync } from "node:zlib";

import { chance, int, mulberry32, pick, type Rng } from "./fixtures/prng";

export type ImageKind = "selfie" | "document_front" | "document_back";
type Color = readonly [number, number, number];

export const IMAGE_WIDTH = 240;
export const IMAGE_HEIGHT = 300;

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) crc = CRC_TABLE[(crc ^ bytes[i]!) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "ascii");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** 8-bit RGB, no interlace, filter 0 on every row. */
export function encodePng(width: number, height: number, rgb: Uint8Array): Buffer {
  const stride = width * 3;
  const raw = Buffer.alloc(height * (stride + 1));
  for (let y = 0; y < height; y++) {
    raw[y * (stride + 1)] = 0;
    raw.set(rgb.subarray(y * stride, (y + 1) * stride), y * (stride + 1) + 1);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: truecolour
  ihdr[10] = 0;
  ihdr[11] = 0;
  ihdr[12] = 0;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(raw)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

class Canvas {
  readonly data: Uint8Array;
  /** Drawing outside this box is dropped: [x0, y0, x1, y1), whole canvas by default. */
  clip: [number, number, number, number];
  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.data = new Uint8Array(width * height * 3);
    this.clip = [0, 0, width, height];
  }

  private set(x: number, y: number, color: Color): void {
    if (x < this.clip[0] || y < this.clip[1] || x >= this.clip[2] || y >= this.clip[3]) return;
    const at = (y * this.width + x) * 3;
    this.data[at] = color[0];
    this.data[at + 1] = color[1];
    this.data[at + 2] = color[2];
  }

  rect(x: number, y: number, w: number, h: number, color: Color): void {
    const x0 = Math.max(0, Math.round(x));
    const y0 = Math.max(0, Math.round(y));
    const x1 = Math.min(this.width, Math.round(x + w));
    const y1 = Math.min(this.height, Math.round(y + h));
    for (let yy = y0; yy < y1; yy++) for (let xx = x0; xx < x1; xx++) this.set(xx, yy, color);
  }

  verticalGradient(top: Color, bottom: Color): void {
    for (let y = 0; y < this.height; y++) {
      const t = y / (this.height - 1);
      const color: Color = [0, 1, 2].map((c) => Math.round(top[c]! + (bottom[c]! - top[c]!) * t)) as unknown as Color;
      this.rect(0, y, this.width, 1, color);
    }
  }

  ellipse(cx: number, cy: number, rx: number, ry: number, color: Color): void {
    for (let y = Math.floor(cy - ry); y <= Math.ceil(cy + ry); y++) {
      const dy = (y - cy) / ry;
      if (dy * dy > 1) continue;
      const half = rx * Math.sqrt(1 - dy * dy);
      for (let x = Math.ceil(cx - half); x <= Math.floor(cx + half); x++) this.set(x, y, color);
    }
  }

  ring(cx: number, cy: number, rx: number, ry: number, thickness: number, color: Color): void {
    for (let y = Math.floor(cy - ry); y <= Math.ceil(cy + ry); y++) {
      for (let x = Math.floor(cx - rx); x <= Math.ceil(cx + rx); x++) {
        const d = Math.sqrt(((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2);
        if (d <= 1 && d >= 1 - thickness / Math.min(rx, ry)) this.set(x, y, color);
      }
    }
  }
}

const SKIN: readonly Color[] = [
  [255, 224, 196],
  [241, 194, 160],
  [224, 172, 128],
  [198, 134, 90],
  [141, 85, 54],
  [96, 60, 38],
];
const HAIR: readonly Color[] = [
  [30, 24, 20],
  [70, 45, 30],
  [120, 80, 45],
  [190, 150, 90],
  [150, 150, 150],
  [20, 20, 30],
];
const EYES: readonly Color[] = [
  [60, 40, 25],
  [40, 90, 60],
  [50, 80, 130],
  [90, 60, 30],
];
const CLOTHES: readonly Color[] = [
  [40, 70, 140],
  [150, 40, 50],
  [40, 110, 80],
  [230, 230, 235],
  [60, 60, 60],
  [200, 150, 40],
  [110, 60, 140],
];
const BACKDROP: readonly Color[] = [
  [205, 215, 230],
  [230, 220, 200],
  [210, 230, 215],
  [235, 210, 215],
  [220, 220, 220],
];

interface Traits {
  skin: Color;
  hair: Color;
  eyes: Color;
  clothes: Color;
  backdrop: Color;
  hairStyle: number;
  faceWidth: number;
  glasses: boolean;
  beard: boolean;
}

function traitsFor(rng: Rng): Traits {
  return {
    skin: pick(rng, SKIN),
    hair: pick(rng, HAIR),
    eyes: pick(rng, EYES),
    clothes: pick(rng, CLOTHES),
    backdrop: pick(rng, BACKDROP),
    hairStyle: int(rng, 0, 2),
    faceWidth: int(rng, 50, 62),
    glasses: chance(rng, 0.25),
    beard: chance(rng, 0.2),
  };
}

function shade(color: Color, factor: number): Color {
  return [color[0] * factor, color[1] * factor, color[2] * factor].map((c) =>
    Math.max(0, Math.min(255, Math.round(c))),
  ) as unknown as Color;
}

/** A head and shoulders in a 240x300 frame, drawn at (ox, oy) with scale s. */
function portrait(canvas: Canvas, traits: Traits, ox: number, oy: number, s: number): void {
  const X = (x: number) => ox + x * s;
  const Y = (y: number) => oy + y * s;
  const fw = traits.faceWidth;
  if (traits.hairStyle === 1) canvas.ellipse(X(120), Y(150), fw * 1.35 * s, 95 * s, traits.hair); // long hair behind
  canvas.ellipse(X(120), Y(320), 110 * s, 85 * s, traits.clothes); // shoulders
  canvas.rect(X(100), Y(190), 40 * s, 50 * s, shade(traits.skin, 0.9)); // neck
  canvas.ellipse(X(120), Y(135), fw * s, 72 * s, traits.skin); // face
  canvas.ellipse(X(120 - fw), Y(140), 8 * s, 14 * s, shade(traits.skin, 0.93)); // ears
  canvas.ellipse(X(120 + fw), Y(140), 8 * s, 14 * s, shade(traits.skin, 0.93));
  if (traits.hairStyle !== 2)
    canvas.ellipse(X(120), Y(85), fw * 1.05 * s, 36 * s, traits.hair); // hair on top
  else canvas.ellipse(X(120), Y(78), fw * 0.95 * s, 20 * s, traits.hair); // short crop
  for (const side of [-1, 1]) {
    const ex = 120 + side * 22;
    canvas.rect(X(ex - 12), Y(108), 24 * s, 4 * s, shade(traits.hair, 0.9)); // eyebrow
    canvas.ellipse(X(ex), Y(126), 11 * s, 6 * s, [250, 250, 250]);
    canvas.ellipse(X(ex), Y(126), 5 * s, 5 * s, traits.eyes);
    canvas.ellipse(X(ex), Y(126), 2 * s, 2 * s, [10, 10, 10]);
    if (traits.glasses) canvas.ring(X(ex), Y(126), 17 * s, 13 * s, Math.max(1, 2.5 * s), [30, 30, 30]);
  }
  if (traits.glasses) canvas.rect(X(113), Y(124), 14 * s, Math.max(1, 2 * s), [30, 30, 30]);
  canvas.rect(X(117), Y(132), 6 * s, 26 * s, shade(traits.skin, 0.85)); // nose
  if (traits.beard) canvas.ellipse(X(120), Y(182), fw * 0.8 * s, 24 * s, shade(traits.hair, 1.1));
  canvas.ellipse(X(120), Y(175), 18 * s, 6 * s, [170, 70, 70]); // mouth
}

function textLines(canvas: Canvas, rng: Rng, x: number, y: number, maxWidth: number, lines: number, color: Color): void {
  for (let i = 0; i < lines; i++) {
    canvas.rect(x, y + i * 16, maxWidth * 0.35, 3, shade(color, 1.8)); // label
    canvas.rect(x, y + i * 16 + 5, int(rng, Math.round(maxWidth * 0.4), maxWidth), 6, color); // value
  }
}

function card(canvas: Canvas, tint: Color): void {
  canvas.verticalGradient([88, 94, 102], [60, 64, 70]); // table
  canvas.rect(10, 18, 220, 264, shade(tint, 0.7)); // border
  canvas.rect(12, 20, 216, 260, tint);
  for (let y = 24; y < 278; y += 6) canvas.rect(14, y, 212, 1, shade(tint, 0.96)); // security print
}

const CARD_TINTS: readonly Color[] = [
  [214, 232, 208],
  [226, 236, 214],
  [208, 224, 236],
  [236, 228, 206],
];

export function renderImage(kind: ImageKind, personSeed: number): Buffer {
  const rng = mulberry32(personSeed);
  const traits = traitsFor(rng);
  const tint = pick(rng, CARD_TINTS);
  const canvas = new Canvas(IMAGE_WIDTH, IMAGE_HEIGHT);
  const detail = mulberry32((personSeed ^ (kind === "selfie" ? 0x51 : kind === "document_front" ? 0xf7 : 0xb4)) >>> 0);

  if (kind === "selfie") {
    canvas.verticalGradient(traits.backdrop, shade(traits.backdrop, 0.8));
    portrait(canvas, traits, 0, 0, 1);
  } else if (kind === "document_front") {
    card(canvas, tint);
    canvas.rect(12, 20, 216, 34, [22, 92, 62]); // header band
    canvas.rect(24, 30, 120, 5, [240, 240, 240]);
    canvas.rect(24, 40, 80, 4, [200, 220, 205]);
    canvas.ellipse(205, 37, 12, 12, [230, 190, 60]); // coat of arms
    canvas.rect(22, 66, 84, 104, [40, 40, 40]); // photo frame
    canvas.rect(24, 68, 80, 100, [236, 236, 236]);
    canvas.clip = [24, 68, 104, 168];
    portrait(canvas, traits, 24, 68, 1 / 3);
    canvas.clip = [0, 0, IMAGE_WIDTH, IMAGE_HEIGHT];
    textLines(canvas, detail, 114, 70, 100, 6, [40, 50, 60]);
    textLines(canvas, detail, 24, 182, 190, 5, [40, 50, 60]);
    for (let x = 0; x < 90; x++) canvas.rect(124 + x, 262 + Math.sin(x / 6 + detail() * 6) * 5, 1, 2, [20, 30, 110]); // signature
  } else {
    card(canvas, shade(tint, 0.97));
    canvas.rect(22, 30, 70, 90, [245, 245, 245]); // fingerprint box
    for (let r = 4; r < 34; r += 4) canvas.ring(57, 75, r + int(detail, 0, 2), r * 1.25, 1.5, [70, 70, 80]);
    textLines(canvas, detail, 104, 32, 110, 6, [50, 45, 40]);
    textLines(canvas, detail, 24, 134, 190, 5, [50, 45, 40]);
    let x = 24;
    while (x < 214) {
      const w = int(detail, 1, 3);
      canvas.rect(x, 226, w, 40, [15, 15, 15]); // barcode
      x += w + int(detail, 1, 3);
    }
  }
  return encodePng(IMAGE_WIDTH, IMAGE_HEIGHT, canvas.data);
}
