import path from "node:path";
import Database from "better-sqlite3";

/** Replies stored in a run folder's responses.sqlite so far (0 before the file exists), read as another process would. */
export function storedRows(out: string): number {
  try {
    const db = new Database(path.join(out, "responses.sqlite"), { readonly: true, fileMustExist: true });
    try {
      return (db.prepare("SELECT COUNT(*) AS n FROM responses").get() as { n: number }).n;
    } finally {
      db.close();
    }
  } catch {
    return 0;
  }
}
