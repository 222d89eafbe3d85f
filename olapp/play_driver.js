// Online Learning Lab: Play's driver, run in the page by olapp/animation.py (st.components.v2).
//
// Pressing Play reruns the page once; the charts then arrive with their frames (in layout.meta) and
// this driver moves them all, and the texts of the round, at the player's speed, with no server rerun
// per frame. Pause, or the end of the run, sends the round reached back to the server once.
//
// What it reads of Streamlit's page and of plotly.js is promised by neither: all of it is named in
// this table. A `needed` hook missing when a play starts stops the driver before it starts: it tells
// the server once (the trigger "fallback", naming the hooks), and the server steps the rounds instead
// (olapp/controls.py), so Play never freezes. The others are optimisations, each with a fallback in
// the code below (a full redraw, no culling, the scrubber left to the server's rerun).
// window.__olabHooksOff (a list of names, or "all") makes the driver treat hooks as missing: tests.
const HOOKS = {
  // Streamlit's page
  chart: { needed: true, css: ".js-plotly-plot" },                       // a chart: plotly.js's graph div
  playButton: { needed: true, css: (key) => ".st-key-" + key + " button" }, // st.button(key=...)'s button
  running: { needed: false, css: "[data-testid=stStatusWidget]" },       // shown while the app runs
  element: { needed: false, css: "[data-testid=stElementContainer]" },   // one element's box (culling)
  slider: { needed: false, css: (key) => ".st-key-" + key + " [data-testid=stSlider]" },
  sliderValue: { needed: false, css: "[data-testid=stSliderThumbValue] p" },
  // plotly.js: window.Plotly's react, relayout and animate (needed); gd._fullLayout (axes' r2p, the
  // drawn title and labels: moved in place), Plotly.PlotSchema.findArrayAttributes (remembered)
  plotly: { needed: true },
  fullLayout: { needed: false },
  arrayAttributes: { needed: false },
  // plotly.js's SVG: the layers and items moved in place
  svg: { grids: "g.heatmaplayer, g.contourlayer", scatter: ".scatterlayer", shape: ".shapelayer path",
         annotation: "g.annotation", annotationText: "text.annotation-text", title: ".infolayer text.gtitle",
         annotationBox: "rect.bg" },
};

// the needed hooks that are missing now (for the player whose Play button has the key `button`)
function missingHooks(button) {
  const off = window.__olabHooksOff || [];
  const gone = [];
  const check = (name, found) => { if (off === "all" || off.includes(name) || !found) gone.push(name); };
  const P = window.Plotly;
  check("plotly", P && ["react", "relayout", "animate"].every((f) => typeof P[f] === "function"));
  check("chart", document.querySelector(HOOKS.chart.css));
  check("playButton", document.querySelector(HOOKS.playButton.css(button)));
  return gone;
}
// an optional hook, unless a test switched it off
const hookOn = (name) => { const off = window.__olabHooksOff || []; return off !== "all" && !off.includes(name); };

