"use strict";
const token = new URLSearchParams(location.search).get("token") || "";
const client = Array.from(crypto.getRandomValues(new Uint8Array(8)), b => b.toString(16).padStart(2, "0")).join("");
const $ = id => document.getElementById(id);
const page = { version: 0, name: "scene", tunables: null, effective: null, view: "gpu", time: 0, duration: 0,
  selected: 0, sequence: 0, shown: 0, errorSequence: 0, playing: 0, structure: "", loadedText: "" };
// What the browser tests read.
window.liquidlens = { latencies: [], renders: 0, lastAnswer: null, lastError: null, lastExport: null };

function api(path, options = {}) {
  options.headers = Object.assign({ "X-LiquidLens-Token": token }, options.headers || {});
  return fetch(path, options);
}
function banner(text) { $("banner").hidden = !text; $("banner").textContent = text || ""; }

async function pollState() {
  let answer;
  try { answer = await api("/api/state?since=" + page.version); }
  catch (error) { banner("The server does not answer (stopped?): " + error.message); return; }
  if (answer.status === 204) return;
  const state = await answer.json();
  if (!answer.ok) { banner(state.error); return; }
  const first = page.version === 0;
  const imagesChanged = !first && state.imagesGeneration !== page.imagesGeneration;
  page.imagesGeneration = state.imagesGeneration;
  page.version = state.version;
  page.tunables = state.tunables;
  page.name = (state.file || state.name).split("/").pop().replace(/\.json$/, "");
  $("name").textContent = state.file || state.name;
  $("save").hidden = !state.writable;
  if (state.backendNote) banner(state.backendNote);
  if (!first && state.text === page.loadedText) {
    // The file is as loaded (again: no other version to offer); an image it reads was
    // written, and what the editor holds is drawn again.
    $("file-changed").hidden = true;
    if (imagesChanged) {
      render("image");
      $("status").textContent = "an image the scene reads changed on disk: drawn again";
    }
    return;
  }
  if (!first && $("source").value !== page.loadedText) {
    // Edits not saved yet are not thrown away: the page offers the file's version instead.
    page.fileText = state.text;
    $("file-changed").hidden = false;
    if (imagesChanged) render("image");
    return;
  }
  loadText(state.text);
  if (!first) $("status").textContent = "reloaded from the file";
}
function loadText(text) {
  page.loadedText = text;
  $("file-changed").hidden = true;
  setText(text);
  render("file");
}
$("load-file").addEventListener("click", () => {
  loadText(page.fileText);
  $("status").textContent = "reloaded from the file; your edits were replaced";
});

// MARK: the editor
function setText(text) { $("source").value = text; updateGutter(); }
function updateGutter(badLine) {
  const count = $("source").value.split("\n").length;
  const gutter = $("gutter");
  gutter.textContent = "";
  for (let line = 1; line <= count; line++) {
    const span = document.createElement("div");
    span.textContent = line;
    if (line === badLine) span.className = "bad";
    gutter.appendChild(span);
  }
  gutter.scrollTop = $("source").scrollTop;
}
function showError(answer) {
  window.liquidlens.lastError = answer;
  const where = answer.keyPath ? answer.keyPath + ": " : "";
  $("error").textContent = (answer.line ? "line " + answer.line + " · " : "") + where + answer.error;
  const mark = $("error-mark");
  mark.hidden = !answer.line;
  mark.dataset.message = where + answer.error;
  mark.dataset.line = answer.line || "";
  placeErrorMark();
  updateGutter(answer.line);
  $("picture").classList.add("stale");
}
function placeErrorMark() {
  const mark = $("error-mark");
  if (mark.hidden) return;
  // Beside its line; pinned to the editor's top or bottom edge, with an arrow, while the line is scrolled away.
  const lineHeight = parseFloat(getComputedStyle($("source")).lineHeight) || 18;
  const top = 4 + (Number(mark.dataset.line) - 1) * lineHeight - $("source").scrollTop;
  const lowest = $("editor").clientHeight - lineHeight;
  const arrow = top < 0 ? "↑ " : top > lowest ? "↓ " : "";
  mark.textContent = arrow + (arrow ? "line " + mark.dataset.line + ": " : "") + mark.dataset.message;
  mark.style.top = Math.min(Math.max(top, 0), lowest) + "px";
}
function clearError() {
  window.liquidlens.lastError = null;
  $("error").textContent = "";
  $("error-mark").hidden = true;
  $("picture").classList.remove("stale");
  updateGutter();
}
$("source").addEventListener("input", () => { updateGutter(); render("edit"); });
$("source").addEventListener("scroll", () => { $("gutter").scrollTop = $("source").scrollTop; placeErrorMark(); });

