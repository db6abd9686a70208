import "server-only";

import PDFDocument from "pdfkit";

/*
 * What every PDF the dashboard writes shares (the titular report, a COAF dossier): pdfkit with its built-in
 * Helvetica, which draws WinAnsi text only (pt-BR accents included), an A4 page with the same margin, the document's
 * bytes collected as it is written, and "page N of M" in each page's bottom margin.
 */

export const PDF_MARGIN = 48;
export const PDF_GREY = "#475569";

// Latin-1 plus the characters WinAnsi adds in 0x80–0x9F.
const WIN_ANSI_EXTRA = new Set("€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ");

/** Text the standard fonts can draw: spaces of every kind become a plain space, anything else unknown a "?". */
export function winAnsi(text: string): string {
  return [...text.replace(/[\u00a0\u2000-\u200b\u202f\u205f\u3000]/g, " ")]
    .map((char) => (char.charCodeAt(0) <= 0xff || WIN_ANSI_EXTRA.has(char) ? char : "?"))
    .join("");
}

/** A new A4 document (pages buffered, so they can be numbered at the end) and its bytes, once `doc.end()` is called. */
export function startPdf(meta: { lang: string; title: string; subject: string; author?: string }): {
  doc: PDFKit.PDFDocument;
  done: Promise<Buffer>;
} {
  const doc = new PDFDocument({
    size: "A4",
    margin: PDF_MARGIN,
    bufferPages: true,
    lang: meta.lang,
    displayTitle: true,
    info: {
      Title: winAnsi(meta.title),
      ...(meta.author ? { Author: winAnsi(meta.author) } : {}),
      Subject: winAnsi(meta.subject),
    },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  return { doc, done };
}

/** Writes `label(page, pages)` at the foot of every page, then ends the document. */
export function numberPagesAndEnd(doc: PDFKit.PDFDocument, label: (page: number, pages: number) => string): void {
  const range = doc.bufferedPageRange();
  for (let index = range.start; index < range.start + range.count; index += 1) {
    doc.switchToPage(index);
    const text = winAnsi(label(index + 1, range.count));
    // Inside the bottom margin: lift it for this line so pdfkit does not open a new page for it.
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc
      .font("Helvetica")
      .fontSize(8)
      .fillColor(PDF_GREY)
      .text(text, PDF_MARGIN, doc.page.height - 30, { width: doc.page.width - 2 * PDF_MARGIN, align: "right", lineBreak: false });
    doc.page.margins.bottom = bottom;
  }
  doc.end();
}
