// The ThumbHash decoder of the page of `thumbs serve` (page.js paints what it returns), kept
// apart so that each file holds one thing. Loaded before page.js.
"use strict";

// ThumbHash, Evan Wallace's placeholder format (https://evanw.github.io/thumbhash/), decoded to
// RGBA. The hash is a DCT of the image in an L (luminance), P and Q (chroma) and optional alpha
// space: a 5-byte header (averages, scales, the luminance grid's size, landscape and alpha flags),
// a byte of alpha average and scale when there is alpha, then every AC coefficient as a 4-bit
// nibble, low nibble first, channel after channel.
function thumbHashToRGBA(hash) {
  const { PI, cos, max, round } = Math;
  const header = hash[0] | (hash[1] << 8) | (hash[2] << 16), header2 = hash[3] | (hash[4] << 8);
  const lDC = (header & 63) / 63, lScale = ((header >> 18) & 31) / 31;
  const pDC = ((header >> 6) & 63) / 31.5 - 1, qDC = ((header >> 12) & 63) / 31.5 - 1;
  const hasAlpha = (header >> 23) & 1, landscape = (header2 >> 15) & 1;
  const pScale = ((header2 >> 3) & 63) / 63, qScale = ((header2 >> 9) & 63) / 63;
  // Only the short side of the luminance grid is stored; the long side is 7 (5 with alpha).
  const long = hasAlpha ? 5 : 7, short = header2 & 7;
  const lx = max(3, landscape ? long : short), ly = max(3, landscape ? short : long);
  const aDC = hasAlpha ? (hash[5] & 15) / 15 : 1, aScale = (hash[5] >> 4) / 15;
  // A channel's coefficients are a triangle of its nx × ny grid without the DC term, walked in
  // this order both when they are read and when they are summed.
  const triangle = (nx, ny, visit) => {
    for (let cy = 0, j = 0; cy < ny; cy++)
      for (let cx = cy ? 0 : 1; cx * ny < nx * (ny - cy); cx++, j++) visit(cx, cy, j);
  };
  let nibble = hasAlpha ? 12 : 10; // where the coefficients start, in nibbles
  const channel = (nx, ny, scale) => {
    const ac = [];
    triangle(nx, ny, () => ac.push((((hash[nibble >> 1] >> ((nibble++ & 1) << 2)) & 15) / 7.5 - 1) * scale));
    return ac;
  };
  // Chroma is boosted by 1.25, as the reference decoder does, for the saturation quantization loses.
  const lAC = channel(lx, ly, lScale), pAC = channel(3, 3, pScale * 1.25);
  const qAC = channel(3, 3, qScale * 1.25), aAC = hasAlpha ? channel(5, 5, aScale) : null;
  // The image is 32 pixels on its long side, in the aspect ratio the grid's size gives.
  const ratio = (landscape ? long : max(1, short)) / (landscape ? max(1, short) : long);
  const w = round(ratio > 1 ? 32 : 32 * ratio), h = round(ratio > 1 ? 32 / ratio : 32);
  const rgba = new Uint8ClampedArray(w * h * 4), fx = [], fy = [];
  const sum = (ac, nx, ny) => {
    let total = 0;
    triangle(nx, ny, (cx, cy, j) => (total += ac[j] * fx[cx] * fy[cy]));
    return 2 * total;
  };
  for (let y = 0, i = 0; y < h; y++) {
    for (let cy = 0; cy < max(ly, 5); cy++) fy[cy] = cos((PI / h) * (y + 0.5) * cy);
    for (let x = 0; x < w; x++, i += 4) {
      for (let cx = 0; cx < max(lx, 5); cx++) fx[cx] = cos((PI / w) * (x + 0.5) * cx);
      const l = lDC + sum(lAC, lx, ly), p = pDC + sum(pAC, 3, 3), q = qDC + sum(qAC, 3, 3);
      const b = l - (2 / 3) * p, r = (3 * l - b + q) / 2, g = r - q;
      rgba.set([255 * r, 255 * g, 255 * b, 255 * (aAC ? aDC + sum(aAC, 5, 5) : 1)], i);
    }
  }
  return { w, h, rgba };
}
