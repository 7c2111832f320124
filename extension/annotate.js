// @ts-check
// Annotated screenshots (snapshot({screenshot: {annotate: true}})): the
// snapshot's numbered boxes drawn on the captured image, in the colours and
// geometry of the page overlay (overlay-palette.js). Runs in the service
// worker: OffscreenCanvas + createImageBitmap, no DOM.
//
// The marks come from our own content script, but nothing about them is
// trusted: they are validated, capped, and only ever drawn as rectangles
// and numbers on the image of the tab that asked.
'use strict';

globalThis.SentienceAnnotate = (() => {
  const P = globalThis.SentienceOverlayPalette;
  const MAX_MARKS = 20000;
  const DEFAULT_JPEG_QUALITY = 92; // captureVisibleTab's own default

  const finite = (/** @type {unknown} */ v) => typeof v === 'number' && Number.isFinite(v);

  /**
   * Marks in CSS px, validated: [{id, role, primary, x, y, width, height}].
   * @param {unknown} list
   * @returns {{id: number, role: string, primary: boolean, x: number, y: number, width: number, height: number}[]}
   */
  function validMarks(list) {
    if (!Array.isArray(list)) throw new Error('annotate: marks must be an array');
    const out = [];
    for (const m of list.slice(0, MAX_MARKS)) {
      if (!m || !Number.isInteger(m.id) || ![m.x, m.y, m.width, m.height].every(finite)) continue;
      if (m.width <= 0 || m.height <= 0) continue;
      out.push({ id: m.id, role: String(m.role), primary: m.primary === true, x: m.x, y: m.y, width: m.width, height: m.height });
    }
    return out;
  }

  /**
   * CSS px → image px. The capture is in device pixels: devicePixelRatio
   * times the viewport, unless the image says otherwise (a capture that
   * excludes a scrollbar, a zoom change in between), then the measured ratio.
   */
  /**
   * @param {{width: number, height: number}} bitmap
   * @param {any} viewport {width, height, dpr} in CSS px as the page saw them (validated here)
   * @returns {number}
   */
  function scaleFor(bitmap, viewport) {
    const dpr = viewport && finite(viewport.dpr) && viewport.dpr > 0 ? viewport.dpr : 1;
    const width = viewport && finite(viewport.width) && viewport.width > 0 ? viewport.width : bitmap.width / dpr;
    return Math.abs(width * dpr - bitmap.width) <= 2 ? dpr : bitmap.width / width;
  }

  /**
   * @param {Blob} blob
   */
  async function toDataUrl(blob) {
    const bytes = new Uint8Array(await blob.arrayBuffer());
    let binary = '';
    for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode.apply(null, /** @type {any} */ (bytes.subarray(i, i + 0x8000)));
    return `data:${blob.type};base64,${btoa(binary)}`;
  }

  /**
   * Draws `annotation` ({marks, viewport}) on the PNG data URL; encodes as `format`.
   * @param {string} pngDataUrl
   * @param {any} annotation
   * @param {'png' | 'jpeg'} format
   * @param {number | undefined} quality 0–100 (JPEG)
   * @returns {Promise<string>} a data URL
   */
  async function draw(pngDataUrl, annotation, format, quality) {
    const marks = validMarks(annotation && annotation.marks);
    const source = await (await fetch(pngDataUrl)).blob();
    const bitmap = await createImageBitmap(source);
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('no 2d canvas in this worker');
    ctx.drawImage(bitmap, 0, 0);
    const s = scaleFor(bitmap, annotation && annotation.viewport);
    bitmap.close();
    ctx.font = `bold ${P.LABEL_FONT * s}px monospace`;
    ctx.textBaseline = 'middle';
    const labelH = P.LABEL_HEIGHT * s;
    for (const m of marks) {
      const colour = P.colourOf(m.role);
      const lw = (m.primary ? P.BORDER_PRIMARY : P.BORDER) * s;
      const x = m.x * s;
      const y = m.y * s;
      const w = m.width * s;
      const h = m.height * s;
      // The border lies inside the element's box, as on the page (border-box).
      ctx.strokeStyle = colour;
      ctx.lineWidth = lw;
      ctx.strokeRect(x + lw / 2, y + lw / 2, Math.max(0, w - lw), Math.max(0, h - lw));
      const label = String(m.id);
      const labelW = ctx.measureText(label).width + 6 * s;
      const labelY = m.y >= P.LABEL_HEIGHT ? y - labelH : y;
      ctx.fillStyle = colour;
      ctx.fillRect(x, labelY, labelW, labelH);
      ctx.fillStyle = '#fff';
      ctx.fillText(label, x + 3 * s, labelY + labelH / 2);
    }
    const type = format === 'jpeg' ? 'image/jpeg' : 'image/png';
    const blob = await canvas.convertToBlob(format === 'jpeg' ? { type, quality: (quality ?? DEFAULT_JPEG_QUALITY) / 100 } : { type });
    return toDataUrl(blob);
  }

  return { draw, validMarks };
})();
