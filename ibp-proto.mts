import { loadEpic } from "./src/benchmarks/epic/load.js";
import { menuCredits, menuOf, replyKind } from "./src/benchmarks/epic/audit-menu.js";
const sets = process.argv.slice(2);
const T = Number(process.env.T ?? 0.35), BUDGET = Number(process.env.B ?? 0.5);
for (const root of sets) {
  const { items } = loadEpic(root);
  const byTask = new Map<string, number[][]>();
  for (const it of items) {
    const c = menuCredits(it, menuOf(replyKind(it.leaf)));
    (byTask.get(it.task) ?? byTask.set(it.task, []).get(it.task)!).push(c);
  }
  let sum = 0, n = 0, total = 0;
  for (const [task, rows] of byTask) {
    const alive = rows.map(() => true);
    const best = () => { const m = rows[0]!.length; let bi = 0, bv = -1; let k = 0; const s = new Array(m).fill(0); rows.forEach((r, i) => { if (alive[i]) { k++; r.forEach((v, j) => (s[j] += v)); } }); s.forEach((v, j) => { if (v > bv) { bv = v; bi = j; } }); return { bi, mean: bv / k, k }; };
    let b = best(); const before = b.mean; let removed = 0;
    const tgt = Number(process.env["T_" + task.split("/").pop()] ?? T);
    while (b.mean > tgt && removed < BUDGET * rows.length) {
      let wi = -1, wv = -1; rows.forEach((r, i) => { if (alive[i] && r[b.bi]! > wv) { wv = r[b.bi]!; wi = i; } });
      alive[wi] = false; removed++; b = best();
    }
    sum += b.mean * b.k; n += b.k; total += rows.length;
    console.log(task.padEnd(70), rows.length, "->", b.k, (100 * before).toFixed(1), "->", (100 * b.mean).toFixed(1));
  }
  console.log(root, "overall", (100 * sum / n).toFixed(1), n, "of", total);
}
