import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import pg from "pg";

export const ROOT = path.resolve(import.meta.dirname, "../..");

let serverUrl: string | undefined;

/** The queue server's URL, started by scripts/queue-server.sh (quick when it already runs). */
export function queueServerUrl(): string {
  serverUrl ??= execFileSync("bash", [path.join(ROOT, "scripts/queue-server.sh"), "start"], { encoding: "utf8" }).trim();
  return serverUrl;
}

/** A fresh schema for one test, and the URL whose connections use it (search_path). */
export async function freshSchema(): Promise<{ url: string; schema: string; pool: pg.Pool; drop(): Promise<void> }> {
  const base = queueServerUrl();
  const schema = `sp_test_${randomBytes(5).toString("hex")}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const url = `${base}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  return {
    url,
    schema,
    pool,
    drop: async () => {
      await pool.end();
      const client = new pg.Client({ connectionString: base });
      await client.connect();
      await client.query(`DROP SCHEMA ${schema} CASCADE`);
      await client.end();
    },
  };
}

/** The built CLI (`node bin/spatialprobe.js ...`; npm test builds dist/ first) as a child process. */
export function cli(args: string[], env: NodeJS.ProcessEnv = {}): ChildProcess {
  return spawn(process.execPath, ["bin/spatialprobe.js", ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export function exited(child: ChildProcess): Promise<Exit> {
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (d) => (stdout += d));
  child.stderr!.on("data", (d) => (stderr += d));
  return new Promise((resolve) => child.on("exit", (code, signal) => resolve({ code, signal, stdout, stderr })));
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Wait until a coordinator has enqueued its run (workers started with --exit-when-idle would otherwise find nothing); its id. */
export async function waitForRun(pool: pg.Pool): Promise<string> {
  // Generous: a loaded CI machine takes seconds to start a tsx process.
  for (let i = 0; i < 2400; i++) {
    try {
      const { rows } = await pool.query<{ id: string }>("SELECT id FROM runs");
      if (rows[0]) return rows[0].id;
    } catch {
      // the tables are not created yet
    }
    await sleep(25);
  }
  throw new Error("the run was never enqueued");
}

/** Replies in the server's store so far (0 before its tables exist). */
export async function storedReplies(pool: pg.Pool): Promise<number> {
  try {
    const { rows } = await pool.query<{ n: string }>("SELECT COUNT(*) AS n FROM responses");
    return Number(rows[0]!.n);
  } catch {
    return 0;
  }
}
