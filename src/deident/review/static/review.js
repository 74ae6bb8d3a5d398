// The review page: one note at a time; every action is sent to the server, which logs it before answering.
"use strict";
(function () {
  const state = { index: 0, count: 0, note: null, selected: -1, labels: {}, pending: null };
  const $ = (id) => document.getElementById(id);

  async function call(method, path, body) {
    const options = { method: method, headers: {}, credentials: "same-origin" };
    if (body !== undefined) {
      options.headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(body);
    }
    const response = await fetch(path, options);
    const data = await response.json();
    if (!response.ok) { throw new Error(data.detail || response.statusText); }
    return data;
  }

  function say(message) { $("status").textContent = message; }

  function fillLabels(select) {
    select.textContent = "";
    for (const [category, labels] of Object.entries(state.labels)) {
      const group = document.createElement("optgroup");
      group.label = category;
      for (const label of labels) {
        const option = document.createElement("option");
        option.value = label; option.textContent = label;
        group.appendChild(option);
      }
      select.appendChild(group);
    }
  }

  function renderLegend() {
    const legend = $("legend");
    legend.textContent = "";
    for (const category of Object.keys(state.labels)) {
      const item = document.createElement("span");
      item.className = "cat-" + category; item.textContent = category;
      legend.appendChild(item);
    }
    const hint = document.createElement("small");
    hint.textContent = "dashed underline: uncertain · green: accepted · blue: added";
    legend.appendChild(hint);
  }

  function render() {
    const note = state.note;
    $("position").textContent = "note " + (note.index + 1) + " / " + note.count;
    $("note-id").textContent = note.id;
    const pre = $("note");
    pre.textContent = "";
    let cursor = 0;
    note.spans.forEach((span, i) => {
      if (span.start < cursor) { return; }  // overlapping spans: the first is shown
      pre.appendChild(document.createTextNode(note.text.slice(cursor, span.start)));
      const mark = document.createElement("mark");
      mark.className = "span cat-" + span.category + " " + span.status + (span.uncertain ? " uncertain" : "")
        + (i === state.selected ? " selected" : "");
      mark.dataset.index = String(i);
      mark.dataset.start = String(span.start);
      mark.dataset.end = String(span.end);
      mark.dataset.label = span.label;
      mark.title = span.label;
      mark.textContent = note.text.slice(span.start, span.end);
      mark.addEventListener("click", (event) => { event.stopPropagation(); select(i); });
      pre.appendChild(mark);
      cursor = span.end;
    });
    pre.appendChild(document.createTextNode(note.text.slice(cursor)));
    renderPanel();
    renderRisks();
  }

  function renderPanel() {
    const span = state.note.spans[state.selected];
    $("span-none").hidden = Boolean(span);
    $("span-detail").hidden = !span;
    if (!span) { return; }
    $("span-label").textContent = span.label;
    $("span-offsets").textContent = "[" + span.start + ", " + span.end + ")";
    $("span-status").textContent = span.status + (span.uncertain ? ", uncertain" : "");
    $("span-explain").textContent = span.explain;
    $("relabel-label").value = span.label;
  }

  function renderRisks() {
    const list = $("risks");
    list.textContent = "";
    for (const risk of state.note.risks) {
      const item = document.createElement("li");
      const link = document.createElement("a");
      link.href = "#";
      link.textContent = state.note.text.slice(risk.start, risk.end);
      link.title = risk.classes.join(", ") + " (risk " + risk.risk + ")";
      link.addEventListener("click", (event) => {
        event.preventDefault();
        state.pending = { start: risk.start, end: risk.end };
        $("selection-info").textContent = "[" + risk.start + ", " + risk.end + ")";
      });
      item.appendChild(link);
      item.appendChild(document.createTextNode(" " + risk.classes.join(", ")));
      list.appendChild(item);
    }
  }

  function select(i) {
    state.selected = i;
    render();
  }

  async function load(index, selectStart) {
    state.note = await call("GET", "api/notes/" + index);
    state.index = index;
    state.selected = -1;
    if (selectStart !== undefined) {
      state.selected = state.note.spans.findIndex((s) => s.start === selectStart);
    }
    state.pending = null;
    $("selection-info").textContent = "select text in the note to add a span";
    render();
  }

  async function act(action, extra) {
    const span = state.note.spans[state.selected];
    let body;
    if (action === "add") {
      if (!state.pending) { say("select text first"); return; }
      body = { action: "add", start: state.pending.start, end: state.pending.end, label: $("add-label").value };
    } else {
      if (!span) { say("select a span first"); return; }
      body = Object.assign({ action: action, start: span.start, end: span.end, label: span.label }, extra || {});
    }
    body.note = state.note.id;
    try {
      const keep = action === "add" ? body.start : (action === "resize" ? body.new_start : span.start);
      state.note = await call("POST", "api/actions", body);
      state.selected = action === "reject" ? -1 : state.note.spans.findIndex((s) => s.start === keep);
      state.pending = null;
      render();
      say(action + " saved");
    } catch (error) { say("not saved: " + error.message); }
  }

  function resize(deltaStart, deltaEnd) {
    const span = state.note.spans[state.selected];
    if (!span) { return; }
    const start = Math.max(0, span.start + deltaStart);
    const end = Math.min(state.note.text.length, span.end + deltaEnd);
    if (end <= start) { return; }
    act("resize", { new_start: start, new_end: end });
  }

  // Offsets of the current selection within the note's text (marks included).
  function selectionOffsets() {
    const selection = window.getSelection();
    const pre = $("note");
    if (!selection || selection.rangeCount === 0 || selection.isCollapsed) { return null; }
    const range = selection.getRangeAt(0);
    if (!pre.contains(range.startContainer) || !pre.contains(range.endContainer)) { return null; }
    const before = document.createRange();
    before.setStart(pre, 0);
    before.setEnd(range.startContainer, range.startOffset);
    let start = before.toString().length;
    let end = start + range.toString().length;
    const text = state.note.text;
    while (start < end && /\s/.test(text[start])) { start += 1; }
    while (end > start && /\s/.test(text[end - 1])) { end -= 1; }
    return end > start ? { start: start, end: end } : null;
  }

  function noteSelection() {
    const offsets = selectionOffsets();
    if (!offsets) { return; }
    state.pending = offsets;
    $("selection-info").textContent = "[" + offsets.start + ", " + offsets.end + ")";
  }

  async function nextUncertain() {
    const span = state.note.spans[state.selected];
    const result = await call("GET", "api/uncertain?after=" + state.index + "&offset=" + (span ? span.start : -1));
    if (result.index === null) { say("no uncertain span left"); return; }
    await load(result.index, result.start);
  }

  function move(step) {
    const count = state.note.spans.length;
    if (count === 0) { return; }
    select(((state.selected + step) % count + count) % count);
  }

  async function exportCorpus() {
    try {
      const result = await call("POST", "api/export", {});
      say("exported " + result.notes + " notes, " + result.spans + " spans to " + result.path);
    } catch (error) { say("export failed: " + error.message); }
  }

  function bind() {
    $("prev").addEventListener("click", () => { if (state.index > 0) { load(state.index - 1); } });
    $("next").addEventListener("click", () => { if (state.index + 1 < state.count) { load(state.index + 1); } });
    $("next-uncertain").addEventListener("click", nextUncertain);
    $("export").addEventListener("click", exportCorpus);
    $("accept").addEventListener("click", () => act("accept"));
    $("reject").addEventListener("click", () => act("reject"));
    $("relabel").addEventListener("click", () => act("relabel", { label: $("relabel-label").value }));
    $("add").addEventListener("click", () => act("add"));
    $("widen-start").addEventListener("click", () => resize(-1, 0));
    $("narrow-start").addEventListener("click", () => resize(1, 0));
    $("narrow-end").addEventListener("click", () => resize(0, -1));
    $("widen-end").addEventListener("click", () => resize(0, 1));
    $("note").addEventListener("mouseup", noteSelection);
    document.addEventListener("selectionchange", noteSelection);
    document.addEventListener("keydown", (event) => {
      if (event.target instanceof HTMLSelectElement || event.ctrlKey || event.metaKey || event.altKey) { return; }
      const keys = {
        a: () => act("accept"), x: () => act("reject"), l: () => act("relabel", { label: $("relabel-label").value }),
        n: () => $("next").click(), p: () => $("prev").click(), u: nextUncertain,
        "[": () => resize(-1, 0), "{": () => resize(1, 0), "}": () => resize(0, -1), "]": () => resize(0, 1),
        Enter: () => act("add"), Tab: () => move(event.shiftKey ? -1 : 1),
      };
      const handler = keys[event.key];
      if (handler) { event.preventDefault(); handler(); }
    });
  }

  async function start() {
    const info = await call("GET", "api/session");
    state.labels = info.labels;
    state.count = info.notes;
    fillLabels($("add-label"));
    fillLabels($("relabel-label"));
    renderLegend();
    bind();
    await load(info.resume);
    say("reviewer " + info.reviewer);
  }

  start().catch((error) => say("could not start: " + error.message));
})();
