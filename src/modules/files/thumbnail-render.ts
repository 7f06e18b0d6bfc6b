import type { Sharp, SharpOptions } from 'sharp';
import { ErrorCode, ValidationError } from '../../shared/errors.js';

/** The long side of a thumbnail, in pixels: the only sizes made (each one cached). */
export const thumbnailSizes = [64, 256, 512] as const;
export type ThumbnailSize = (typeof thumbnailSizes)[number];

/** Larger images are refused before they are decoded: every camera's photos pass (a 108 MP phone's too), a decompression bomb does not. */
export const maxThumbnailInputPixels = 120_000_000;
/** A decode and resize stopped past this (libvips checks it as it works): a hostile image gets no more. */
const renderTimeoutSeconds = 10;

/**
 * What libvips may read here. SVG is left out: a vector image is scaled by the browser at no
 * cost, and rendering one would bring librsvg's surface to the server. HEIF holds AVIF (the
 * prebuilt libvips decodes AV1, not HEVC: an HEIC photo fails to decode, answered like any
 * unreadable image).
 */
const readableFormats = new Set(['jpeg', 'png', 'webp', 'gif', 'tiff', 'heif', 'avif']);

export const thumbnailUnavailable = (name: string, why: string) => new ValidationError(`Thumbnail unavailable: ${name} ${why}`, ErrorCode.thumbnailUnavailable);

type SharpFactory = (input: Buffer, options: SharpOptions) => Sharp;
let loading: Promise<SharpFactory> | undefined;

/**
 * sharp (libvips) is loaded on the first thumbnail, never before: it adds about 30 MB to a
 * process, which commands and a server that makes no thumbnail do not pay. Its operation cache
 * is off: the thumbnail cache on disk is the one cache, and libvips' would hold decoded images
 * in memory for nothing.
 */
function loadSharp(): Promise<SharpFactory> {
  loading ??= import('sharp').then(({ default: sharp }) => {
    sharp.cache(false);
    return sharp;
  });
  return loading;
}

/**
 * A WebP of `size` pixels on its long side at most, never enlarged, turned upright as its EXIF
 * orientation says (the metadata itself, GPS included, is not copied). The work runs in
 * libuv's pool, not on the event loop; the input's pixels are bounded before decoding and the
 * work in time. A file that is no image libvips reads, too many pixels, or a broken image →
 * 400 `thumbnail_unavailable` naming the file.
 */
export async function renderThumbnail(bytes: Buffer, size: ThumbnailSize, name: string): Promise<Buffer> {
  // sharp refuses an empty input in its constructor, before any of the checks below.
  if (bytes.length === 0) throw thumbnailUnavailable(name, 'is empty');
  const sharp = await loadSharp();
  // failOn 'error': a photo with a recoverable flaw (a truncated tail, a bad marker) still gives a thumbnail.
  const image = sharp(bytes, { limitInputPixels: maxThumbnailInputPixels, failOn: 'error', pages: 1 });
  let format: string | undefined;
  try {
    format = (await image.metadata()).format;
  } catch (error) {
    throw unreadable(name, error, 'is not an image the server can read');
  }
  if (!format || !readableFormats.has(format)) throw thumbnailUnavailable(name, `is not an image the server makes thumbnails of (${format ?? 'unknown format'})`);
  try {
    return await image
      .rotate()
      .resize({ width: size, height: size, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 80 })
      .timeout({ seconds: renderTimeoutSeconds })
      .toBuffer();
  } catch (error) {
    throw unreadable(name, error, 'could not be decoded as an image');
  }
}

/** libvips' refusal as the person asking can act on it: too many pixels, too slow, or simply unreadable. */
function unreadable(name: string, error: unknown, otherwise: string): ValidationError {
  const message = error instanceof Error ? error.message : '';
  if (/pixel limit/i.test(message)) return thumbnailUnavailable(name, `has more than ${maxThumbnailInputPixels / 1_000_000} million pixels`);
  if (/timeout/i.test(message)) return thumbnailUnavailable(name, `took more than ${renderTimeoutSeconds} s to decode`);
  return thumbnailUnavailable(name, otherwise);
}
