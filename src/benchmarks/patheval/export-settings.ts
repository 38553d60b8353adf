/** The training settings of `export patheval` (export.ts), apart so the CLI can list them without loading the renderers. */
export const EXPORT_SETTINGS = ["plain", "with-descriptors", "random-ids", "random-tokens"] as const;
export type ExportSetting = (typeof EXPORT_SETTINGS)[number];