// MARK: rendering, newest wins
function render(reason) {
  const sequence = ++page.sequence;
  const started = performance.now();
  const body = JSON.stringify({ scene: $("source").value, time: page.time, view: page.view, client });
  return api("/api/render", { method: "POST", body, headers: { "Content-Type": "application/json" } })
    .then(async response => [response, await response.json()])
    .then(async ([response, answer]) => {
      // Newest wins: an answer older than the picture shown, or than an error shown, is dropped.
      if (response.status === 409 || sequence < page.shown || sequence < page.errorSequence) return;
      if (!response.ok) {
        if (sequence === page.sequence) { page.errorSequence = sequence; showError(answer); }
        return;
      }
      const decoded = new Image();
      decoded.src = answer.image;
      await decoded.decode().catch(() => {});
      if (sequence < page.shown || sequence < page.errorSequence) return;
      page.shown = sequence;
      window.liquidlens.lastAnswer = answer;
      clearError();
      page.effective = answer.effective;
      $("picture").src = answer.image;
      const latency = performance.now() - started;
      if (reason === "edit") window.liquidlens.latencies.push(latency);
      window.liquidlens.renders += 1;
      $("timing").textContent = answer.renderMs.toFixed(1) + " ms to render · " + latency.toFixed(0) + " ms from edit to picture";
      let said = "Rendered by " + answer.renderedBy + ", " + answer.width + "×" + answer.height + " px";
      if (answer.view === "diff") said += " · " + answer.differentPixels + " pixels differ, largest difference " + answer.largestDifference + "/255";
      $("rendered-by").textContent = said;
      if (answer.backendNote) banner(answer.backendNote);
      updateTimeline(answer);
      updateControls();
    })
    .catch(error => banner("The server did not answer: " + error.message));
}
document.querySelectorAll("[data-view]").forEach(button => button.addEventListener("click", () => {
  page.view = button.dataset.view;
  document.querySelectorAll("[data-view]").forEach(other => other.setAttribute("aria-pressed", String(other === button)));
  render("view");
}));

// MARK: time
function updateTimeline(answer) {
  page.duration = answer.duration;
  $("timeline").hidden = !answer.animated;
  $("time").max = answer.duration;
  $("time-label").textContent = page.time.toFixed(2) + " s";
}
$("time").addEventListener("input", () => { page.time = Number($("time").value); render("edit"); });
$("play").addEventListener("click", async () => {
  // Each press starts a new generation; a loop from an earlier one sees it and ends.
  const generation = page.playing ? 0 : Date.now();
  page.playing = generation;
  $("play").textContent = generation ? "Pause" : "Play";
  const start = performance.now() - page.time * 1000;
  while (page.playing === generation && generation) {
    page.time = ((performance.now() - start) / 1000) % Math.max(page.duration, 0.01);
    $("time").value = page.time;
    $("time-label").textContent = page.time.toFixed(2) + " s";
    await render("play");
    await new Promise(resolve => requestAnimationFrame(resolve));
    if (window.liquidlens.lastError) { page.playing = 0; $("play").textContent = "Play"; }
  }
});

