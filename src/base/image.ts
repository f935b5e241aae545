/**
 * Image files sent to a vision model: the format from the file's first bytes (never its name),
 * a size cap, and the `data:` URL an OpenAI-compatible `image_url` content part carries.
 */

/** Larger images are refused: the base64 of each one is stored in the session file and resent. */
export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;

/** The image formats sent, by media type. */
export type ImageMediaType = "image/png" | "image/jpeg" | "image/gif" | "image/webp";

/** File names that look like images: `@path` mentions with these are read as images. */
export const IMAGE_NAME = /\.(png|jpe?g|gif|webp)$/i;

/** The media type the magic bytes at the start of `bytes` name, or null for anything else. */
export function sniffImage(bytes: Uint8Array): ImageMediaType | null {
  const at = (i: number, ...want: number[]) => want.every((b, k) => bytes[i + k] === b);
  if (at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return "image/png";
  if (at(0, 0xff, 0xd8, 0xff)) return "image/jpeg";
  if (
    at(0, 0x47, 0x49, 0x46, 0x38) &&
    (bytes[4] === 0x37 || bytes[4] === 0x39) &&
    bytes[5] === 0x61
  )
    return "image/gif";
  if (at(0, 0x52, 0x49, 0x46, 0x46) && at(8, 0x57, 0x45, 0x42, 0x50)) return "image/webp";
  return null;
}

/** An image read for the model. */
export interface ImageAttachment {
  mediaType: ImageMediaType;
  bytes: number;
  /** `data:<type>;base64,<data>`: what the `image_url` part carries. */
  dataUrl: string;
}

/**
 * The image in `bytes` (read from `name`, which only names it in errors), or the reason it
 * cannot be sent: not PNG/JPEG/GIF/WebP, or over IMAGE_MAX_BYTES.
 */
export function imageAttachment(
  name: string,
  bytes: Buffer,
): { ok: true; image: ImageAttachment } | { ok: false; error: string } {
  const mediaType = sniffImage(bytes);
  if (mediaType === null) {
    return {
      ok: false,
      error: `${name} is not a PNG, JPEG, GIF or WebP image (by its first bytes).`,
    };
  }
  if (bytes.length > IMAGE_MAX_BYTES) {
    return {
      ok: false,
      error: `${name} is ${bytes.length} bytes, more than the ${IMAGE_MAX_BYTES}-byte limit for images.`,
    };
  }
  return {
    ok: true,
    image: {
      mediaType,
      bytes: bytes.length,
      dataUrl: `data:${mediaType};base64,${bytes.toString("base64")}`,
    },
  };
}