export default function (component) {
  const { data, setTriggerValue } = component;
  const all = (window.__olabPlayers = window.__olabPlayers || {});
  const key = data.key;
  let p = all[key];
  if (!p) {
    p = all[key] = { nonce: null, raf: null, charts: new Map(), shown: -1 };
    // Pause (button or key) while playing: the browser knows the round, so it reports it
    window.addEventListener("keydown", (e) => {
      const q = all[key];
      if (!q.nonce || e.key.toLowerCase() !== q.pauseKey || e.ctrlKey || e.metaKey || e.altKey) return;
      const tag = (e.target && e.target.tagName) || "";
      if (tag === "INPUT" || tag === "TEXTAREA") return;
      e.preventDefault(); e.stopImmediatePropagation(); q.stop(true);
    }, true);
    document.addEventListener("click", (e) => {
      const q = all[key];
      if (!q.nonce) return;
      const btn = e.target.closest && e.target.closest(HOOKS.playButton.css(q.button));
      if (!btn) return;
      e.preventDefault(); e.stopImmediatePropagation(); q.stop(true);
    }, true);
  }
  p.setTriggerValue = setTriggerValue;
  p.key = key;
  p.button = data.button;
  p.pauseKey = (data.pause_key || "k").toLowerCase();

  p.show = (gd, i) => show(gd, p.charts.get(gd), i);     // one frame on one chart (tests use it)

  p.stop = function (report) {
    if (p.raf) cancelAnimationFrame(p.raf);
    p.raf = null;
    uncull(p);
    if (p.started) {                                     // every view at the round reported
      if (liveMoved(p)) findTexts(p);
      follow(p, p.round); scrub(p, p.round);
    }
    const nonce = p.nonce;
    p.nonce = null;
    if (report && nonce) tell(p, { nonce: nonce, round: p.round });
  };

  // Play cannot run here (a needed hook is missing): stop before the first frame and tell the server once,
  // naming the hooks; it steps the rounds from the one shown
  function fallBack(p, gone) {
    if (p.raf) cancelAnimationFrame(p.raf);
    p.raf = null;
    const nonce = p.nonce;
    p.nonce = null;
    console.warn("Online Learning Lab: Play is stepped by the server; not found in this page: " + gone.join(", "));
    try { p.setTriggerValue("fallback", { nonce: nonce, round: p.round, hooks: gone }); } catch { /* gone */ }
  }

  // The round reached goes back to the server a moment later, once the app is idle and no key or click
  // came in the last second: a rerun requested in the same instant as another (PageUp pressed as the
  // play ends) can make Streamlit drop the other's button click, when the second request interrupts the
  // first run before its callbacks ran, and on a busy machine that first run can take a while to start.
  if (!window.__olabInput) {
    window.__olabInput = { at: -1e9 };
    for (const type of ["keydown", "pointerdown"])
      window.addEventListener(type, () => { window.__olabInput.at = performance.now(); }, true);
  }
  function tell(p, stopped) {
    const t0 = performance.now();
    const send = () => {
      const busy = appRunning() || performance.now() - window.__olabInput.at < 1000;
      if (busy && performance.now() - t0 < 5000) return setTimeout(send, 100);
      try { p.setTriggerValue("stopped", stopped); } catch { /* the player is gone: nothing to tell */ }
    };
    setTimeout(send, 300);
  }

  const appRunning = () => hookOn("running") && !!document.querySelector(HOOKS.running.css);

  // While playing, the page's elements off the screen are not rendered (content-visibility: auto, at
  // the size they have): the browser lays out and paints the whole page on every frame, and the charts
  // and formulas below the first screen cost as much as those that move.  Scrolled into view, they are
  // drawn as usual; Stop gives them back their own style.  (Checked again twice a second: Streamlit
  // sometimes mounts an element afresh after the run.)
  const ELEMENT = HOOKS.element.css;
  function cull(p, now) {
    p.culledAt = now;
    if (!hookOn("element")) return;
    const els = Array.from(document.querySelectorAll(ELEMENT)).filter((el) => !el.__olabCulled);
    const boxes = els.map((el) => el.getBoundingClientRect());
    p.culled = p.culled || [];
    els.forEach((el, n) => {
      const b = boxes[n];
      if (!(b.bottom < 0 || b.top > window.innerHeight) || b.height === 0) return;
      p.culled.push([el, el.style.contentVisibility, el.style.containIntrinsicSize]);
      el.__olabCulled = true;
      el.style.containIntrinsicSize = b.width + "px " + b.height + "px";
      el.style.contentVisibility = "auto";
    });
  }
  function uncull(p) {
    for (const [el, cv, size] of p.culled || []) {
      el.style.contentVisibility = cv; el.style.containIntrinsicSize = size; el.__olabCulled = false;
    }
    p.culled = [];
  }

  // The texts that follow the round (olapp.kit: the tally, readouts, captions): each is one markdown
  // element holding a block per round where its text changes (data-olab-round), all but one hidden; the
  // block of the round reached is shown.  Found again with the culling, twice a second.
  function findTexts(p) {
    const by = new Map();
    for (const el of document.querySelectorAll("[data-olab-round]")) {
      if (!by.has(el.parentElement)) by.set(el.parentElement, []);
      by.get(el.parentElement).push(el);
    }
    p.texts = Array.from(by.values()).map((els) => ({
      els: els, rounds: els.map((el) => +el.dataset.olabRound), shown: els.findIndex((el) => !el.hidden) }));
    // a table of the round: each row once, with the spans of rounds it is shown in ("a-b,...", b excluded)
    p.rows = Array.from(document.querySelectorAll("[data-olab-span]")).map((el) => ({
      el: el, on: el.style.display !== "none",
      spans: el.dataset.olabSpan.split(",").map((s) => s.split("-").map(Number)) }));
    p.live = Array.from(document.getElementsByClassName("olab-live"));
    p.followed = null;
  }
  // whether Streamlit drew a text or a table of the round afresh since findTexts (the nodes it holds are
  // gone): a few comparisons a tick
  function liveMoved(p) {
    const now = document.getElementsByClassName("olab-live"), was = p.live || [];
    if (now.length !== was.length) return true;
    for (let i = 0; i < now.length; i++) if (now[i] !== was[i]) return true;
    return false;
  }
  function follow(p, round) {
    if (p.followed === round) return;
    p.followed = round;
    for (const row of p.rows || []) {
      const on = row.spans.some(([a, b]) => a <= round && round < b);
      if (on !== row.on) { row.el.style.display = on ? "" : "none"; row.on = on; }
    }
    for (const g of p.texts || []) {
      let i = 0;
      while (i + 1 < g.rounds.length && g.rounds[i + 1] <= round) i++;
      if (i === g.shown) continue;
      g.els.forEach((el, k) => { el.hidden = k !== i; });
      g.shown = i;
    }
  }

  // The player's scrubber shows the round reached too: its thumb, its value and the filled part of its
  // track (a gradient of the track's class, overridden in place until Streamlit draws the slider with
  // another value: the server's rerun after the play, which moves it there itself).  React writes these
  // again whenever the slider's value changes.
  function scrub(p, round) {
    const box = hookOn("slider") && document.querySelector(HOOKS.slider.css(p.key));
    const input = box && box.querySelector("input[type=range]");
    const thumb = input && input.closest("[data-rac][style]");
    if (!thumb || p.scrubbed === round) return;
    const lo = +input.min, hi = +input.max, pct = hi > lo ? (100 * (round - lo)) / (hi - lo) : 0;
    p.scrubbed = round;
    thumb.style.left = pct + "%";
    input.setAttribute("aria-valuetext", String(round));
    const label = box.querySelector(HOOKS.sliderValue.css);
    if (label && label.firstChild && label.firstChild.nodeType === 3) label.firstChild.nodeValue = String(round);
    const track = thumb.parentElement && thumb.parentElement.firstElementChild;
    if (!track || track === thumb) return;
    const fill = getComputedStyle(track).backgroundImage, stops = fill.match(/[\d.]+%/g);
    if (!track.__olabFill) {
      if (!stops || stops.length !== 4) return;
      track.__olabFill = fill;
      const seen = new MutationObserver(() => { track.style.backgroundImage = ""; seen.disconnect(); track.__olabFill = null; });
      seen.observe(track, { attributes: true, attributeFilter: ["class"] });
    }
    let k = 0;
    track.style.backgroundImage = track.__olabFill.replace(/[\d.]+%/g, (m) => (k++ < 2 ? m : pct + "%"));
  }

  function load(gd) {
    const meta = gd.layout && gd.layout.meta;
    // (a chart's frames depend only on the run and the round they start from: any chart carrying
    // frames was drawn for this play, or for an earlier one from the same round)
    if (!meta || typeof meta.olab_frames !== "string") return null;
    let c = p.charts.get(gd);
    if (c && c.id === meta.olab_frames_id) return c;
    const f = JSON.parse(meta.olab_frames);
    f.traces = f.traces.map(decode);
    f.traces = f.traces.map((tr) => (tr && tr.slice !== undefined) ? cut(f.traces[tr.slice], tr) : tr);
    f.shapes = f.traces.map(shape);
    // the chart on screen is frame 0 (the server drew it from the same builder at the same round)
    c = { id: meta.olab_frames_id, f: f, layout: Object.assign({}, gd.layout), shown: 0, busy: false };
    p.charts.set(gd, c);
    return c;
  }

  const TYPES = { f8: Float64Array, f4: Float32Array, i4: Int32Array, i2: Int16Array, i1: Int8Array,
                  u1: Uint8Array, u2: Uint16Array, u4: Uint32Array };
  function typed(v) {                       // plotly's {dtype, bdata} as a typed array (sliceable); with a
    // shape (a heat map's or a contour's grid z), as its rows
    if (!v || typeof v !== "object" || typeof v.bdata !== "string" || !TYPES[v.dtype]) return v;
    const bin = atob(v.bdata), bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    const flat = new TYPES[v.dtype](bytes.buffer);
    if (!v.shape) return flat;
    const dims = String(v.shape).split(",").map(Number);
    if (dims.length !== 2 || dims[0] * dims[1] !== flat.length) return v;
    const rows = [];
    for (let i = 0; i < dims[0]; i++) rows.push(Array.from(flat.subarray(i * dims[1], (i + 1) * dims[1])));
    return rows;
  }
  function decode(tr) {
    if (!tr || tr.slice !== undefined) return tr;
    const out = {};
    for (const k in tr) {
      const v = tr[k];
      if (v && typeof v === "object" && !Array.isArray(v) && v.bdata === undefined) {
        const inner = {};
        for (const k2 in v) inner[k2] = typed(v[k2]);
        out[k] = inner;
      } else out[k] = typed(v);
    }
    return out;
  }
  function cut(parent, s) {                 // a run of the parent's points
    const out = Object.assign({}, parent);
    for (const path of s.fields) {
      if (path.length === 1) out[path[0]] = parent[path[0]].slice(s.lo, s.hi);
      else { out[path[0]] = Object.assign({}, parent[path[0]]); out[path[0]][path[1]] = parent[path[0]][path[1]].slice(s.lo, s.hi); }
    }
    return out;
  }

  // a trace without its point arrays (JSON): two traces of one shape differ only in their points
  function shape(tr) {
    if (!tr) return "";
    const out = {};
    for (const k in tr) {
      const v = tr[k];
      if (ArrayBuffer.isView(v) || Array.isArray(v)) continue;
      if (v && typeof v === "object") {
        const inner = {};
        for (const k2 in v) if (!ArrayBuffer.isView(v[k2]) && !Array.isArray(v[k2])) inner[k2] = v[k2];
        out[k] = inner;
      } else out[k] = v;
    }
    return JSON.stringify(out);
  }
  function axesFixed(gd) {
    const L = hookOn("fullLayout") && gd._fullLayout;
    if (!L) return false;                 // unknown axes: a full redraw
    return Object.keys(L).filter((k) => /^[xy]axis\d*$/.test(k)).every((k) => L[k] && L[k].autorange === false);
  }

  // Plotly.animate without redraw removes the layers of the traces it does not animate: a heat map's
  // or a contour's picture (a plotly.js bug; the Widrow-Hoff bowl, the kernel Perceptron's
  // region).  Those did not change in this frame: they are put back where they were as soon as they
  // are removed (a MutationObserver runs before the browser paints, so they never blink).
  function keepGrids(gd) {
    const kept = Array.from(gd.querySelectorAll(HOOKS.svg.grids))
      .map((el) => [el, el.parentNode, el.nextSibling]);
    const restore = () => {
      for (const [el, parent, next] of kept)
        if (!el.isConnected && parent && parent.isConnected)
          parent.insertBefore(el, next && next.parentNode === parent ? next : parent.firstChild);
    };
    if (!kept.length) return () => {};
    const watch = new MutationObserver(restore);
    for (const parent of new Set(kept.map((k) => k[1]))) if (parent) watch.observe(parent, { childList: true });
    return () => { watch.disconnect(); restore(); };
  }

  // plotly.js's animate draws a trace that comes back from no drawn points on top of the others:
  // put the traces' groups back in the figure's order (what a full redraw does), moving only the
  // groups out of place: a group moved is styled, laid out and painted afresh with all its points
  function stack(gd) {
    const at = (g) => (g.__data__ && g.__data__[0] && g.__data__[0].trace) ? g.__data__[0].trace.index : 1e9;
    for (const layer of gd.querySelectorAll(HOOKS.svg.scatter)) {
      const groups = Array.from(layer.children), order = groups.slice().sort((a, b) => at(a) - at(b));
      for (let i = 0; i < order.length; i++)
        if (layer.children[i] !== order[i]) layer.insertBefore(order[i], layer.children[i]);
    }
  }

  // plotly.js keeps the trace objects it is given and later writes the next frame's values into
  // them: it gets copies (objects copied two levels down; point arrays shared, never written)
  function copy(tr) {
    const out = {};
    for (const k in tr) {
      const v = tr[k];
      out[k] = (v && typeof v === "object" && !Array.isArray(v) && !ArrayBuffer.isView(v)) ? Object.assign({}, v) : v;
    }
    return out;
  }
  const SCATTER = (tr) => tr && (tr.type === undefined || tr.type === "scatter");
  // traces plotly.js animates (redraws alone): scatter, and bars on fixed axes
  const ANIMATED = (tr) => SCATTER(tr) || (tr && tr.type === "bar");

  // Frame i after frame j on the chart: when the same traces are drawn and those that change are
  // scatter traces that keep their shape (only their points move), redraw just those traces
  // (Plotly.animate without redraw: plotly.js recomputes and draws only them) and the layout keys
  // that changed (Plotly.relayout); anything else, or any trace change on a chart whose axes
  // autorange, is a full Plotly.react.  A full redraw costs every point of every trace (2000 SVG
  // markers: about 0.2 s on a CPU-drawn page); the points seen so far are drawn in binary runs
  // (olapp.figures.points_by_round), so a frame refills only a few points.
  function show(gd, c, i) {
    const f = c.f, was = f.frames[c.shown], ids = f.frames[i];
    const changed = [];
    let fast = was.length === ids.length;
    for (let j = 0; fast && j < ids.length; j++) {
      if (was[j] === ids[j]) continue;
      const a = f.traces[was[j]], b = f.traces[ids[j]];
      fast = ANIMATED(a) && ANIMATED(b) && f.shapes[was[j]] === f.shapes[ids[j]];
      changed.push(j);
    }
    // without a full redraw plotly.js does not autorange: points that move need fixed axes
    if (changed.length && fast) fast = axesFixed(gd);
    const lw = f.frame_layouts[c.shown], li = f.frame_layouts[i];
    c.shown = i;
    p.full += fast ? 0 : 1;                   // full redraws, reported by benchmarks.play
    if (!fast) return window.Plotly.react(gd, ids.map((k) => copy(f.traces[k])), merge(c.layout, f.layouts[li]));
    const steps = [];
    if (lw !== li) {
      const before = merge(c.layout, f.layouts[lw]), after = merge(c.layout, f.layouts[li]), upd = {};
      for (const k of new Set([...Object.keys(f.layouts[lw]), ...Object.keys(f.layouts[li])]))
        changes(before[k], after[k], k, upd);
      const rest = moveInPlace(gd, upd);
      if (Object.keys(rest).length) steps.push(() => window.Plotly.relayout(gd, rest));
    }
    // (plotly.js 4.2 leaves a trace's old points on screen when it animates to no points; one
    // missing point, [null], clears them)
    const data = changed.map((j) => copy(f.traces[ids[j]]))
      .map((tr) => (tr.x && tr.x.length === 0) ? Object.assign(tr, { x: [null], y: [null] }) : tr);
    if (changed.length) {
      const grids = keepGrids(gd);
      steps.push(() => window.Plotly.animate(
        gd, { data: data, traces: changed },
        { transition: { duration: 0 }, frame: { duration: 0, redraw: false }, mode: "immediate" }),
        () => { grids(); stack(gd); });
    }
    return steps.reduce((done, step) => done.then(step), Promise.resolve());
  }

  // The round marker (olapp.figures.Fig.round_marker: a vertical line and its "t = ..." label) moves on
  // every frame, and in plotly.js 4.2 Plotly.relayout of any shape or annotation replots the chart's whole
  // layout: about 40 ms a chart and frame, a third of a tick at 1920 px.  A line shape that only moves
  // along x, and an annotation whose x or plain text changes, are moved here instead: their SVG by a
  // translation (a label's change of width made up by its anchor) and the chart's layout with them, so
  // that whatever plotly.js draws later (a redraw, the server's chart at the end) draws them there too.
  // Everything else goes to Plotly.relayout.
  function moveInPlace(gd, upd) {
    const rest = {}, items = new Map();
    for (const path in upd) {
      if (path === "title.text" && retitle(gd, upd[path])) continue;
      const m = /^(shapes|annotations)\[(\d+)\]\.(.+)$/.exec(path);
      if (!m) { rest[path] = upd[path]; continue; }
      const id = m[1] + m[2];
      if (!items.has(id)) items.set(id, { kind: m[1], i: +m[2], set: {}, paths: {} });
      items.get(id).set[m[3]] = upd[path];
      items.get(id).paths[path] = upd[path];
    }
    for (const it of items.values()) if (!moveOne(gd, it)) Object.assign(rest, it.paths);
    return rest;
  }

  const CLEAR = "rgba(0,0,0,0)";
  // a text plotly.js draws as one SVG text, unchanged (no markup, entity, line break or LaTeX)
  const PLAIN = (text) => typeof text === "string" && text !== "" && !/[<&\n$]/.test(text);
  // a text's width in the label's font, measured on a canvas: asking the SVG text would make the browser
  // lay out the page with every other chart's changes of this frame
  function textWidth(node, text) {
    const ctx = (textWidth.ctx = textWidth.ctx || document.createElement("canvas").getContext("2d"));
    ctx.font = [node.style.fontStyle, node.style.fontWeight, node.style.fontSize, node.style.fontFamily].join(" ");
    return ctx.measureText(text).width;
  }
  // a plain-text title (no markup, drawn as one SVG text) gets its new text in place; its anchor keeps it
  // where plotly.js put it (a title never widens the plot)
  function retitle(gd, text) {
    const L = hookOn("fullLayout") && gd._fullLayout, mine = gd.layout, els = gd.querySelectorAll(HOOKS.svg.title);
    if (!PLAIN(text) || els.length !== 1 || els[0].children.length
        || !L || !L.title || !mine || !mine.title || typeof mine.title !== "object") return false;
    els[0].textContent = text;
    els[0].setAttribute("data-unformatted", text);
    L.title.text = text;
    mine.title.text = text;
    return true;
  }
  function moveOne(gd, it) {
    const L = (hookOn("fullLayout") && gd._fullLayout) || {}, full = (L[it.kind] || [])[it.i], mine = ((gd.layout || {})[it.kind] || [])[it.i];
    const ax = full && /^x\d*$/.test(full.xref || "") && L["xaxis" + full.xref.slice(1)];
    // a linear axis that does not follow the marker (an autoranged one keeps annotations inside its range)
    if (!mine || !ax || ax.type !== "linear" || ax.autorange !== false || typeof ax.r2p !== "function") return false;
    const els = gd.querySelectorAll((it.kind === "shapes" ? HOOKS.svg.shape : HOOKS.svg.annotation) + '[data-index="' + it.i + '"]');
    if (els.length !== 1) return false;
    const el = els[0], keys = Object.keys(it.set), to = {};
    let node = null;
    if (it.kind === "shapes") {
      if (full.type !== "line" || full.x0 !== full.x1 || keys.some((k) => k !== "x0" && k !== "x1")) return false;
      to.x0 = "x0" in it.set ? it.set.x0 : full.x0;
      to.x1 = "x1" in it.set ? it.set.x1 : full.x1;
      if (to.x0 !== to.x1) return false;
    } else {
      if (keys.some((k) => k !== "x" && k !== "text")) return false;
      to.x = "x" in it.set ? it.set.x : full.x;
      if ("text" in it.set) {
        node = el.querySelector(HOOKS.svg.annotationText);
        to.text = it.set.text;
        if (!PLAIN(to.text) || !node || node.children.length
            || !["left", "center", "right"].includes(full.xanchor) || full.bgcolor !== CLEAR
            || full.bordercolor !== CLEAR) return false;
      }
    }
    const x = it.kind === "shapes" ? to.x0 : to.x;
    if (typeof x !== "number" || !isFinite(x)) return false;
    if (el.__olab === undefined) {                     // first move: where and how plotly.js drew it
      if (el.getAttribute("transform")) return false;
      const drawn = el.querySelector(HOOKS.svg.annotationText), bg = el.querySelector(HOOKS.svg.annotationBox);
      el.__olab = { x: it.kind === "shapes" ? full.x0 : full.x, width: drawn ? textWidth(drawn, drawn.textContent) : 0, shift: 0,
                    bg: bg && { el: bg, x: +bg.getAttribute("x"), width: +bg.getAttribute("width") } };
    }
    if (node) {             // the text is centred in the label's box, whose anchor must stay put
      const grown = textWidth(node, to.text) - el.__olab.width, bg = el.__olab.bg;
      node.textContent = to.text;
      node.setAttribute("data-unformatted", to.text);
      el.__olab.shift = { left: grown / 2, center: 0, right: -grown / 2 }[full.xanchor];
      if (bg && isFinite(bg.x) && isFinite(bg.width)) {  // the (clear) box grows about the text's centre, as drawn afresh
        bg.el.setAttribute("x", bg.x - grown / 2);
        bg.el.setAttribute("width", Math.max(0, bg.width + grown));
      }
    }
    const dx = ax.r2p(x) - ax.r2p(el.__olab.x) + el.__olab.shift;
    if (!isFinite(dx)) return false;
    el.setAttribute("transform", "translate(" + dx + ",0)");
    for (const k in to) { full[k] = to[k]; mine[k] = to[k]; }
    return true;
  }

  // the layout changes from a to b as relayout paths ("annotations[0].x", "title.text"): plotly.js
  // then redraws only the annotation or shape that moved (a whole new array redraws the chart)
  function changes(a, b, path, out) {
    if (JSON.stringify(a) === JSON.stringify(b)) return;
    const obj = (v) => v && typeof v === "object" && !Array.isArray(v);
    if (obj(a) && obj(b)) {
      for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) changes(a[k], b[k], path + "." + k, out);
    } else if (Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every(obj) && b.every(obj)) {
      a.forEach((v, i) => changes(v, b[i], path + "[" + i + "]", out));
    } else out[path] = b === undefined ? null : b;
  }

  function merge(a, b) {
    const out = Object.assign({}, a);
    for (const k in b) {
      const v = b[k];
      out[k] = (v && typeof v === "object" && !Array.isArray(v) && a[k] && typeof a[k] === "object"
                && !Array.isArray(a[k])) ? merge(a[k], v) : v;
    }
    return out;
  }

  // plotly.js's doCalcdata lists the array attributes of every trace of a chart on every call, whichever
  // traces changed (PlotSchema.findArrayAttributes: a crawl of the trace type's whole schema, about 1.5 ms
  // a trace; a third of Play's script time with the data space's 34 traces).  For a scatter trace the list
  // depends only on which of its inputs are arrays: it is kept per input object (gd.data[i]) and computed
  // again when that set changes.  (The list feeds the hover's per-point values, such as customdata.)
  function rememberArrayAttributes() {
    const schema = hookOn("arrayAttributes") && window.Plotly && window.Plotly.PlotSchema;
    if (!schema || typeof schema.findArrayAttributes !== "function" || schema.findArrayAttributes.olab) return;
    const find = schema.findArrayAttributes, memo = new WeakMap();
    const arrays = (o, path, out, depth) => {
      for (const k in o) {
        const v = o[k];
        if (Array.isArray(v) || ArrayBuffer.isView(v)) out.push(path + k);
        else if (v && typeof v === "object" && depth < 4) arrays(v, path + k + ".", out, depth + 1);
      }
      return out;
    };
    const remembered = function (trace) {
      const input = trace && trace._input;
      if (!input || typeof input !== "object" || !SCATTER(trace)) return find.apply(this, arguments);
      const sig = arrays(input, "", [], 0).join("|"), hit = memo.get(input);
      if (hit && hit.sig === sig) return hit.list.slice();
      const list = find.apply(this, arguments);
      memo.set(input, { sig: sig, list: list.slice() });
      return list;
    };
    remembered.olab = true;
    schema.findArrayAttributes = remembered;
  }

  function ready(now) {
    // wait for the rerun that brought the frames to finish: at least one chart carries them, the app
    // is not running, and no new chart has come for a moment; then start the clock
    const n = Array.from(document.querySelectorAll(HOOKS.chart.css)).filter((gd) => load(gd)).length;
    const running = appRunning();
    if (n !== p.seen) { p.seen = n; p.since = now; }
    return n > 0 && !running && now - p.since > 400;
  }

  function draw(now) {
    if (!p.nonce) return;
    p.raf = requestAnimationFrame(draw);
    if (!p.started) {
      // the startup check: a needed hook missing once the rerun that brought the frames is over (or no
      // chart with frames after 30 s) hands Play to the server
      if (appRunning()) p.busyAt = now;
      const gone = missingHooks(p.button);
      if (!gone.length && ready(now)) { p.started = true; p.t0 = now; rememberArrayAttributes(); cull(p, now); findTexts(p); }
      else if (gone.length && now - Math.max(p.busyAt, p.t0) > 1500) fallBack(p, gone);
      else if (now - p.t0 > 30000) fallBack(p, ["frames"]);
      return;
    }
    if (now - p.last < 1000 / p.fps) return;
    if (now - p.culledAt > 500) { cull(p, now); findTexts(p); }
    const target = p.start + (p.speed * (now - p.t0)) / 1000;
    const gds = Array.from(document.querySelectorAll(HOOKS.chart.css));
    // where the charts are, read before any of them changes: asking after a chart's frame would make the
    // browser lay out the page again, once per chart and tick (the element's box: a chart off the screen
    // is not laid out, see cull)
    const boxes = gds.map((gd) => (gd.closest(ELEMENT) || gd).getBoundingClientRect());
    let done = true, any = false, moved = false, at = -1;
    for (let n = 0; n < gds.length; n++) {
      const gd = gds[n], c = load(gd);
      if (!c) continue;
      any = true;
      for (const r of c.f.rounds) if (r <= target && r > at) at = r;
      const box = boxes[n];                         // off-screen charts wait (the server redraws all at the end)
      if (box.bottom < 0 || box.top > window.innerHeight) { if (c.f.rounds[c.f.rounds.length - 1] > target) done = false; continue; }
      const rounds = c.f.rounds;
      let i = c.shown;
      while (i + 1 < rounds.length && rounds[i + 1] <= target) i++;
      if (i + 1 < rounds.length) done = false;
      if (c.busy) { done = false; continue; }     // its last frame is still being drawn
      if (i !== c.shown) {
        const t1 = performance.now();
        c.busy = true;
        Promise.resolve(show(gd, c, i)).catch(() => {}).then(() => {
          c.busy = false;
          c.drawMs = (c.drawMs || 0) + performance.now() - t1;
          c.draws = (c.draws || 0) + 1;
          p.drawMs += performance.now() - t1;     // reported by benchmarks.play
        });
        moved = true;
      }
    }
    // the round reached: the last frame's round the clock has passed (a chart off the screen waits for it,
    // one still drawing its last frame draws it next); the texts and the scrubber show it
    if (at >= 0) { if (liveMoved(p)) findTexts(p); p.round = at; follow(p, at); scrub(p, at); }
    if (moved) p.advances += 1;               // redraws of the lesson's views (all charts at once)
    p.last = now;
    if (!any || done) p.stop(true);
  }

  if (data.nonce && data.nonce !== p.nonce) {
    if (p.nonce) p.stop(false);
    p.nonce = data.nonce; p.start = data.start; p.round = data.start; p.charts = new Map();
    p.scrubbed = null;
    p.t0 = performance.now(); p.busyAt = p.t0; p.last = -1e9; p.advances = 0; p.drawMs = 0; p.full = 0; p.started = false; p.seen = -1; p.since = 0;
    p.raf = requestAnimationFrame(draw);
  } else if (data.nonce && data.nonce === p.nonce && data.speed !== p.speed) {
    p.start = p.round; p.t0 = performance.now();         // a new speed: go on from the round reached
  } else if (!data.nonce && p.nonce) {
    p.stop(false);                                       // the server stopped it (Step, Back, a setting)
  }
  p.speed = data.speed; p.fps = data.fps; p.T = data.T;
}
