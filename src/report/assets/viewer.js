// spatialprobe viewer: the gallery, item details and the two-run comparison of the HTML report
// and of `spatialprobe serve`. Model text is untrusted: everything from the data is inserted with
// textContent or as attribute values set through the DOM, never as HTML.
(function () {
  "use strict";
  const boot = JSON.parse(document.getElementById("sp-data").textContent);
  const PAGE_SIZE = 48;
  const state = { runs: boot.runs || [], items: boot.items || [], page: 0, version: boot.version || "" };

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
  const runLabel = (run) => `${run.label || run.model} · ${run.benchmark}${run.complete === false ? ` · ${run.scored}/${run.total} scored` : ""}`;
  // The filters show every identity field: name, model, prompt variant, control, benchmark options.
  const runDescription = (run) => `${runLabel(run)} — ${run.identity || `model ${run.model}${run.variant ? ` · prompt ${run.variant}` : ""}`}`;
  // Only our own URLs: data: pictures from the report file, or /overlay/ paths from the server.
  const safeImage = (src) => typeof src === "string" && (src.startsWith("data:image/jpeg;base64,") || src.startsWith("data:image/png;base64,") || src.startsWith("/overlay/"));

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

  async function poll() {
    try {
      const response = await fetch("/api/state", { cache: "no-store" });
      const next = await response.json();
      if (next.version !== state.version) {
        state.version = next.version;
        state.runs = next.runs;
        state.items = next.items;
        const summary = await fetch("/fragment/summary", { cache: "no-store" });
        // Server-rendered with every value escaped (src/report/page.ts).
        $("summary").innerHTML = await summary.text();
        refreshFilters();
        renderGallery();
        renderCompare();
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
  refreshFilters();
  renderGallery();
  renderCompare();
  if (boot.mode === "serve") setTimeout(poll, boot.pollMs || 2000);
})();