// MARK: controls made from the decoder's schema
function parsed() {
  try { return JSON.parse($("source").value); }
  catch (error) { showError({ error: "fix the JSON before using the controls: " + error.message }); return null; }
}
function lookup(object, path) {
  return path.split(".").reduce((value, key) => value == null ? undefined : value[key], object);
}
function glassTarget(scene) { return scene && Array.isArray(scene.glass) ? scene.glass[page.selected] : undefined; }
function parsedQuietly() {
  try { return JSON.parse($("source").value); } catch (error) { return null; }
}
function currentValue(tunable, scope) {
  if (scope === "glass") {
    const own = lookup(glassTarget(parsedQuietly()), tunable.path);
    return own !== undefined ? own : lookup(glassTarget(page.effective), tunable.path);
  }
  const controls = (page.effective && page.effective.controls) || [];
  const control = controls.find(c => tunable.controlTypes.includes(c.type));
  return control ? control[tunable.path] : undefined;
}
function setValue(tunable, scope, value) {
  const scene = parsed();
  if (!scene) return;
  if (scope === "glass") {
    const element = glassTarget(scene);
    if (!element) return;
    if (tunable.path === "optics.preset") {
      element.optics = { preset: value };
    } else {
      const keys = tunable.path.split(".");
      let object = element;
      const effective = glassTarget(page.effective) || {};
      keys.slice(0, -1).forEach((key, index) => {
        if (object[key] == null || typeof object[key] !== "object") {
          const seed = lookup(effective, keys.slice(0, index + 1).join("."));
          object[key] = seed && typeof seed === "object" ? JSON.parse(JSON.stringify(seed)) : (key === "lift" ? { progress: 1 } : {});
        }
        object = object[key];
      });
      object[keys[keys.length - 1]] = value;
    }
  } else {
    (scene.controls || []).filter(c => tunable.controlTypes.includes(c.type)).forEach(c => { c[tunable.path] = value; });
  }
  setText(JSON.stringify(scene, null, 2));
  render("edit");
}
function hex(value) {
  if (typeof value === "string") return value.length === 7 ? value + "ff" : value;
  const channels = Array.isArray(value) ? value : [0, 0, 0, 0];
  return "#" + [0, 1, 2, 3].map(i => Math.round(Math.min(1, Math.max(0, channels[i] ?? 1)) * 255).toString(16).padStart(2, "0")).join("");
}
function makeControl(tunable, scope) {
  const row = document.createElement("div");
  row.className = "control";
  const label = document.createElement("label");
  label.textContent = tunable.label;
  row.appendChild(label);
  const inputs = [];
  const add = (element) => { element.dataset.path = tunable.path; element.dataset.scope = scope; row.appendChild(element); inputs.push(element); return element; };
  if (tunable.type === "number") {
    const range = add(document.createElement("input"));
    const number = add(document.createElement("input"));
    range.type = "range"; number.type = "number";
    for (const input of [range, number]) { input.min = tunable.min; input.max = tunable.max; input.step = tunable.step; }
    range.setAttribute("aria-label", tunable.label);
    range.addEventListener("input", () => { number.value = range.value; setValue(tunable, scope, Number(range.value)); });
    number.addEventListener("change", () => { if (number.value === "") return; range.value = number.value; setValue(tunable, scope, Number(number.value)); });
    row.refresh = () => { const v = currentValue(tunable, scope); const shown = typeof v === "number" ? v : (tunable.whenAbsent ?? tunable.min); if (document.activeElement !== range) range.value = shown; if (document.activeElement !== number) number.value = shown; };
  } else if (tunable.type === "color") {
    const color = add(document.createElement("input"));
    const alpha = add(document.createElement("input"));
    color.type = "color"; alpha.type = "range"; alpha.min = 0; alpha.max = 1; alpha.step = 0.01;
    alpha.setAttribute("aria-label", tunable.label + " alpha");
    const write = () => setValue(tunable, scope, color.value + Math.round(Number(alpha.value) * 255).toString(16).padStart(2, "0"));
    color.addEventListener("input", write);
    alpha.addEventListener("input", write);
    row.refresh = () => { const h = hex(currentValue(tunable, scope)); color.value = h.slice(0, 7); alpha.value = parseInt(h.slice(7, 9), 16) / 255; };
  } else if (tunable.type === "choice") {
    const select = add(document.createElement("select"));
    select.setAttribute("aria-label", tunable.label);
    for (const choice of ["", ...tunable.choices]) {
      const option = document.createElement("option");
      option.value = choice; option.textContent = choice || "—";
      select.appendChild(option);
    }
    select.addEventListener("change", () => { if (select.value) setValue(tunable, scope, select.value); });
    row.refresh = () => { const v = currentValue(tunable, scope); select.value = typeof v === "string" ? v : ""; };
  } else {
    const box = add(document.createElement("input"));
    box.type = "checkbox";
    box.addEventListener("change", () => setValue(tunable, scope, box.checked));
    row.refresh = () => { box.checked = Boolean(currentValue(tunable, scope)); };
  }
  return row;
}
function updateControls() {
  if (!page.tunables || !page.effective) return;
  const glass = page.effective.glass || [];
  const controls = page.effective.controls || [];
  const structure = glass.length + "/" + controls.map(c => c.type).join(",");
  if (structure !== page.structure) {
    page.structure = structure;
    page.selected = Math.min(page.selected, Math.max(0, glass.length - 1));
    const select = $("glass-select");
    select.textContent = "";
    glass.forEach((element, index) => {
      const option = document.createElement("option");
      option.value = index;
      option.textContent = "glass[" + index + "]";
      select.appendChild(option);
    });
    select.value = page.selected;
    const pane = $("controls");
    pane.textContent = "";
    const groups = new Map();
    const place = (tunable, scope) => {
      if (!groups.has(tunable.group)) {
        const fieldset = document.createElement("fieldset");
        const legend = document.createElement("legend");
        legend.textContent = tunable.group;
        fieldset.appendChild(legend);
        groups.set(tunable.group, fieldset);
        pane.appendChild(fieldset);
      }
      groups.get(tunable.group).appendChild(makeControl(tunable, scope));
    };
    if (controls.length) page.tunables.controls.filter(t => controls.some(c => t.controlTypes.includes(c.type))).forEach(t => place(t, "controls"));
    if (glass.length) page.tunables.glass.forEach(t => place(t, "glass"));
    if (!glass.length && !controls.length) pane.textContent = "This scene has no glass or controls to tune.";
  }
  document.querySelectorAll("#controls .control").forEach(row => row.refresh && row.refresh());
}
$("glass-select").addEventListener("change", () => { page.selected = Number($("glass-select").value); updateControls(); });

