// spatialprobe viewer: the gallery, item details and the two-run comparison of the HTML report
// and of `spatialprobe serve`. Model text is untrusted: everything from the data is inserted with
// textContent or as attribute values set through the DOM, never as HTML.
(function () {
  "use strict";
  const boot = JSON.parse(document.getElementById("sp-data").textContent);
  const PAGE_SIZE = 48;
  const state = { runs: boot.runs || [], items: boot.items || [], episodes: boot.episodes || [], page: 0, episodePage: 0, version: boot.version || "" };
  const EPISODE_PAGE = 50;
  const STEP_PAGE = 24;

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
  const safeImage = (src) => typeof src === "string" && (src.startsWith("data:image/jpeg;base64,") || src.startsWith("data:image/png;base64,") || src.startsWith("/overlay/") || src.startsWith("/files/"));

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
    const pairs = state.runs.map((run) => [String(run.index), runDescription(run)]);
    fillSelect($("c-a"), pairs, "run A");
    fillSelect($("c-b"), pairs, "run B");
  }

  function filtered() {
    const picturedOnly = $("f-pictured").checked;
    const run = $("f-run").value;
    const task = $("f-task").value;
    const outcome = $("f-outcome").value;
    const query = $("f-query").value.trim().toLowerCase();
    return state.items.filter((item) =>
      (run === "" || String(item.run) === run) &&
      (task === "" || item.task === task) &&
      (outcome === "" || item.outcome === outcome) &&
      (query === "" || item.id.toLowerCase().includes(query)) &&
      (!picturedOnly || Boolean(item.image || item.thumb)));
  }

  function picture(src, alt) {
    if (!safeImage(src)) return el("div", { className: "noimg", text: "no picture" });
    return el("img", { src, alt, loading: "lazy" });
  }

  function card(item) {
    const run = state.runs[item.run];
    const button = el("button", { className: "card", type: "button", dataset: { key: item.key } }, [
      picture(item.thumb || item.image, `overlay of ${item.id}`),
      el("div", { className: "meta" }, [
        el("span", { className: `badge ${item.outcome}`, text: item.outcome }),
        document.createTextNode(` ${item.task} · ${item.id}`),
        el("br"),
        document.createTextNode(run ? runLabel(run) : ""),
      ]),
    ]);
    button.addEventListener("click", () => openDetail(item));
    return button;
  }

  function renderGallery() {
    const list = filtered();
    const pages = Math.max(1, Math.ceil(list.length / PAGE_SIZE));
    state.page = Math.min(state.page, pages - 1);
    const shown = list.slice(state.page * PAGE_SIZE, (state.page + 1) * PAGE_SIZE);
    $("grid").replaceChildren(...shown.map(card));
    $("page-info").textContent = `page ${state.page + 1} of ${pages} · ${list.length} items`;
    $("prev").disabled = state.page === 0;
    $("next").disabled = state.page >= pages - 1;
  }

  function openDetail(item) {
    const run = state.runs[item.run];
    const box = $("detail-body");
    box.replaceChildren(
      el("h3", { text: item.id }),
      el("p", { text: `${run ? runLabel(run) : ""} · task ${item.task} · outcome ${item.outcome}` }),
      picture(item.image || item.thumb, `overlay of ${item.id}`),
      el("ul", { id: "detail-caption" }, (item.caption || []).map((line) => el("li", { text: line }))),
      el("h4", { text: "Parsed answer" }),
      el("pre", { text: item.answer == null ? "(none)" : String(item.answer) }),
      el("h4", { text: item.error ? "Error" : "Model reply" }),
      el("pre", { className: "reply", text: item.error ? item.error : item.reply == null ? "(none)" : item.reply }),
      el("h4", { text: "Score detail" }),
      el("pre", { text: JSON.stringify(item.detail ?? null, null, 2) }),
    );
    if (boot.mode === "serve") loadCaption(item);
    const dialog = $("detail");
    if (typeof dialog.showModal === "function") dialog.showModal();
    else dialog.setAttribute("open", "");
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

  function renderCompare() {
    const a = $("c-a").value;
    const b = $("c-b").value;
    const out = $("compare-rows");
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
    const byId = new Map(state.items.filter((item) => String(item.run) === b).map((item) => [item.id, item]));
    const onlyDiff = $("c-diff").checked;
    const rows = [];
    for (const left of state.items.filter((item) => String(item.run) === a)) {
      const right = byId.get(left.id);
      if (!right || (onlyDiff && left.outcome === right.outcome)) continue;
      rows.push(el("div", { className: "compare-row", dataset: { id: left.id } }, [
        el("div", {}, [el("div", { text: left.id }), el("div", { text: left.task })]),
        el("div", {}, [picture(left.thumb || left.image, `A: ${left.id}`), el("span", { className: `badge ${left.outcome}`, text: `A: ${left.outcome}` })]),
        el("div", {}, [picture(right.thumb || right.image, `B: ${right.id}`), el("span", { className: `badge ${right.outcome}`, text: `B: ${right.outcome}` })]),
      ]));
      if (rows.length >= 200) break;
    }
    $("compare-count").textContent = `${rows.length} item${rows.length === 1 ? "" : "s"}${rows.length >= 200 ? " (first 200)" : ""}`;
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

  function showDialog() {
    const dialog = $("detail");
    if (typeof dialog.showModal === "function") { if (!dialog.open) dialog.showModal(); } else dialog.setAttribute("open", "");
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
        state.episodes = next.episodes || [];
        const summary = await fetch("/fragment/summary", { cache: "no-store" });
        // Server-rendered with every value escaped (src/report/page.ts).
        $("summary").innerHTML = await summary.text();
        refreshFilters();
        renderGallery();
        renderCompare();
        refreshEpisodeFilters();
        renderEpisodes();
      }
    } catch (error) {
      $("live-status").textContent = `connection lost (${error.message}); retrying`;
    }
    setTimeout(poll, boot.pollMs || 2000);
  }

  // The report file may hold pictures for only some items (size budget): show those first.
  const unpictured = state.items.some((item) => !item.image && !item.thumb);
  $("f-pictured").checked = unpictured;
  $("f-pictured-label").hidden = !unpictured;
  for (const id of ["f-run", "f-task", "f-outcome", "f-pictured"]) $(id).addEventListener("change", () => { state.page = 0; renderGallery(); });
  $("f-query").addEventListener("input", () => { state.page = 0; renderGallery(); });
  $("prev").addEventListener("click", () => { state.page -= 1; renderGallery(); });
  $("next").addEventListener("click", () => { state.page += 1; renderGallery(); });
  for (const id of ["c-a", "c-b", "c-diff"]) $(id).addEventListener("change", renderCompare);
  $("detail-close").addEventListener("click", () => $("detail").close());
  for (const id of ["e-run", "e-task", "e-outcome"]) $(id).addEventListener("change", () => { state.episodePage = 0; renderEpisodes(); });
  $("e-query").addEventListener("input", () => { state.episodePage = 0; renderEpisodes(); });
  $("e-prev").addEventListener("click", () => { state.episodePage -= 1; renderEpisodes(); });
  $("e-next").addEventListener("click", () => { state.episodePage += 1; renderEpisodes(); });
  refreshFilters();
  renderGallery();
  renderCompare();
  refreshEpisodeFilters();
  renderEpisodes();
  if (boot.mode === "serve") setTimeout(poll, boot.pollMs || 2000);
})();
