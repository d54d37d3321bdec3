// The page of rpcgen inspect. Plain JavaScript, no build step. Everything the
// server sends is shown with textContent or as attributes set through the DOM,
// never parsed as HTML: a hostile server must not run script in this page,
// which holds the inspector's token.
"use strict";

const token = new URLSearchParams(location.search).get("token") || "";

// h builds an element: attrs are properties (on* are listeners), children
// are nodes or strings (as text).
function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className = v;
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (k.startsWith("aria-") || k === "role" || k === "for" || k === "list") el.setAttribute(k, v);
    else el[k] = v;
  }
  for (const c of children.flat()) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : String(c));
  }
  return el;
}

const $ = (id) => document.getElementById(id);

// put replaces el's children with the given ones, leaving out the absent
// (null, undefined, false), which replaceChildren would show as text.
function put(el, ...kids) {
  el.replaceChildren(...kids.flat().filter((k) => k !== null && k !== undefined && k !== false));
}

// api calls the inspector; it resolves to the decoded answer and rejects
// with an Error carrying the server's JSON-RPC error, if any.
async function api(method, path, body) {
  const opts = { method, headers: { "X-Inspect-Token": token } };
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  const resp = await fetch(path, opts);
  const text = await resp.text();
  let data;
  try { data = JSON.parse(text); } catch { data = { message: text }; }
  if (!resp.ok) {
    const e = data.error || data;
    const err = new Error((e.code ? e.code + " " : "") + (e.message || resp.statusText));
    err.data = e.data;
    throw err;
  }
  return data;
}

function errorBox(err) {
  const box = h("div", { class: "error", role: "alert" }, err.message);
  if (err.data) box.append(h("pre", {}, JSON.stringify(err.data, null, 2)));
  return box;
}

// ---- tabs -----------------------------------------------------------------

const tabs = [...document.querySelectorAll('[role="tab"]')];
function selectTab(tab) {
  for (const t of tabs) {
    const on = t === tab;
    t.setAttribute("aria-selected", on);
    t.tabIndex = on ? 0 : -1;
    $(t.getAttribute("aria-controls")).hidden = !on;
  }
  if (tab.id === "tab-traffic") traffic.render();
}
tabs.forEach((t, i) => {
  t.addEventListener("click", () => selectTab(t));
  t.addEventListener("keydown", (e) => {
    const d = e.key === "ArrowRight" ? 1 : e.key === "ArrowLeft" ? -1 : 0;
    if (!d) return;
    const next = tabs[(i + d + tabs.length) % tabs.length];
    next.focus();
    selectTab(next);
  });
});

// ---- session --------------------------------------------------------------

let session = null;

async function loadSession() {
  session = await api("GET", "/api/session");
  const info = session.serverInfo || {};
  $("server-name").textContent = info.title || info.name || "server";
  $("server-version").textContent = info.version || "";
  $("era").textContent = session.stateless ? "stateless" : "handshake";
  $("protocol-version").textContent = session.protocolVersion;
  $("status").textContent = "connected";
  const facts = $("server-info");
  put(facts, );
  const fact = (k, v) => { if (v) facts.append(h("dt", {}, k), h("dd", {}, v)); };
  fact("Name", info.name);
  fact("Title", info.title);
  fact("Version", info.version);
  fact("Website", info.websiteUrl);
  fact("Protocol version", session.protocolVersion);
  fact("Era", session.stateless ? "stateless (2026-07-28)" : "handshake (initialize)");
  fact("Server", session.target);
  $("instructions").textContent = session.instructions || "(none)";
  $("capabilities").textContent = JSON.stringify(session.capabilities || {}, null, 2);
}

$("log-level").addEventListener("change", async (e) => {
  if (!e.target.value) return;
  try { await api("POST", "/api/logging", { level: e.target.value }); }
  catch (err) { activity.add("error", "logging/setLevel: " + err.message); }
});

// ---- forms from JSON Schema --------------------------------------------------

// deref follows a local $ref ("#/$defs/x") within root.
function deref(s, root) {
  let seen = 0;
  while (s && s.$ref && typeof s.$ref === "string" && s.$ref.startsWith("#/") && seen++ < 16) {
    let t = root;
    for (const part of s.$ref.slice(2).split("/")) t = t && t[part.replace(/~1/g, "/").replace(/~0/g, "~")];
    if (!t) break;
    s = t;
  }
  return s || {};
}

