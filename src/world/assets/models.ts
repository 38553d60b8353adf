/**
 * A catalogue entry's 3D model, as Sweet Home 3D places it: the OBJ and its MTL files read from
 * the entry's library (catalog.ts, zip.ts), parsed (obj.ts) and fitted to the catalogue size in
 * metres (mesh.ts). Libraries are opened once and kept open by a ModelLibrary.
 */
import type { CatalogEntry } from "./catalog.js";
import { normalizeToCatalogSize, type NormalizedMesh } from "./mesh.js";
import { loadObj, type Material } from "./obj.js";
import { ZipArchive, ZipLimitError } from "./zip.js";

export interface CatalogModel {
  entry: CatalogEntry;
  mesh: NormalizedMesh;
  materials: Record<string, Material>;
  /** Zip entry name of each material's diffuse texture (in the entry's library). */
  diffuseMaps: Record<string, string>;
  /** What the model names but its library lacks (MTL files, textures): the model still loads. */
  missing: string[];
}

/**
 * Bytes of parsed mesh arrays kept per library (least recently used out first). The furniture
 * libraries' 270-odd models that houses use take about 110 MB: every one of them stays parsed.
 */
export const KEPT_MODEL_BYTES = 256 * 1024 * 1024;

/** Bytes of a model's mesh arrays (what keeping it parsed holds). */
function meshBytes(model: CatalogModel): number {
  let bytes = 0;
  for (const p of model.mesh.parts) bytes += p.positions.byteLength + p.normals.byteLength + p.indices.byteLength + (p.uvs?.byteLength ?? 0);
  return bytes;
}

/**
 * Opens each .sh3f library once and loads models from it. Models loaded are kept parsed up to
 * KEPT_MODEL_BYTES: a house asks for the same model several times (its appearance when
 * furnishing, then its mesh), the next house for many of the same, and parsing is the slow part
 * (with the last 64 models kept, a 35-room house parsed each of its 135 models twice). A model is
 * a pure function of its entry and library, so a kept one is the one a new parse would give;
 * callers treat models as immutable.
 */
export class ModelLibrary {
  private readonly archives = new Map<string, ZipArchive>();
  /** By catalogue entry (the same entry object); insertion order = use order (oldest first). */
  private readonly models = new Map<CatalogEntry, { model: CatalogModel; bytes: number }>();
  private keptBytes = 0;

  constructor(private readonly keepBytes: number = KEPT_MODEL_BYTES) {}

  /** The entry's model, or throws with the entry's id and the reason (a failed load is not kept). */
  load(entry: CatalogEntry): CatalogModel {
    const kept = this.models.get(entry);
    if (kept) {
      this.models.delete(entry);
      this.models.set(entry, kept);
      return kept.model;
    }
    const model = this.parse(entry);
    const bytes = meshBytes(model);
    this.models.set(entry, { model, bytes });
    this.keptBytes += bytes;
    // The newest model stays even when it alone is over the budget.
    while (this.keptBytes > this.keepBytes && this.models.size > 1) {
      const [oldest, { bytes: freed }] = this.models.entries().next().value!;
      this.models.delete(oldest);
      this.keptBytes -= freed;
    }
    return model;
  }

  private parse(entry: CatalogEntry): CatalogModel {
    const archive = this.archive(entry.libraryFile);
    // OBJ and MTL files are ASCII in practice; latin1 keeps any other byte as one character.
    const read = (name: string) => (archive.has(name) ? archive.read(name).toString("latin1") : undefined);
    try {
      const { model, materials, diffuseMaps, missing } = loadObj(entry.modelPath, read);
      const rotation = entry.modelRotation ? entry.modelRotation.flat() : undefined;
      const mesh = normalizeToCatalogSize(model, entry.sizeM, rotation);
      const absentMaps = Object.values(diffuseMaps).filter((name) => !archive.has(name)).map((name) => `${name}: not in the library`);
      return { entry, mesh, materials, diffuseMaps, missing: [...missing, ...absentMaps] };
    } catch (error) {
      // A refusal by the zip budget already names the library file and the entry; kept as it is, so the CLI reports it as such.
      if (error instanceof ZipLimitError) throw error;
      throw new Error(`model ${entry.id} (${entry.modelPath}): ${(error as Error).message}`);
    }
  }

  /** The bytes of a texture the model names (entry name from diffuseMaps), or undefined when absent. */
  texture(entry: CatalogEntry, name: string): Buffer | undefined {
    const archive = this.archive(entry.libraryFile);
    return archive.has(name) ? archive.read(name) : undefined;
  }

  close(): void {
    for (const archive of this.archives.values()) archive.close();
    this.archives.clear();
    this.models.clear();
    this.keptBytes = 0;
  }

  private archive(file: string): ZipArchive {
    let archive = this.archives.get(file);
    if (!archive) {
      archive = ZipArchive.open(file);
      this.archives.set(file, archive);
    }
    return archive;
  }
}
