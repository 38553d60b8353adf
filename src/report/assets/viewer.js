// spatialprobe viewer: the gallery, item details and the two-run comparison of the HTML report
// and of `spatialprobe serve`. Model text is untrusted: everything from the data is inserted with
// textContent or as attribute values set through the DOM, never as HTML.
(function () {
  "use strict";
  const boot = JSON.parse(document.getElementById("sp-data").textContent);
  const PAGE_SIZE = 48;
  const state = {
    runs: boot.runs || [], items: boot.items || [], prompts: boot.prompts || [], comparisons: boot.comparisons || {},
    episodes: boot.episodes || [], page: 0, episodePage: 0, version: boot.version || "",
    view: [], open: null, haystacks: new Map(),
  };
  const EPISODE_PAGE = 50;
  const STEP_PAGE = 24;
  const MAX_QUERY = 200;

  const $ = (id) => document.getElementById(id);
  function el(tag, props, children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(props || {})) {
      if (key === "text") node.textContent = value;
      else if (key === "className") node.className = value;
      else if (key === "dataset") Object.assign(node.dataset, value);
      else node.setAttribute(key, value);
    }
    for (const child of children || []) node.append(child);
    return node;
  }
  // Runs are told apart by their label (name, or model and what differs from the defaults) and index, never by model alone.
  const runLabel = (run) => `${run.label || run.model} · ${run.benchmark}${run.kind === "navigation" ? " navigation" : ""}${run.complete === false ? ` · ${run.scored}/${run.total} ${run.kind === "navigation" ? "episodes" : "scored"}` : ""}`;
  // The filters show every identity field: name, model, prompt variant, control, benchmark options.
  const runDescription = (run) => `${runLabel(run)} — ${run.identity || `model ${run.model}${run.variant ? ` · prompt ${run.variant}` : ""}`}`;
  // Only our own URLs: data: pictures from the report file, or /overlay/ paths from the server.
  // Served run files (/files/<run>/...) are pictures the server checked lie inside the run folder.
  const safeImage = (src) => typeof src === "string" && (src.startsWith("data:image/jpeg;base64,") || src.startsWith("data:image/png;base64,") || src.startsWith("data:image/webp;base64,") || src.startsWith("/overlay/") || src.startsWith("/files/") || src.startsWith("/prompt-image/"));
  // A run's colour as its benchmark's charts draw it (only #rrggbb from our data is used).
  const runColor = (run) => (run && /^#[0-9a-f]{6}$/i.test(run.color || "") ? run.color : "#9ca3af");
  // Class names from outcome words of the data: letters, digits, "_" and "-" only.
  const classWord = (word) => String(word).replace(/[^A-Za-z0-9_-]/g, "_");

  function badge(item, prefix) {
    return el("span", { className: `badge v-${classWord(item.verdict || "scored")} o-${classWord(item.outcome)}`, text: `${prefix || ""}${item.outcome}` });
  }

  function swatch(run) {
    const dot = el("span", { className: "swatch" });
    dot.style.background = runColor(run);
    return dot;
  }

  function option(value, text) {
    return el("option", { value, text });
  }

  function fillSelect(select, values, allText) {
    const previous = select.value;
    select.replaceChildren(option("", allText), ...values.map(([value, text]) => option(value, text)));
    if ([...select.options].some((o) => o.value === previous)) select.value = previous;
  }

  function refreshFilters() {
    fillSelect($("f-run"), state.runs.map((run) => [String(run.index), runDescription(run)]), "all runs");
    const tasks = [...new Set(state.items.map((item) => item.task))].sort();
    fillSelect($("f-task"), tasks.map((t) => [t, t]), "all tasks");
    const outcomes = [...new Set(state.items.map((item) => item.outcome))].sort();
    fillSelect($("f-outcome"), outcomes.map((o) => [o, o]), "all outcomes");
    const pairs = state.runs.filter((run) => run.kind !== "navigation").map((run) => [String(run.index), runDescription(run)]);
    fillSelect($("c-a"), pairs, "run A");
    fillSelect($("c-b"), pairs, "run B");
  }

  // ---------------------------------------------------------------- search and order

  function promptText(item) {
    const prompt = item.prompt == null ? null : state.prompts[item.prompt];
    if (!prompt) return "";
    return prompt.messages.map((m) => m.parts.map((p) => (p.type === "text" ? p.text : p.source || "")).join("\n")).join("\n");
  }

  // What the search box looks in: id, task, outcome, prompt, reply, parsed answer, reasoning, error.
  function haystack(item) {
    let text = state.haystacks.get(item.key);
    if (text === undefined) {
      text = [item.id, item.task, item.outcome, promptText(item), item.reply || "", item.answer || "", item.reasoning || "", item.error || ""].join("\n").toLowerCase();
      state.haystacks.set(item.key, text);
    }
    return text;
  }

  // Failures first: wrong and unreadable, then partial, then failed requests and missing predictions, then right.
  const VERDICT_RANK = { wrong: 0, unreadable: 0, partial: 1, error: 2, missing: 2, scored: 3, right: 4 };
  const rank = (item) => VERDICT_RANK[item.verdict] ?? 3;
  const byRunOrder = (a, b) => a.run - b.run || a.index - b.index;
  const scoreOf = (item, missing) => (typeof item.score === "number" ? item.score : missing);
  const compareIds = (a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  const ORDERS = {
    failures: (a, b) => rank(a) - rank(b) || scoreOf(a, 2) - scoreOf(b, 2) || byRunOrder(a, b),
    "score-asc": (a, b) => scoreOf(a, 2) - scoreOf(b, 2) || byRunOrder(a, b),
    "score-desc": (a, b) => scoreOf(b, -1) - scoreOf(a, -1) || byRunOrder(a, b),
    id: (a, b) => compareIds(a, b) || byRunOrder(a, b),
    run: byRunOrder,
  };

  function filtered() {
    const picturedOnly = $("f-pictured").checked;
    const run = $("f-run").value;
    const task = $("f-task").value;
    const outcome = $("f-outcome").value;
    const query = $("f-query").value.trim().toLowerCase().slice(0, MAX_QUERY);
    const list = state.items.filter((item) =>
      (run === "" || String(item.run) === run) &&
      (task === "" || item.task === task) &&
      (outcome === "" || item.outcome === outcome) &&
      (!picturedOnly || hasPicture(item)) &&
      (query === "" || haystack(item).includes(query)));
    return list.sort(ORDERS[$("f-sort").value] || ORDERS.failures);
  }

  // The report's pictures arrive after the script (page.ts): until then an item has only the flag.
  const hasPicture = (item) => Boolean(item.image || item.thumb || item.pictured);
  const pictureOf = (item) => item.image || item.thumb || (item.pictured ? "pending" : null);

  function picture(src, alt, className) {
    if (src === "pending") return el("div", { className: "noimg", text: "picture loading…" });
    if (!safeImage(src)) return el("div", { className: "noimg", text: "no picture" });
    return el("img", { src, alt, loading: "lazy", decoding: "async", ...(className ? { className } : {}) });
  }

  function card(item) {
    const run = state.runs[item.run];
    const button = el("button", { className: "card", type: "button", dataset: { key: item.key } }, [
      picture(item.thumb || pictureOf(item), `overlay of ${item.id}`),
      el("div", { className: "meta" }, [
        badge(item),
        document.createTextNode(` ${item.task} · ${item.id}`),
        el("br"),
        swatch(run),
        document.createTextNode(run ? runLabel(run) : ""),
      ]),
    ]);
    button.style.borderLeftColor = runColor(run);
    button.addEventListener("click", () => openDetail(item, state.view));
    return button;
  }

  function renderGallery() {
    const list = filtered();
    state.view = list;
    const pages = Math.max(1, Math.ceil(list.length / PAGE_SIZE));
    state.page = Math.max(0, Math.min(state.page, pages - 1));
    const shown = list.slice(state.page * PAGE_SIZE, (state.page + 1) * PAGE_SIZE);
    $("grid").replaceChildren(...shown.map(card));
    $("page-info").textContent = `page ${state.page + 1} of ${pages} · ${list.length} items`;
    $("prev").disabled = state.page === 0;
    $("next").disabled = state.page >= pages - 1;
  }

  // ---------------------------------------------------------------- the item view

  const plainNumber = (n) => (typeof n === "number" ? String(n) : "–");

  function requestFacts(item) {
    const facts = [];
    const u = item.usage || {};
    if (item.usage) {
      const reasoning = typeof u.reasoningTokens === "number" ? ` (${u.reasoningTokens} reasoning)` : "";
      facts.push(`tokens: ${plainNumber(u.inputTokens)} in · ${plainNumber(u.outputTokens)} out${reasoning}`);
      for (const [key, value] of Object.entries(u)) if (!["inputTokens", "outputTokens", "reasoningTokens"].includes(key)) facts.push(`${key}: ${value}`);
    } else facts.push("tokens: not reported (built-in models and replayed predictions use none)");
    facts.push(`latency: ${item.latency_ms == null ? "–" : `${item.latency_ms} ms`}`);
    facts.push(`attempts: ${plainNumber(item.attempts)}${item.cached ? " · from the response store" : ""}`);
    if (item.truncated != null) facts.push(`reply cut at --max-reply-bytes (${item.truncated} bytes in full)`);
    return facts;
  }

  function sentLine(sent, k) {
    if (!sent || typeof sent !== "object") return `image ${k + 1}`;
    const size = (s) => (s && typeof s === "object" ? `${s.width}×${s.height} ${s.media_type || ""}`.trim() : "?");
    return `image ${k + 1}: read ${size(sent.original)}, sent ${size(sent.sent)}${sent.transform ? ` (${sent.transform})` : ""}`;
  }

  // The prompt as sent: each message's text, and its images (served pictures in `serve`; the report names them).
  function promptBlock(item) {
    const prompt = item.prompt == null ? null : state.prompts[item.prompt];
    if (!prompt) return [el("p", { className: "note-inline", text: item.promptError ? `Prompt not shown: ${item.promptError}` : "Prompt not recorded." })];
    const out = [];
    if (prompt.note) out.push(el("p", { className: "note-inline", text: prompt.note }));
    const images = [];
    for (const message of prompt.messages) {
      const parts = [];
      for (const part of message.parts) {
        if (part.type === "text") parts.push(el("pre", { className: "prompt-text", text: part.text }));
        else {
          const line = `${sentLine(item.sent[part.k], part.k)}${part.source ? ` · ${part.source}` : ""}`;
          images.push(part);
          if (boot.mode === "serve") parts.push(el("figure", { className: "prompt-image" }, [picture(`/prompt-image/${item.run}/${item.index}/${part.k}`, `image ${part.k + 1} of the prompt`), el("figcaption", { text: line })]));
          else parts.push(el("p", { className: "prompt-image-ref", text: `[${line}]` }));
        }
      }
      out.push(el("div", { className: `message role-${classWord(message.role)}` }, [el("h5", { text: message.role }), ...parts]));
    }
    if (boot.mode !== "serve" && images.length > 0) out.unshift(el("p", { className: "note-inline", text: `${images.length} image${images.length === 1 ? "" : "s"} sent with this prompt: \`spatialprobe serve\` shows them as sent; the report names each with its size.` }));
    return out;
  }

  // Links name the run by its folder's key (html-report.ts runKey), not its position, so report.html and serve agree.
  function linkHash(item) {
    const run = state.runs[item.run];
    return `#item/${run && run.key ? run.key : item.run}/${encodeURIComponent(item.id)}`;
  }

  function showDialog() {
    const dialog = $("detail");
    if (typeof dialog.showModal === "function") { if (!dialog.open) dialog.showModal(); } else dialog.setAttribute("open", "");
  }

  function setItemBar(visible) {
    for (const id of ["detail-prev", "detail-next", "detail-pos", "detail-link"]) $(id).hidden = !visible;
  }

  function openDetail(item, list) {
    const order = list && list.includes(item) ? list : [item];
    state.open = { item, list: order };
    const run = state.runs[item.run];
    const at = order.indexOf(item);
    $("detail-pos").textContent = `${at + 1} of ${order.length}`;
    $("detail-prev").disabled = at <= 0;
    $("detail-next").disabled = at >= order.length - 1;
    $("detail-link").setAttribute("href", linkHash(item));
    setItemBar(true);
    const box = $("detail-body");
    box.replaceChildren(
      el("h3", { text: item.id }),
      el("p", { className: "detail-head" }, [swatch(run), document.createTextNode(`${run ? runLabel(run) : ""} · task ${item.task} · `), badge(item), document.createTextNode(typeof item.score === "number" ? ` · item score ${item.score.toFixed(3)}` : "")]),
      el("div", { className: "detail-picture" }, [picture(pictureOf(item), `overlay of ${item.id}`, "overlay")]),
      el("ul", { id: "detail-caption" }, (item.caption || []).map((line) => el("li", { text: line }))),
      el("h4", { text: "Parsed answer" }),
      el("pre", { className: "answer", text: item.answer == null ? "(none)" : String(item.answer) }),
      el("h4", { text: item.error ? "Error" : "Model reply" }),
      el("pre", { className: "reply", text: item.error ? item.error : item.reply == null ? "(none)" : item.reply }),
      ...(item.reasoning ? [el("details", {}, [el("summary", { text: "Reasoning returned beside the answer" }), el("pre", { className: "reasoning", text: item.reasoning })])] : []),
      el("h4", { text: "Score detail" }),
      el("pre", { className: "score-detail", text: JSON.stringify(item.detail ?? null, null, 2) }),
      el("h4", { text: "Request" }),
      el("ul", { id: "detail-request" }, [...requestFacts(item), ...(item.sent || []).map((s, k) => sentLine(s, k))].map((line) => el("li", { text: line }))),
      el("h4", { text: "Prompt sent" }),
      el("div", { id: "detail-prompt" }, promptBlock(item)),
    );
    if (boot.mode === "serve") loadCaption(item);
    if (location.hash !== linkHash(item)) history.replaceState(null, "", linkHash(item));
    showDialog();
  }

  function step(delta) {
    if (!state.open) return;
    const { item, list } = state.open;
    const next = list[list.indexOf(item) + delta];
    if (next) openDetail(next, list);
  }

  // #item/<run key>/<id>: opens that item (the gallery's current order gives its neighbours);
  // #item/<run position>/<id>, the older form, still opens by position.
  function openFromHash() {
    const match = /^#item\/([^/]+)\/(.+)$/.exec(location.hash);
    if (!match) return false;
    let id;
    try { id = decodeURIComponent(match[2]); } catch { return false; }
    const byKey = state.runs.findIndex((run) => run.key === match[1]);
    const runIndex = byKey >= 0 ? byKey : /^\d+$/.test(match[1]) ? Number(match[1]) : -1;
    const item = state.items.find((it) => it.run === runIndex && it.id === id);
    if (!item) return false;
    if (state.open && state.open.item === item && $("detail").open) return true;
    openDetail(item, state.view);
    return true;
  }

  // The server draws pictures on demand; their caption lines come with the large picture.
  async function loadCaption(item) {
    try {
      const response = await fetch(`/api/item/${item.run}/${item.index}`, { cache: "no-store" });
      const body = await response.json();
      const lines = body.error ? [`no picture: ${body.error}`] : body.caption;
      $("detail-caption").replaceChildren(...lines.map((line) => el("li", { text: String(line) })));
    } catch (error) {
      $("detail-caption").replaceChildren(el("li", { text: `caption not loaded (${error.message})` }));
    }
  }

  // ---------------------------------------------------------------- comparison

  const isRight = (item) => item.verdict === "right";
  const isCompared = (item) => item.verdict !== "error" && item.verdict !== "missing";
  function categoryOf(left, right) {
    if (!isCompared(left) || !isCompared(right)) return "notCompared";
    return isRight(left) ? (isRight(right) ? "bothRight" : "onlyA") : isRight(right) ? "onlyB" : "bothWrong";
  }

  function countsFor(a, b) {
    const key = a < b ? `${a}-${b}` : `${b}-${a}`;
    const c = state.comparisons[key];
    if (!c) return null;
    return a < b ? c : { ...c, onlyA: c.onlyB, onlyB: c.onlyA };
  }

  function countsBlock(counts, runA, runB) {
    const cell = (name, value, show) => {
      const button = el("button", { type: "button", className: "link", text: String(value), dataset: { count: name } });
      button.addEventListener("click", () => { $("c-show").value = show; $("c-diff").checked = false; renderCompare(); });
      return el("td", {}, [button]);
    };
    const p = counts.p;
    const pText = p >= 0.001 ? p.toFixed(3) : p.toExponential(2);
    return el("div", {}, [
      el("table", { id: "compare-table" }, [
        el("thead", {}, [el("tr", {}, ["", `B right (${runB.label})`, "B not right"].map((t) => el("th", { text: t })))]),
        el("tbody", {}, [
          el("tr", {}, [el("th", { text: `A right (${runA.label})` }), cell("bothRight", counts.bothRight, "bothRight"), cell("onlyA", counts.onlyA, "onlyA")]),
          el("tr", {}, [el("th", { text: "A not right" }), cell("onlyB", counts.onlyB, "onlyB"), cell("bothWrong", counts.bothWrong, "bothWrong")]),
        ]),
      ]),
      el("p", { id: "compare-test", text: `${counts.bothRight + counts.onlyA + counts.onlyB + counts.bothWrong} items in both runs compared${counts.notCompared ? ` (${counts.notCompared} left out: a failed request or a missing prediction)` : ""} · only A right ${counts.onlyA}, only B right ${counts.onlyB} · McNemar exact p = ${pText}` }),
    ]);
  }

  function side(item, prefix) {
    return el("div", { className: "side" }, [
      badge(item, prefix),
      el("div", { className: "label-small", text: "parsed answer" }),
      el("pre", { className: "answer", text: item.answer == null ? "(none)" : String(item.answer).slice(0, 600) }),
      el("div", { className: "label-small", text: item.error ? "error" : "reply" }),
      el("pre", { className: "reply", text: (item.error || item.reply || "(none)").slice(0, 600) }),
    ]);
  }

  function renderCompare() {
    const a = $("c-a").value;
    const b = $("c-b").value;
    const out = $("compare-rows");
    $("compare-counts").replaceChildren();
    $("compare-count").textContent = "";
    if (a === "" || b === "" || a === b) {
      out.replaceChildren(el("p", { text: "Choose two different runs of the same benchmark." }));
      return;
    }
    const runA = state.runs[Number(a)];
    const runB = state.runs[Number(b)];
    if (runA.benchmark !== runB.benchmark) {
      out.replaceChildren(el("p", { text: `Run A is ${runA.benchmark}, run B is ${runB.benchmark}: compare runs of one benchmark.` }));
      return;
    }
    const counts = countsFor(Number(a), Number(b));
    if (counts) $("compare-counts").replaceChildren(countsBlock(counts, runA, runB));
    const byId = new Map(state.items.filter((item) => String(item.run) === b).map((item) => [item.id, item]));
    const onlyDiff = $("c-diff").checked;
    const show = $("c-show").value;
    const rows = [];
    let matching = 0;
    for (const left of state.items.filter((item) => String(item.run) === a)) {
      const right = byId.get(left.id);
      if (!right || (onlyDiff && left.outcome === right.outcome) || (show !== "" && categoryOf(left, right) !== show)) continue;
      matching++;
      if (rows.length >= 200) continue;
      const row = el("div", { className: "compare-row", dataset: { id: left.id }, tabindex: "0", title: "open run A's item" }, [
        el("div", {}, [el("div", { className: "cid", text: left.id }), el("div", { text: left.task }), picture(left.thumb || pictureOf(left), `A: ${left.id}`)]),
        side(left, "A: "),
        side(right, "B: "),
      ]);
      row.addEventListener("click", () => openDetail(left, [left, right]));
      row.addEventListener("keydown", (event) => { if (event.key === "Enter") openDetail(left, [left, right]); });
      rows.push(row);
    }
    $("compare-count").textContent = `${matching} item${matching === 1 ? "" : "s"}${matching > 200 ? " (first 200 shown)" : ""}`;
    out.replaceChildren(...rows);
  }

  // ---------------------------------------------------------------- navigation episodes

  function refreshEpisodeFilters() {
    const navRuns = state.runs.filter((run) => run.kind === "navigation");
    $("episodes-section").hidden = navRuns.length === 0;
    // A page of navigation runs only: the item gallery and comparison have nothing to show.
    const onlyNavigation = navRuns.length > 0 && navRuns.length === state.runs.length;
    $("gallery-section").hidden = onlyNavigation;
    $("compare-section").hidden = onlyNavigation;
    fillSelect($("e-run"), navRuns.map((run) => [String(run.index), runDescription(run)]), "all runs");
    fillSelect($("e-task"), [...new Set(state.episodes.map((e) => e.task))].sort().map((t) => [t, t]), "all tasks");
    fillSelect($("e-outcome"), [...new Set(state.episodes.map((e) => e.outcome))].sort().map((o) => [o, o]), "all outcomes");
  }

  function filteredEpisodes() {
    const run = $("e-run").value;
    const task = $("e-task").value;
    const outcome = $("e-outcome").value;
    const query = $("e-query").value.trim().toLowerCase();
    return state.episodes.filter((e) =>
      (run === "" || String(e.run) === run) && (task === "" || e.task === task) && (outcome === "" || e.outcome === outcome) &&
      (query === "" || e.id.toLowerCase().includes(query)));
  }

  const fixed = (value, digits) => (typeof value === "number" ? value.toFixed(digits) : "–");

  function renderEpisodes() {
    const list = filteredEpisodes();
    const pages = Math.max(1, Math.ceil(list.length / EPISODE_PAGE));
    state.episodePage = Math.min(state.episodePage, pages - 1);
    const shown = list.slice(state.episodePage * EPISODE_PAGE, (state.episodePage + 1) * EPISODE_PAGE);
    $("episodes").tBodies[0].replaceChildren(...shown.map((e) => {
      const run = state.runs[e.run];
      const open = el("button", { type: "button", className: "link", text: e.id, dataset: { run: String(e.run), index: String(e.index) } });
      open.addEventListener("click", () => openEpisode(e));
      return el("tr", { dataset: { run: String(e.run), id: e.id } }, [
        el("td", { text: run ? run.label || run.model : "" }),
        el("td", {}, [open]),
        el("td", { text: e.task }),
        el("td", {}, [el("span", { className: `badge ${e.outcome === "failure" ? "wrong" : e.outcome}`, text: e.outcome })]),
        el("td", { className: "spl", text: fixed(e.spl, 3) }),
        el("td", { className: "steps", text: String(e.steps) }),
        el("td", { className: "collisions", text: String(e.collisions) }),
        el("td", { className: "end", text: e.end }),
      ]);
    }));
    $("e-page-info").textContent = `page ${state.episodePage + 1} of ${pages} · ${list.length} episodes`;
    $("e-prev").disabled = state.episodePage === 0;
    $("e-next").disabled = state.episodePage >= pages - 1;
  }

  // The episode's head: instruction, outcome, metrics and the top-down picture.
  function episodeHead(e, detail) {
    const run = state.runs[e.run];
    const facts = [run ? runLabel(run) : "", `task ${e.task}`, `outcome ${e.outcome}`, `end ${detail ? detail.end : e.end}`];
    if (detail) facts.push(`agent ${detail.agent}`, `intervention ${detail.intervention}`);
    return [
      el("h3", { text: e.id }),
      el("p", { text: facts.join(" · ") }),
      el("p", { className: "instruction", text: `Instruction: ${detail ? detail.instruction : e.instruction}` }),
      el("ul", { id: "episode-metrics" }, (detail ? detail.metrics : [`SPL ${fixed(e.spl, 3)}`, plural(e.steps, "step", "steps"), plural(e.collisions, "collision", "collisions")]).map((line) => el("li", { text: line }))),
      ...(detail && detail.prior ? [el("p", { text: detail.prior })] : []),
      picture(detail ? detail.topdown : e.topdown, `top-down plan of ${e.id}`),
    ];
  }

  function stepFigure(step) {
    const words = [`t ${step.t ?? "?"}`, step.action, ...(step.collided ? ["collided"] : []), `at (${step.position})`, `heading ${step.heading_deg ?? "?"}°`];
    return el("figure", { className: `step${step.collided ? " collided" : ""}`, dataset: { t: String(step.t) } }, [
      step.image ? picture(step.image, `views after action ${step.t}`) : el("div", { className: "noimg", text: "no views saved" }),
      el("figcaption", { text: words.join(" · ") }),
    ]);
  }

  // Decisions (each with the reply and how it was read) and the actions that carried them out.
  function decisionGroups(detail) {
    const groups = detail.decisions.map((d) => ({ decision: d, steps: [] }));
    const byIndex = new Map(groups.map((g) => [g.decision.index, g]));
    const loose = { decision: null, steps: [] };
    for (const step of detail.steps) (byIndex.get(step.decision) || loose).steps.push(step);
    return loose.steps.length > 0 ? [...groups, loose] : groups;
  }

  // Pages of at most STEP_PAGE actions; a decision whose actions run on is headed again, "continued".
  function stepPages(groups) {
    const pages = [[]];
    let count = 0;
    for (const g of groups) {
      if (count === STEP_PAGE && g.steps.length > 0) { pages.push([]); count = 0; }
      let part = { decision: g.decision, steps: [], continued: false };
      pages[pages.length - 1].push(part);
      for (const step of g.steps) {
        if (count === STEP_PAGE) {
          pages.push([]);
          count = 0;
          part = { decision: g.decision, steps: [], continued: true };
          pages[pages.length - 1].push(part);
        }
        part.steps.push(step);
        count++;
      }
    }
    return pages;
  }

  const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;

  function decisionBlock(group) {
    const d = group.decision;
    const parts = [];
    if (d && group.continued) parts.push(el("h5", { text: `Decision ${d.index}, continued` }));
    else if (d) {
      parts.push(el("h5", { text: `Decision ${d.index} · at step ${d.at_step ?? "?"} · ${d.asked}${d.cached ? " · from the store" : ""}` }));
      if (d.goal) parts.push(el("p", { className: "goal", text: d.goal }));
      if (d.reading) parts.push(el("p", { className: "reading", text: d.reading }));
      if (d.error) parts.push(el("pre", { className: "error", text: d.error }));
      if (d.reply !== null) parts.push(el("pre", { className: "reply", text: d.reply }));
    } else parts.push(el("h5", { text: "Actions without a recorded decision" }));
    parts.push(el("div", { className: "step-grid" }, group.steps.map(stepFigure)));
    return el("div", { className: "decision" }, parts);
  }

  function renderSteps(detail, pageList, pageIndex) {
    const pages = pageList.length;
    const at = Math.min(Math.max(0, pageIndex), pages - 1);
    const prev = el("button", { type: "button", text: "previous" });
    const next = el("button", { type: "button", text: "next" });
    prev.disabled = at === 0;
    next.disabled = at >= pages - 1;
    prev.addEventListener("click", () => renderSteps(detail, pageList, at - 1));
    next.addEventListener("click", () => renderSteps(detail, pageList, at + 1));
    const start = el("figure", { className: "step start" }, [
      detail.start.image ? picture(detail.start.image, "views at reset") : el("div", { className: "noimg", text: "no views saved" }),
      el("figcaption", { text: `at reset · at (${detail.start.position}) · heading ${detail.start.heading_deg ?? "?"}°` }),
    ]);
    $("episode-steps").replaceChildren(
      el("div", { className: "pager" }, [prev, el("span", { id: "steps-page-info", text: `page ${at + 1} of ${pages} · ${plural(detail.decisions.length, "decision", "decisions")}, ${plural(detail.steps.length, "action", "actions")}` }), next]),
      ...(at === 0 ? [el("div", { className: "step-grid" }, [start])] : []),
      ...pageList[at].map(decisionBlock),
    );
  }

  async function openEpisode(e) {
    state.open = null;
    setItemBar(false);
    const box = $("detail-body");
    box.replaceChildren(...episodeHead(e, null), el("div", { id: "episode-steps" }, [el("p", { text: boot.mode === "serve" ? "loading the steps…" : "The step-by-step observations are shown by `spatialprobe serve`." })]));
    showDialog();
    if (boot.mode !== "serve") return;
    try {
      const response = await fetch(`/api/episode/${e.run}/${e.index}`, { cache: "no-store" });
      if (!response.ok) throw new Error(await response.text());
      const detail = await response.json();
      box.replaceChildren(...episodeHead(e, detail), el("h4", { text: "Steps" }), el("div", { id: "episode-steps" }));
      renderSteps(detail, stepPages(decisionGroups(detail)), 0);
    } catch (error) {
      $("episode-steps").replaceChildren(el("p", { text: `steps not loaded (${error.message})` }));
    }
  }

  async function poll() {
    try {
      const response = await fetch("/api/state", { cache: "no-store" });
      const next = await response.json();
      if (next.version !== state.version) {
        state.version = next.version;
        state.runs = next.runs;
        state.items = next.items;
        state.prompts = next.prompts || [];
        state.comparisons = next.comparisons || {};
        state.haystacks = new Map();
        state.episodes = next.episodes || [];
        const summary = await fetch("/fragment/summary", { cache: "no-store" });
        // Server-rendered with every value escaped (src/report/page.ts).
        $("summary").innerHTML = await summary.text();
        refreshFilters();
        renderGallery();
        renderCompare();
        refreshEpisodeFilters();
        renderEpisodes();
        // An item open while its run changed (or before the prompts arrived) is shown again, as it is now.
        if (state.open && $("detail").open) {
          const was = state.open.item;
          const now = state.items.find((it) => it.run === was.run && it.id === was.id);
          if (now) openDetail(now, state.view);
        }
      }
    } catch (error) {
      $("live-status").textContent = `connection lost (${error.message}); retrying`;
    }
    setTimeout(poll, boot.pollMs || 2000);
  }

  // The report file may hold pictures for only some items (size budget): show those first.
  const unpictured = state.items.some((item) => !hasPicture(item));
  $("f-pictured").checked = unpictured;
  $("f-pictured-label").hidden = !unpictured;
  for (const id of ["f-run", "f-task", "f-outcome", "f-pictured", "f-sort"]) $(id).addEventListener("change", () => { state.page = 0; renderGallery(); });
  $("f-query").addEventListener("input", () => { state.page = 0; renderGallery(); });
  $("prev").addEventListener("click", () => { state.page -= 1; renderGallery(); });
  $("next").addEventListener("click", () => { state.page += 1; renderGallery(); });
  for (const id of ["c-a", "c-b", "c-diff", "c-show"]) $(id).addEventListener("change", renderCompare);
  $("detail-close").addEventListener("click", () => $("detail").close());
  $("detail-prev").addEventListener("click", () => step(-1));
  $("detail-next").addEventListener("click", () => step(1));
  // ← and → walk the gallery's order while an item is open; Escape closes (the dialog's own key).
  document.addEventListener("keydown", (event) => {
    if (!$("detail").open || !state.open || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key === "ArrowLeft") { event.preventDefault(); step(-1); }
    if (event.key === "ArrowRight") { event.preventDefault(); step(1); }
  });
  $("detail").addEventListener("close", () => {
    state.open = null;
    if (location.hash.startsWith("#item/")) history.replaceState(null, "", location.pathname + location.search);
  });
  window.addEventListener("hashchange", openFromHash);
  for (const id of ["e-run", "e-task", "e-outcome"]) $(id).addEventListener("change", () => { state.episodePage = 0; renderEpisodes(); });
  $("e-query").addEventListener("input", () => { state.episodePage = 0; renderEpisodes(); });
  $("e-prev").addEventListener("click", () => { state.episodePage -= 1; renderEpisodes(); });
  $("e-next").addEventListener("click", () => { state.episodePage += 1; renderEpisodes(); });
  refreshFilters();
  renderGallery();
  renderCompare();
  refreshEpisodeFilters();
  renderEpisodes();
  openFromHash();
  // The report's pictures follow this script in the file: fill them in once the browser has read them.
  function attachPictures() {
    const block = document.getElementById("sp-pictures");
    if (!block) return;
    const pictures = JSON.parse(block.textContent);
    for (const item of state.items) if (item.pictured && typeof pictures[item.key] === "string") item.image = pictures[item.key];
    renderGallery();
    renderCompare();
    if (state.open && $("detail").open) openDetail(state.open.item, state.open.list);
  }
  if (boot.mode !== "serve") {
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", attachPictures);
    else attachPictures();
  }
  if (boot.mode === "serve") setTimeout(poll, boot.pollMs || 2000);
})();
