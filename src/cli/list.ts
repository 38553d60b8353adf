import type { Command } from "commander";
import { BENCHMARKS } from "../registry.js";

export function registerList(program: Command): void {
  program
    .command("list")
    .description("list benchmarks, their tasks, prompt variants and built-in models")
    .action(() => {
      for (const b of Object.values(BENCHMARKS)) {
        console.log(`${b.id}  ${b.title}`);
        console.log(`  tasks:     ${b.tasks.map((t) => `${t.code} (${t.name})`).join(", ")}`);
        console.log(`  prompts:   ${b.promptSources.join(", ")}; controls: ${b.promptControls.join(", ")}`);
        console.log(`  built-ins: ${Object.entries(b.baselines).map(([name, v]) => `${name} — ${v.describe}`).join("\n             ")}`);
      }
      console.log("models: openai:<model> (also vLLM/SGLang/Ollama/LM Studio/OpenRouter via --base-url), anthropic:<model>, gemini:<model>, replay:<predictions.jsonl>");
    });
}
