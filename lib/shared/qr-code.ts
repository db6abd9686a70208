import QRCode from "qrcode";

/*
 * An address as an SVG QR code in a data URL, made on the server so the browser needs no QR library: the KYC
 * session's widget address (lib/kyc/server/kyc.ts) and a case's re-verification address
 * (lib/verifications/server/reverification.ts). The SVG is ASCII, so `btoa` encodes it as Buffer would.
 */
export async function qrCodeDataUrl(text: string): Promise<string> {
  const svg = await QRCode.toString(text, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
  return `data:image/svg+xml;base64,${btoa(svg)}`;
}
