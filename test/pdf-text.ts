import { getDocument } from "pdfjs-dist/legacy/build/pdf.mjs";

/** The text of every page of a PDF, page after page (pdfjs-dist's own extraction, as a reader would copy it). */
export async function pdfText(bytes: Uint8Array): Promise<string> {
  // pdfjs takes ownership of the buffer it is given: hand it a copy.
  const document = await getDocument({ data: new Uint8Array(bytes), useSystemFonts: false, isEvalSupported: false, verbosity: 0 }).promise;
  const pages: string[] = [];
  for (let number = 1; number <= document.numPages; number += 1) {
    const content = await (await document.getPage(number)).getTextContent();
    pages.push(content.items.map((item) => ("str" in item ? item.str + (item.hasEOL ? "\n" : " ") : "")).join(""));
  }
  await document.destroy();
  return pages.join("\n");
}
