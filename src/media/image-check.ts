/**
 * Whether a picture named by a dataset can be decoded, from its header alone (dimensions.ts): a
 * header that cannot be read, or one that claims more pixels than sharp decodes (MAX_IMAGE_PIXELS,
 * sharp's limitInputPixels), makes every request with it fail, so loaders report it as a data
 * problem naming the file (issue 25: a PNG whose IHDR claims 1e9 x 1e9 pixels passed `validate`).
 */
import { FileRefusedError } from "../core/file-read.js";
import { pictureSizeProblem } from "../core/limits.js";
import { imageDimensions } from "./dimensions.js";

/** Why the picture at `file` cannot be sent, or null; `shown` names it as the data wrote it. */
export function imageHeaderProblem(file: string, shown: string): string | null {
  let size: ReturnType<typeof imageDimensions>;
  try {
    size = imageDimensions(file);
  } catch (error) {
    if (error instanceof FileRefusedError) return `image ${shown} ${error.reason}`;
    return `image ${shown} cannot be read (${(error as NodeJS.ErrnoException).code ?? "read error"})`;
  }
  if (!size) return `image ${shown}: its size cannot be read from its header`;
  const problem = pictureSizeProblem(size.width, size.height);
  return problem === null ? null : `image ${shown}: ${problem}`;
}

/** imageHeaderProblem once per file and load (many items share a picture or a frame). */
export class ImageHeaderChecker {
  private readonly verdicts = new Map<string, string | null>();

  problem(file: string, shown: string): string | null {
    if (!this.verdicts.has(file)) this.verdicts.set(file, imageHeaderProblem(file, shown));
    return this.verdicts.get(file)!;
  }
}