// choices returns the [value, label] pairs of an enumerated schema, or null.
function choices(s) {
  if (Array.isArray(s.enum)) return s.enum.map((v, i) => [v, (s.enumNames && s.enumNames[i]) || String(v)]);
  const alts = s.oneOf || s.anyOf;
  if (Array.isArray(alts) && alts.length && alts.every((a) => a && "const" in a)) return alts.map((a) => [a.const, a.title || String(a.const)]);
  return null;
}

let fieldSeq = 0;

// schemaForm builds the fields of an object schema; its value() returns the
// object the fields make, or throws with what is wrong.
function schemaForm(schema, opts = {}) {
  const root = schema || {};
  const s = deref(root, root);
  const props = s.properties || {};
  const required = new Set(s.required || []);
  const wrap = h("div", { class: "schema-form" });
  const getters = [];
  for (const [name, raw] of Object.entries(props)) {
    const p = deref(raw, root);
    const id = "f" + ++fieldSeq;
    const label = h("label", { for: id }, p.title || name, required.has(name) ? h("span", { class: "req", "aria-hidden": "true" }, " *") : null);
    const desc = p.description ? h("span", { class: "desc", id: id + "-d" }, p.description) : null;
    const type = Array.isArray(p.type) ? p.type.find((t) => t !== "null") : p.type;
    const opt = choices(p);
    const itemChoices = type === "array" && p.items ? choices(deref(p.items, root)) : null;
    let input, get;
    if (opt) {
      input = h("select", { id, name });
      if (!required.has(name)) input.append(h("option", { value: "" }, "(none)"));
      opt.forEach(([v, l], i) => input.append(h("option", { value: String(i), selected: p.default === v }, l)));
      get = () => (input.value === "" ? undefined : opt[Number(input.value)][0]);
    } else if (itemChoices) {
      input = h("select", { id, name, multiple: true, size: Math.min(itemChoices.length, 6) });
      const def = Array.isArray(p.default) ? p.default : [];
      itemChoices.forEach(([v, l], i) => input.append(h("option", { value: String(i), selected: def.includes(v) }, l)));
      get = () => [...input.selectedOptions].map((o) => itemChoices[Number(o.value)][0]);
    } else if (type === "boolean") {
      input = h("input", { id, name, type: "checkbox", checked: p.default === true });
      get = () => input.checked;
    } else if (type === "number" || type === "integer") {
      input = h("input", { id, name, type: "number", step: type === "integer" ? "1" : "any", value: p.default ?? "" });
      get = () => {
        if (input.value === "") return undefined;
        const n = Number(input.value);
        if (Number.isNaN(n) || (type === "integer" && !Number.isInteger(n))) throw new Error(name + ": not " + (type === "integer" ? "an integer" : "a number"));
        return n;
      };
    } else if (type === "string" || (!type && !p.properties && !p.items)) {
      input = h("input", { id, name, type: "text", value: p.default ?? "" });
      if (opts.complete) {
        const list = h("datalist", { id: id + "-l" });
        input.setAttribute("list", list.id);
        wrap.append(list);
        let timer;
        input.addEventListener("input", () => {
          clearTimeout(timer);
          timer = setTimeout(async () => {
            try {
              const values = await opts.complete(name, input.value, currentValues());
              put(list, ...values.map((v) => h("option", { value: v })));
            } catch { /* completion is a convenience */ }
          }, 150);
        });
      }
      get = () => (input.value === "" ? undefined : input.value);
    } else {
      input = h("textarea", { id, name, placeholder: "JSON", value: p.default !== undefined ? JSON.stringify(p.default, null, 2) : "" });
      get = () => {
        if (input.value.trim() === "") return undefined;
        try { return JSON.parse(input.value); } catch (e) { throw new Error(name + ": " + e.message); }
      };
    }
    if (desc) input.setAttribute("aria-describedby", desc.id);
    if (required.has(name)) input.setAttribute("aria-required", "true");
    wrap.append(h("div", { class: "field" }, label, desc, input));
    getters.push([name, get]);
  }
  const extra = !Object.keys(props).length && s.type !== "object" && Object.keys(s).length ? true : false;
  let rawArea = null;
  if (extra || s.additionalProperties || opts.raw) {
    const id = "f" + ++fieldSeq;
    rawArea = h("textarea", { id, placeholder: "{}" });
    wrap.append(h("div", { class: "field" }, h("label", { for: id }, Object.keys(props).length ? "More members (JSON object)" : "Arguments (JSON object)"), rawArea));
  }
  function currentValues() {
    const out = {};
    for (const [n, g] of getters) { try { const v = g(); if (v !== undefined) out[n] = v; } catch { /* not yet valid */ } }
    return out;
  }
  wrap.value = () => {
    let out = {};
    if (rawArea && rawArea.value.trim()) {
      try { out = JSON.parse(rawArea.value); } catch (e) { throw new Error("JSON: " + e.message); }
    }
    for (const [n, g] of getters) {
      const v = g();
      if (v !== undefined) out[n] = v;
      else if (required.has(n)) throw new Error(n + " is required");
    }
    return out;
  };
  return wrap;
}

