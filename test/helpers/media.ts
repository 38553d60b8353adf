/** Small real media files for tests of loaders that check a file's bytes, not its name. */

/** A complete 1x1 PNG (one orange pixel), as sharp writes it. */
export const TINY_PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAADElEQVR4nGM4kWIEAANWAV/oF4RSAAAAAElFTkSuQmCC",
  "base64",
);

/** The head of an ISO base-media (MP4) file: a 24-byte ftyp box of brand isom. Enough for sniffing, not for decoding. */
export const MP4_HEAD = Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from("ftypisom\0\0\x02\0isomiso2", "latin1")]);