// MARK: drag a glass
let drag = null;
function scenePoint(event) {
  const picture = $("picture");
  const canvas = page.effective.canvas;
  const box = picture.getBoundingClientRect();
  return { x: (event.clientX - box.left) / box.width * canvas.width, y: (event.clientY - box.top) / box.height * canvas.height };
}
function framesOf(element) {
  if (!element) return [];
  return Array.isArray(element.shapes) ? element.shapes.map(s => s.frame) : [element.frame];
}
$("picture").addEventListener("pointerdown", event => {
  if (!page.effective) return;
  const point = scenePoint(event);
  const glass = page.effective.glass || [];
  for (let index = glass.length - 1; index >= 0; index--) {
    if (framesOf(glass[index]).some(f => f && point.x >= f.x && point.x <= f.x + f.width && point.y >= f.y && point.y <= f.y + f.height)) {
      const scene = parsed();
      if (!scene) return;
      page.selected = index;
      $("glass-select").value = index;
      updateControls();
      drag = { index, start: point, frames: framesOf(scene.glass[index]).map(f => ({ x: f.x, y: f.y })) };
      $("picture").setPointerCapture(event.pointerId);
      $("picture").style.cursor = "grabbing";
      return;
    }
  }
});
$("picture").addEventListener("pointermove", event => {
  if (!drag) return;
  const point = scenePoint(event);
  const scene = parsed();
  if (!scene) return;
  const round = v => Math.round(v * 2) / 2;
  framesOf(scene.glass[drag.index]).forEach((frame, k) => {
    frame.x = round(drag.frames[k].x + point.x - drag.start.x);
    frame.y = round(drag.frames[k].y + point.y - drag.start.y);
  });
  setText(JSON.stringify(scene, null, 2));
  render("edit");
});
const endDrag = () => { drag = null; $("picture").style.cursor = ""; };
$("picture").addEventListener("pointerup", endDrag);
$("picture").addEventListener("pointercancel", endDrag);

// MARK: export and save
function download(name, blob, text) {
  const link = document.createElement("a");
  link.href = typeof blob === "string" ? blob : URL.createObjectURL(blob);
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  if (typeof blob !== "string") setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  window.liquidlens.lastExport = { name, text };
  $("export-note").textContent = "exported " + name;
}
$("export-png").addEventListener("click", () => { if ($("picture").src) download(page.name + ".png", $("picture").src, null); });
$("export-json").addEventListener("click", () => {
  const text = $("source").value;
  download(page.name + ".json", new Blob([text], { type: "application/json" }), text);
});
$("export-swift").addEventListener("click", async () => {
  const response = await api("/api/theme", { method: "POST", body: JSON.stringify({ scene: $("source").value }), headers: { "Content-Type": "application/json" } });
  if (!response.ok) { $("export-note").textContent = (await response.json()).error; return; }
  const text = await response.text();
  download(page.name + "-theme.swift", new Blob([text], { type: "text/x-swift" }), text);
});
$("save").addEventListener("click", async () => {
  const response = await api("/api/save", { method: "POST", body: JSON.stringify({ scene: $("source").value }), headers: { "Content-Type": "application/json" } });
  const answer = await response.json();
  if (!response.ok) { $("export-note").textContent = answer.error; return; }
  page.version = answer.version;
  page.loadedText = $("source").value;
  $("export-note").textContent = "saved " + answer.saved + " (the file before this session: " + answer.backup + ")";
});

pollState();
setInterval(pollState, 1000);