// ---- results ---------------------------------------------------------------

function mediaURL(mime, data) {
  return "data:" + mime + ";base64," + data;
}

// content renders one content block by its type.
function content(c) {
  const box = h("div", { class: "content-block" }, h("div", { class: "kind" }, c.type + (c.mimeType ? " · " + c.mimeType : "")));
  switch (c.type) {
    case "text":
      box.append(h("pre", { class: "text" }, c.text));
      break;
    case "image":
      if (/^image\/[\w.+-]+$/.test(c.mimeType || "")) box.append(h("img", { src: mediaURL(c.mimeType, c.data), alt: "image from the server" }));
      break;
    case "audio":
      if (/^audio\/[\w.+-]+$/.test(c.mimeType || "")) box.append(h("audio", { controls: true, src: mediaURL(c.mimeType, c.data), "aria-label": "audio from the server" }));
      break;
    case "resource":
      box.append(resourceContents(c.resource || {}));
      break;
    case "resource_link":
      box.append(h("p", {}, (c.name || "") + " ", h("code", {}, c.uri || "")));
      break;
    default:
      box.append(h("pre", { class: "json" }, JSON.stringify(c, null, 2)));
  }
  return box;
}

// resourceContents renders a resource's text or blob.
function resourceContents(r) {
  const box = h("div", {}, h("p", {}, h("code", {}, r.uri || "")));
  if (typeof r.text === "string") box.append(h("pre", { class: "text" }, r.text));
  else if (typeof r.blob === "string") {
    if (/^image\/[\w.+-]+$/.test(r.mimeType || "")) box.append(h("img", { src: mediaURL(r.mimeType, r.blob), alt: r.uri || "resource" }));
    else if (/^audio\/[\w.+-]+$/.test(r.mimeType || "")) box.append(h("audio", { controls: true, src: mediaURL(r.mimeType, r.blob) }));
    else box.append(h("p", { class: "hint" }, "binary, " + Math.floor(r.blob.length * 3 / 4) + " bytes"));
  }
  return box;
}

function findingsList(findings) {
  return h("ul", { class: "findings" }, findings.map((f) => h("li", {}, h("code", {}, f.pointer || "(whole message)"), " ", f.reason)));
}

// ---- tools -----------------------------------------------------------------

// itemList fills a list of buttons; choose is called with the chosen item.
function itemList(ul, items, label, sub, choose) {
  put(ul, );
  if (!items.length) ul.append(h("li", { class: "hint" }, "none"));
  for (const it of items) {
    const b = h("button", {
      dataset: { name: label(it) },
      onclick: () => {
        ul.querySelectorAll("button").forEach((x) => x.removeAttribute("aria-current"));
        b.setAttribute("aria-current", "true");
        choose(it);
      },
    }, label(it), sub(it) ? h("small", {}, sub(it)) : null);
    ul.append(h("li", {}, b));
  }
}

let toolsLoaded = null;
async function loadTools() {
  const pane = $("tool-detail");
  try {
    const { tools } = await api("GET", "/api/tools");
    itemList($("tool-list"), tools, (t) => t.name, (t) => t.title || t.description, showTool);
  } catch (err) {
    put($("tool-list"), h("li", {}, errorBox(err)));
  }
  return pane;
}

function showTool(t) {
  const pane = $("tool-detail");
  const form = schemaForm(t.inputSchema, {});
  const out = h("div", { id: "tool-result", "aria-live": "polite" });
  const call = h("button", { class: "primary", id: "call-tool", type: "submit" }, "Call " + t.name);
  const f = h("form", {
    onsubmit: async (e) => {
      e.preventDefault();
      let args;
      try { args = form.value(); } catch (err) { put(out, errorBox(err)); return; }
      put(out, h("p", { class: "hint" }, "calling…"));
      call.disabled = true;
      try {
        const r = await api("POST", "/api/tools/call", { name: t.name, arguments: args });
        put(out, callResult(r));
      } catch (err) {
        put(out, errorBox(err));
      } finally {
        call.disabled = false;
      }
    },
  }, form, h("div", { class: "actions" }, call));
  put(pane, 
    h("h2", {}, t.title || t.name),
    t.description ? h("p", {}, t.description) : null,
    t.annotations ? h("details", {}, h("summary", {}, "Annotations"), h("pre", { class: "json" }, JSON.stringify(t.annotations, null, 2))) : null,
    h("details", {}, h("summary", {}, "Input schema"), h("pre", { class: "json" }, JSON.stringify(t.inputSchema, null, 2))),
    t.outputSchema ? h("details", {}, h("summary", {}, "Output schema"), h("pre", { class: "json" }, JSON.stringify(t.outputSchema, null, 2))) : null,
    f, out);
}

function callResult(r) {
  const res = r.result || {};
  const box = h("div", { class: "call-result" });
  box.append(h("h3", {}, res.isError ? "Tool error" : "Result"));
  for (const c of res.content || []) box.append(content(c));
  if (res.structuredContent !== undefined) {
    box.append(h("h4", {}, "Structured content"), h("pre", { class: "json" }, JSON.stringify(res.structuredContent, null, 2)));
  }
  if (r.outputFindings && r.outputFindings.length) {
    box.append(h("h4", {}, "Breaks the output schema"), findingsList(r.outputFindings));
  } else if (res.structuredContent !== undefined) {
    box.append(h("p", { class: "hint output-ok" }, "Matches the output schema."));
  }
  return box;
}

// ---- resources and templates -------------------------------------------------

async function loadResources() {
  try {
    const { resources } = await api("GET", "/api/resources");
    itemList($("resource-list"), resources, (r) => r.name || r.uri, (r) => r.uri, showResource);
  } catch (err) { put($("resource-list"), h("li", {}, errorBox(err))); }
  try {
    const { resourceTemplates } = await api("GET", "/api/templates");
    itemList($("template-list"), resourceTemplates, (r) => r.name || r.uriTemplate, (r) => r.uriTemplate, showTemplate);
  } catch (err) { put($("template-list"), h("li", {}, errorBox(err))); }
}

async function readInto(out, uri) {
  put(out, h("p", { class: "hint" }, "reading…"));
  try {
    const { result } = await api("POST", "/api/resources/read", { uri });
    put(out, ...(result.contents || []).map(resourceContents));
  } catch (err) { put(out, errorBox(err)); }
}

function showResource(r) {
  const out = h("div", { "aria-live": "polite" });
  put($("resource-detail"), 
    h("h2", {}, r.title || r.name || r.uri), r.description ? h("p", {}, r.description) : null,
    h("p", {}, h("code", {}, r.uri), r.mimeType ? " · " + r.mimeType : ""),
    h("div", { class: "actions" }, h("button", { class: "primary", onclick: () => readInto(out, r.uri) }, "Read")), out);
}

// templateVars lists the variables of a URI template, {id} and {+path} alike.
function templateVars(t) {
  const names = [];
  for (const m of t.matchAll(/\{([^}]+)\}/g)) for (const v of m[1].replace(/^[+#./;?&]/, "").split(",")) names.push(v.replace(/\*$|:\d+$/, ""));
  return [...new Set(names)];
}

function expand(t, values) {
  return t.replace(/\{([^}]+)\}/g, (_, expr) => {
    const op = /^[+#./;?&]/.test(expr) ? expr[0] : "";
    const vars = (op ? expr.slice(1) : expr).split(",").map((v) => v.replace(/\*$|:\d+$/, ""));
    const enc = op === "+" || op === "#" ? encodeURI : encodeURIComponent;
    return (op === "#" || op === "." || op === "/" ? op : "") + vars.map((v) => enc(values[v] ?? "")).join(op === "/" ? "/" : ",");
  });
}

const completes = () => session && session.capabilities && session.capabilities.completions;

function showTemplate(t) {
  const vars = templateVars(t.uriTemplate);
  const schema = { type: "object", properties: Object.fromEntries(vars.map((v) => [v, { type: "string" }])), required: vars };
  const complete = completes() ? async (name, value, others) => {
    const { result } = await api("POST", "/api/complete", { ref: { type: "ref/resource", uri: t.uriTemplate }, argument: { name, value }, context: { arguments: others } });
    return result.completion.values || [];
  } : null;
  const form = schemaForm(schema, { complete });
  const out = h("div", { "aria-live": "polite" });
  put($("resource-detail"), 
    h("h2", {}, t.title || t.name), t.description ? h("p", {}, t.description) : null,
    h("p", {}, h("code", {}, t.uriTemplate)),
    h("form", {
      onsubmit: (e) => {
        e.preventDefault();
        let v;
        try { v = form.value(); } catch (err) { put(out, errorBox(err)); return; }
        readInto(out, expand(t.uriTemplate, v));
      },
    }, form, h("div", { class: "actions" }, h("button", { class: "primary", type: "submit" }, "Read"))), out);
}

// ---- prompts ---------------------------------------------------------------

async function loadPrompts() {
  try {
    const { prompts } = await api("GET", "/api/prompts");
    itemList($("prompt-list"), prompts, (p) => p.name, (p) => p.title || p.description, showPrompt);
  } catch (err) { put($("prompt-list"), h("li", {}, errorBox(err))); }
}

function showPrompt(p) {
  const args = p.arguments || [];
  const schema = {
    type: "object",
    properties: Object.fromEntries(args.map((a) => [a.name, { type: "string", title: a.title || a.name, description: a.description }])),
    required: args.filter((a) => a.required).map((a) => a.name),
  };
  const complete = completes() ? async (name, value, others) => {
    const { result } = await api("POST", "/api/complete", { ref: { type: "ref/prompt", name: p.name }, argument: { name, value }, context: { arguments: others } });
    return result.completion.values || [];
  } : null;
  const form = schemaForm(schema, { complete });
  const out = h("div", { "aria-live": "polite" });
  put($("prompt-detail"), 
    h("h2", {}, p.title || p.name), p.description ? h("p", {}, p.description) : null,
    h("form", {
      onsubmit: async (e) => {
        e.preventDefault();
        let a;
        try { a = form.value(); } catch (err) { put(out, errorBox(err)); return; }
        put(out, h("p", { class: "hint" }, "getting…"));
        try {
          const { result } = await api("POST", "/api/prompts/get", { name: p.name, arguments: a });
          put(out, result.description ? h("p", {}, result.description) : "",
            ...(result.messages || []).map((m) => h("div", { class: "message" }, h("h4", {}, m.role), content(m.content || {}))));
        } catch (err) { put(out, errorBox(err)); }
      },
    }, form, h("div", { class: "actions" }, h("button", { class: "primary", type: "submit" }, "Get prompt"))), out);
}

// ---- the server's requests -------------------------------------------------

function refuseButton(ask, text) {
  return h("button", { type: "button", onclick: () => answer(ask, { refuse: text || "The user refused the request." }) }, "Refuse");
}

async function answer(ask, body, card) {
  try {
    await api("POST", "/api/asks/" + ask.id, body);
  } catch (err) {
    const c = card || $("ask-" + ask.id);
    if (c) c.append(errorBox(err));
  }
}

function showAsk(ask) {
  const p = ask.params || {};
  const card = h("div", { class: "ask", id: "ask-" + ask.id, role: "region", "aria-label": "The server asks: " + ask.method });
  const title = h("h2", {}, "The server asks: " + ask.method);
  if (ask.method === "sampling/createMessage") {
    const msgs = (p.messages || []).map((m) => h("div", {}, h("strong", {}, m.role + ": "), ...(Array.isArray(m.content) ? m.content : [m.content]).map((c) => (c && c.type === "text" ? c.text : content(c || {})))));
    const id = "f" + ++fieldSeq;
    const reply = h("textarea", { id, name: "reply" });
    const modelId = "f" + ++fieldSeq;
    const model = h("input", { id: modelId, name: "model", type: "text", value: "human" });
    card.append(title, p.systemPrompt ? h("p", {}, h("em", {}, p.systemPrompt)) : null, ...msgs,
      h("form", {
        onsubmit: (e) => {
          e.preventDefault();
          answer(ask, { result: { role: "assistant", content: { type: "text", text: reply.value }, model: model.value || "human", stopReason: "endTurn" } }, card);
        },
      },
      h("div", { class: "field" }, h("label", { for: id }, "Your answer, as the model"), reply),
      h("div", { class: "field" }, h("label", { for: modelId }, "Model name"), model),
      h("div", { class: "actions" }, h("button", { class: "primary", type: "submit" }, "Send"), refuseButton(ask))));
  } else if (ask.method === "elicitation/create" && p.mode === "url") {
    let link = h("code", {}, p.url || "");
    try {
      const u = new URL(p.url);
      if (u.protocol === "https:" || u.protocol === "http:") link = h("a", { href: u.href, target: "_blank", rel: "noopener noreferrer" }, u.href);
    } catch { /* shown as text */ }
    const act = (action) => h("button", { type: "button", class: action === "accept" ? "primary" : "", onclick: () => answer(ask, { result: { action } }, card) }, action[0].toUpperCase() + action.slice(1));
    card.append(title, h("p", {}, p.message || ""), h("p", {}, "Open: ", link), h("div", { class: "actions" }, act("accept"), act("decline"), act("cancel")));
  } else if (ask.method === "elicitation/create") {
    const form = schemaForm(p.requestedSchema || {}, {});
    const act = (action) => h("button", {
      type: action === "accept" ? "submit" : "button", class: action === "accept" ? "primary" : "",
      onclick: action === "accept" ? undefined : () => answer(ask, { result: { action } }, card),
    }, action[0].toUpperCase() + action.slice(1));
    card.append(title, h("p", {}, p.message || ""), h("form", {
      onsubmit: (e) => {
        e.preventDefault();
        let c;
        try { c = form.value(); } catch (err) { card.append(errorBox(err)); return; }
        answer(ask, { result: { action: "accept", content: c } }, card);
      },
    }, form, h("div", { class: "actions" }, act("accept"), act("decline"), act("cancel"))));
  } else if (ask.method === "roots/list") {
    const suggested = (ask.suggested && ask.suggested.roots) || [];
    const id = "f" + ++fieldSeq;
    const area = h("textarea", { id, name: "roots", value: suggested.map((r) => r.uri).join("\n") });
    card.append(title, h("form", {
      onsubmit: (e) => {
        e.preventDefault();
        const roots = area.value.split("\n").map((s) => s.trim()).filter(Boolean).map((uri) => ({ uri }));
        answer(ask, { result: { roots } }, card);
      },
    }, h("div", { class: "field" }, h("label", { for: id }, "Roots, one URI a line"), area),
    h("div", { class: "actions" }, h("button", { class: "primary", type: "submit" }, "Send"), refuseButton(ask))));
  } else {
    card.append(title, h("pre", { class: "json" }, JSON.stringify(p, null, 2)), refuseButton(ask));
  }
  $("asks").append(card);
  const first = card.querySelector("input, textarea, select, button");
  if (first) first.focus();
}

// ---- activity: notifications, progress, logs --------------------------------

const activity = {
  max: 500,
  add(kind, text) {
    const ol = $("activity");
    ol.prepend(h("li", { class: "act-" + kind.replace(/\W/g, "_") }, h("span", { class: "level" }, kind), text));
    while (ol.childElementCount > this.max) ol.lastElementChild.remove();
  },
};

function notified(m) {
  const p = (m.message && m.message.params) || {};
  switch (m.method) {
    case "notifications/message":
      activity.add(String(p.level || "log"), (p.logger ? p.logger + ": " : "") + (typeof p.data === "string" ? p.data : JSON.stringify(p.data)));
      break;
    case "notifications/progress":
      activity.add("progress", String(p.progress) + (p.total !== undefined ? " / " + p.total : "") + (p.message ? " " + p.message : ""));
      break;
    case "notifications/tools/list_changed":
      activity.add("tools", "the tool list changed");
      loadTools();
      break;
    case "notifications/prompts/list_changed":
      activity.add("prompts", "the prompt list changed");
      loadPrompts();
      break;
    case "notifications/resources/list_changed":
      activity.add("resources", "the resource list changed");
      loadResources();
      break;
    default:
      activity.add("note", m.method + (m.message && m.message.params ? " " + JSON.stringify(m.message.params) : ""));
  }
}

// ---- traffic ----------------------------------------------------------------

// traffic keeps every message and shows the ones that pass the filters,
// rendering only the rows in view, so that it stays fast however long the
// conversation.
const traffic = {
  all: [],
  shown: [], // indexes into all
  findings: 0,
  selected: -1,
  pending: false,
  filter: { method: "", from: "", findings: false },
  rowHeight: 24,
  list: $("traffic-list"),
  spacer: $("traffic-spacer"),
  rows: new Map(), // shown position → element

  passes(m) {
    const f = this.filter;
    if (f.from && m.from !== f.from) return false;
    if (f.findings && !(m.findings && m.findings.length)) return false;
    if (f.method && !(m.method || m.kind).includes(f.method)) return false;
    return true;
  },
  add(m) {
    this.all.push(m);
    if (m.findings && m.findings.length) this.findings++;
    if (this.passes(m)) this.shown.push(this.all.length - 1);
    this.schedule();
  },
  refilter() {
    this.shown = [];
    this.all.forEach((m, i) => { if (this.passes(m)) this.shown.push(i); });
    this.clearRows();
    this.schedule();
  },
  clearRows() {
    for (const el of this.rows.values()) el.remove();
    this.rows.clear();
  },
  schedule() {
    if (this.pending) return;
    this.pending = true;
    requestAnimationFrame(() => { this.pending = false; this.render(); });
  },
  render() {
    $("traffic-count").textContent = this.all.length;
    const fc = $("finding-count");
    fc.hidden = this.findings === 0;
    fc.textContent = this.findings + (this.findings === 1 ? " finding" : " findings");
    $("traffic-shown").textContent = this.shown.length + " of " + this.all.length + " shown";
    if ($("view-traffic").hidden) return;
    this.spacer.style.height = this.shown.length * this.rowHeight + "px";
    const top = this.list.scrollTop;
    const first = Math.max(0, Math.floor(top / this.rowHeight) - 10);
    const last = Math.min(this.shown.length, Math.ceil((top + this.list.clientHeight) / this.rowHeight) + 10);
    for (const [pos, el] of this.rows) if (pos < first || pos >= last) { el.remove(); this.rows.delete(pos); }
    for (let pos = first; pos < last; pos++) {
      if (this.rows.has(pos)) continue;
      const el = this.row(pos);
      this.rows.set(pos, el);
      this.list.append(el);
    }
  },
  row(pos) {
    const i = this.shown[pos];
    const m = this.all[i];
    const bad = m.findings && m.findings.length;
    const el = h("div", {
      class: "row" + (bad ? " bad" : ""), role: "option", id: "msg-" + m.seq,
      "aria-selected": i === this.selected ? "true" : "false",
      dataset: { seq: m.seq },
      onclick: () => this.select(i),
    },
    h("span", { class: "seq" }, "#" + m.seq),
    h("span", { class: "dir", "aria-label": m.from === "client" ? "client to server" : "server to client" }, m.from === "client" ? "→" : "←"),
    (m.method || "") + " " + m.kind + (bad ? " · " + m.findings.length + " finding" + (bad > 1 ? "s" : "") : ""));
    el.style.top = pos * this.rowHeight + "px";
    return el;
  },
  select(i) {
    this.selected = i;
    for (const el of this.rows.values()) el.setAttribute("aria-selected", Number(el.dataset.seq) === this.all[i].seq ? "true" : "false");
    this.list.setAttribute("aria-activedescendant", "msg-" + this.all[i].seq);
    showMessage(this.all[i]);
  },
  move(d) {
    let pos = this.shown.indexOf(this.selected);
    pos = pos < 0 ? 0 : Math.max(0, Math.min(this.shown.length - 1, pos + d));
    if (!this.shown.length) return;
    const top = pos * this.rowHeight;
    if (top < this.list.scrollTop) this.list.scrollTop = top;
    else if (top + this.rowHeight > this.list.scrollTop + this.list.clientHeight) this.list.scrollTop = top + this.rowHeight - this.list.clientHeight;
    this.select(this.shown[pos]);
    this.render();
  },
};

traffic.list.addEventListener("scroll", () => traffic.schedule());
traffic.list.addEventListener("keydown", (e) => {
  const d = { ArrowDown: 1, ArrowUp: -1, PageDown: 20, PageUp: -20 }[e.key];
  if (d) { e.preventDefault(); traffic.move(d); }
  if (e.key === "Home") { e.preventDefault(); traffic.move(-Infinity); }
  if (e.key === "End") { e.preventDefault(); traffic.move(Infinity); }
});
$("traffic-filters").addEventListener("submit", (e) => e.preventDefault());
$("filter-method").addEventListener("input", (e) => { traffic.filter.method = e.target.value.trim(); traffic.refilter(); });
$("filter-from").addEventListener("change", (e) => { traffic.filter.from = e.target.value; traffic.refilter(); });
$("filter-findings").addEventListener("change", (e) => { traffic.filter.findings = e.target.checked; traffic.refilter(); });
window.addEventListener("resize", () => traffic.schedule());

// jsonTree renders a value as indented JSON whose every value is a span
// carrying its JSON pointer, so that findings can mark the very value.
function jsonTree(v, ptr = "", indent = "") {
  const span = h("span", { dataset: { ptr } });
  const esc = (k) => String(k).replace(/~/g, "~0").replace(/\//g, "~1");
  if (Array.isArray(v)) {
    if (!v.length) { span.append("[]"); return span; }
    span.append("[\n");
    v.forEach((x, i) => span.append(indent + "  ", jsonTree(x, ptr + "/" + i, indent + "  "), i < v.length - 1 ? ",\n" : "\n"));
    span.append(indent + "]");
  } else if (v && typeof v === "object") {
    const keys = Object.keys(v);
    if (!keys.length) { span.append("{}"); return span; }
    span.append("{\n");
    keys.forEach((k, i) => span.append(indent + "  ", h("span", { class: "k" }, JSON.stringify(k)), ": ", jsonTree(v[k], ptr + "/" + esc(k), indent + "  "), i < keys.length - 1 ? ",\n" : "\n"));
    span.append(indent + "}");
  } else {
    span.className = typeof v === "string" ? "s" : "n";
    span.append(JSON.stringify(v));
  }
  return span;
}

function showMessage(m) {
  const pane = $("traffic-detail");
  const pre = h("pre", { class: "json", id: "message-json" });
  if (m.message !== undefined) pre.append(jsonTree(m.message));
  else pre.append(m.text || "");
  const findings = m.findings || [];
  for (const f of findings) {
    // The finding's value, or the nearest enclosing one that exists (a
    // missing member points at its parent's place).
    let p = f.pointer || "";
    let el;
    for (;;) {
      el = [...pre.querySelectorAll("[data-ptr]")].find((x) => x.dataset.ptr === p);
      if (el || p === "") break;
      p = p.slice(0, p.lastIndexOf("/"));
    }
    if (el) el.classList.add("bad");
  }
  put(pane, 
    h("h2", {}, "#" + m.seq + " " + (m.from === "client" ? "client → server" : "server → client")),
    h("p", {}, (m.method || "") + " " + m.kind + " · " + new Date(m.time).toLocaleTimeString()),
    findings.length ? findingsList(findings) : h("p", { class: "hint no-findings" }, "No findings: the message is valid."),
    pre);
}

// ---- the live stream ----------------------------------------------------------

function connect() {
  const es = new EventSource("/api/events?token=" + encodeURIComponent(token));
  es.onmessage = (e) => {
    const ev = JSON.parse(e.data);
    switch (ev.type) {
      case "message":
        traffic.add(ev.data);
        if (ev.data.from === "server" && ev.data.kind === "notification") notified(ev.data);
        break;
      case "ask":
        showAsk(ev.data);
        break;
      case "answered": {
        const card = $("ask-" + ev.data.id);
        if (card) card.remove();
        break;
      }
      case "closed":
        $("status").textContent = "session ended" + (ev.data.error ? ": " + ev.data.error : "");
        $("status").className = "badge bad";
        break;
    }
  };
  es.onerror = () => { $("status").textContent = "reconnecting…"; };
  es.onopen = () => { if (session) $("status").textContent = "connected"; };
}

$("reload-tools").addEventListener("click", loadTools);
$("reload-resources").addEventListener("click", loadResources);
$("reload-prompts").addEventListener("click", loadPrompts);

(async function main() {
  connect();
  try {
    await loadSession();
  } catch (err) {
    $("status").textContent = "error: " + err.message;
    $("status").className = "badge bad";
    return;
  }
  const caps = session.capabilities || {};
  if (caps.tools) loadTools(); else put($("tool-list"), h("li", { class: "hint" }, "The server offers no tools."));
  if (caps.resources) loadResources(); else put($("resource-list"), h("li", { class: "hint" }, "The server offers no resources."));
  if (caps.prompts) loadPrompts(); else put($("prompt-list"), h("li", { class: "hint" }, "The server offers no prompts."));
  document.body.dataset.ready = "true";
})();
