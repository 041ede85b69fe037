// Synthetic goal-ranking cases: pages made of raw elements (the collector's shape) with a goal and
// the id of the element to act on. Generic web patterns (login, search results, forms with labels,
// shops, settings, dialogs, tabs, coordinate grids), phrased many ways, so the reranker learns how
// features combine rather than any one site. Deterministic for a seed.
//
//   import { generateSynthetic } from "./rank-synth.mjs"; generateSynthetic({ seed: 1, perFamily: 120 })

function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = "alpha bravo cedar delta ember falcon garnet harbor indigo jasper kernel lumen maple nectar onyx pepper quartz raven sierra tango umber velvet willow xenon yonder zephyr amber basil cobalt dune echo fable glade haze iris jade koala lotus mango nova olive pixel quill ripple sage topaz unity vivid wren yarrow zinc".split(" ");
const CITIES = ["Paris", "Berlin", "Madrid", "Rome", "Tokyo", "Boston", "Chicago", "Seattle", "Toronto", "Sydney", "Lisbon", "Vienna", "Prague", "Dublin", "Oslo", "Miami", "Denver", "Phoenix", "Atlanta", "Houston", "Nairobi", "Lima", "Cairo", "Mumbai", "Seoul"];
const PRODUCTS = ["backpack", "lamp", "kettle", "headphones", "jacket", "sneakers", "blender", "monitor", "keyboard", "tent", "umbrella", "watch", "camera", "desk", "chair"];
const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const ORD = ["first", "second", "third", "fourth", "fifth", "sixth"];
const ORDN = ["1st", "2nd", "3rd", "4th", "5th", "6th"];

class Page {
  constructor(r, vp = { width: 1280, height: 900 }) {
    this.r = r;
    this.vp = vp;
    this.els = [];
  }
  add(tag, box, { text = "", attrs = {}, cursor = "auto", bg = "rgba(0, 0, 0, 0)", occluded = false, z = "auto", fontSize = "14px" } = {}) {
    const [x, y, width, height] = box;
    const id = this.els.length + 1;
    const attributes = { role: null, type_: null, aria_label: null, href: null, nearby_text: null, name: null, input_type: null, value: null, value_redacted: null, checked: null, disabled: null, aria_checked: null, aria_disabled: null, aria_expanded: null, placeholder: null, title: null, alt: null, id: null, ...attrs };
    this.els.push({
      id, tag, rect: { x, y, width, height },
      styles: { z_index: z, cursor, background_color: bg, color: "rgb(20, 20, 20)", font_size: fontSize, font_weight: "400", opacity: "1", position: "static" },
      attributes, text, in_viewport: y < this.vp.height && y + height > 0 && x < this.vp.width, is_occluded: occluded,
      scroll_y: 0, center_x: x + width / 2, center_y: y + height / 2, doc_y: y + height / 2,
    });
    return id;
  }
  body() {
    return { url: "https://example.test/", viewport: this.vp, raw_elements: this.els };
  }
}

const pick = (r, a) => a[Math.floor(r() * a.length)];
const shuffle = (r, a) => {
  const b = [...a];
  for (let i = b.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [b[i], b[j]] = [b[j], b[i]];
  }
  return b;
};
const cap = (s) => s[0].toUpperCase() + s.slice(1);
const words = (r, n) => Array.from({ length: n }, () => pick(r, WORDS));

/** Page chrome every family gets: header links, a site search, footer links. */
function chrome(p) {
  const r = p.r;
  p.add("header", [0, 0, 1280, 60], { text: "Home Products About Help Sign in" });
  ["Home", "Products", "About", "Help"].forEach((t, i) => p.add("a", [200 + i * 90, 20, 70, 20], { text: t, attrs: { href: `/${t.toLowerCase()}` }, cursor: "pointer" }));
  if (r() < 0.6) {
    // Site-wide search in the header: a box, often with a small icon button beside it.
    const ph = pick(r, ["Search site", "Search example.test", "Search this site", "Search", "Search shop.example"]);
    p.add("input", [800, 16, 200, 28], { attrs: { role: "searchbox", input_type: "search", type_: "search", placeholder: ph, aria_label: ph, name: "q" } });
    if (r() < 0.6) p.add("button", [1002, 16, 24, 28], { text: pick(r, ["", "Go"]), attrs: { role: "button", type_: "submit", aria_label: pick(r, ["Submit search", "Search", "Search site"]), nearby_text: ph }, cursor: "pointer" });
  }
  if (r() < 0.5) p.add("a", [1100, 20, 70, 20], { text: "Sign in", attrs: { href: "/login" }, cursor: "pointer" });
  ["Privacy", "Terms", "Contact us", "Careers"].forEach((t, i) => p.add("a", [100 + i * 120, 860, 100, 18], { text: t, attrs: { href: `/${t.split(" ")[0].toLowerCase()}` }, cursor: "pointer" }));
}

function labelled(p, label, box, attrs, labelPos = "above") {
  const [x, y, w, h] = box;
  if (labelPos === "above") p.add("label", [x, y - 20, Math.min(w, 120), 16], { text: label });
  else p.add("label", [x - 110, y + 4, 100, 16], { text: label });
  return p.add(attrs.tag ?? "input", box, { attrs: { nearby_text: label, ...attrs, tag: undefined } });
}

const families = {
  login(r) {
    const p = new Page(r);
    chrome(p);
    const userLabel = pick(r, ["Email", "Email address", "Username", "User name"]);
    const user = labelled(p, userLabel, [500, 300, 280, 32], { role: "textbox", input_type: userLabel.startsWith("Email") ? "email" : "text", type_: "text", name: userLabel.startsWith("Email") ? "email" : "username" });
    const pass = labelled(p, "Password", [500, 370, 280, 32], { role: "textbox", input_type: "password", type_: "password", name: "password" });
    const remember = p.add("input", [500, 420, 16, 16], { attrs: { role: "checkbox", input_type: "checkbox", type_: "checkbox", nearby_text: "Remember me", checked: "false" }, cursor: "pointer" });
    p.add("span", [520, 420, 100, 16], { text: "Remember me" });
    const btnText = pick(r, ["Sign in", "Log in", "Login", "Continue"]);
    const submit = p.add("button", [500, 460, 280, 36], { text: btnText, attrs: { role: "button", type_: "submit" }, cursor: "pointer", bg: "rgb(0, 90, 200)" });
    const forgot = p.add("a", [500, 510, 160, 18], { text: "Forgot password?", attrs: { href: "/reset" }, cursor: "pointer" });
    const create = p.add("a", [680, 510, 120, 18], { text: "Create account", attrs: { href: "/signup" }, cursor: "pointer" });
    const name = pick(r, ["jane", "sam.lee", "k.ito", "maria"]);
    const goals = [
      [user, pick(r, [`Enter ${name} as the ${userLabel.toLowerCase()}`, `Type your ${userLabel.toLowerCase()}`, `Fill in the ${userLabel} field with ${name}@mail.test`])],
      [pass, pick(r, ["Type the password", "Enter your password", "Fill in the password: hunter2"])],
      [remember, pick(r, ["Check remember me", "Tick the remember me box", "Keep me signed in: check remember me"])],
      [submit, pick(r, [`Click ${btnText}`, `Press the ${btnText.toLowerCase()} button`, "Submit the login form", `${btnText} now`])],
      [forgot, pick(r, ["I forgot my password", "Click forgot password", "Reset my password"])],
      [create, pick(r, ["Create a new account", "Sign up for an account", "Open create account"])],
    ];
    return { p, goals };
  },
  search(r) {
    const p = new Page(r);
    chrome(p);
    const box = p.add("input", [300, 100, 500, 36], { attrs: { role: "searchbox", input_type: "search", type_: "search", placeholder: pick(r, ["Search", "Search products", "What are you looking for?"]), name: "query" } });
    const go = p.add("button", [810, 100, 80, 36], { text: pick(r, ["Search", "Go", "Find"]), attrs: { role: "button", type_: "submit" }, cursor: "pointer" });
    const titles = Array.from({ length: 6 }, () => cap(words(r, 3).join(" ")));
    const results = titles.map((t, i) => {
      const id = p.add("a", [300, 180 + i * 90, 500, 22], { text: t, attrs: { href: `/item/${i}` }, cursor: "pointer", fontSize: "18px" });
      p.add("p", [300, 206 + i * 90, 500, 36], { text: words(r, 12).join(" ") });
      return id;
    });
    const next = p.add("a", [700, 740, 60, 20], { text: "Next", attrs: { href: "/page/2", aria_label: "Next page" }, cursor: "pointer" });
    const prev = p.add("a", [300, 740, 80, 20], { text: "Previous", attrs: { href: "/page/0" }, cursor: "pointer" });
    const k = Math.floor(r() * 4);
    const t = pick(r, [...Array(6).keys()]);
    const goals = [
      [box, pick(r, [`Search for ${pick(r, PRODUCTS)}`, `Type ${pick(r, PRODUCTS)} in the search box`, `Look up ${pick(r, CITIES)} hotels`])],
      [go, pick(r, ["Click the search button", "Press search", "Run the search"])],
      [results[k], pick(r, [`Open the ${ORD[k]} result`, `Click the ${ORDN[k]} link in the results`, `Click the ${ORD[k]} search result`])],
      [results[5], "Open the last result"],
      [results[t], pick(r, [`Click on the link "${titles[t]}"`, `Open ${titles[t]}`, `Go to the result about ${titles[t].toLowerCase()}`])],
      [next, pick(r, ["Go to the next page", "Click next", "Show more results on the next page"])],
      [prev, "Go back to the previous page"],
    ];
    return { p, goals };
  },
  buttons(r) {
    const p = new Page(r, { width: 500, height: 400 });
    const n = 3 + Math.floor(r() * 6);
    const labels = shuffle(r, [...WORDS, "ok", "cancel", "submit", "yes", "no", "next", "previous"]).slice(0, n).map((w) => (r() < 0.3 ? cap(w) : w));
    if (r() < 0.3) labels[1] = `${labels[0]} ${pick(r, WORDS)}`; // a distractor that contains the target
    const ids = labels.map((t, i) => p.add("button", [10 + (i % 3) * 60, 60 + Math.floor(i / 3) * 30, 55, 22], { text: t, attrs: { role: "button" }, cursor: "pointer" }));
    p.add("div", [0, 50, 160, 160], { text: labels.join(" ") });
    const k = Math.floor(r() * n);
    const q = labels[k];
    return { p, goals: [[ids[k], pick(r, [`Click on the "${q}" button.`, `Press "${q}"`, `Click the button labeled ${q}.`, `Click button ${q}.`, `Hit the ${q} button`])]] };
  },
  links(r) {
    const p = new Page(r, { width: 500, height: 400 });
    const ws = words(r, 30);
    const linkAt = new Set(shuffle(r, [...ws.keys()]).slice(0, 5));
    let x = 10, y = 60;
    const links = [];
    p.add("p", [5, 55, 150, 150], { text: ws.join(" ") });
    ws.forEach((w, i) => {
      const width = w.length * 7;
      if (x + width > 155) { x = 10; y += 16; }
      if (linkAt.has(i)) links.push([p.add("span", [x, y, width, 14], { text: w + (r() < 0.3 ? "." : ""), cursor: "pointer", attrs: { class_name: "alink" } }), w]);
      x += width + 4;
    });
    const [id, w] = pick(r, links);
    return { p, goals: [[id, pick(r, [`Click on the link "${w}".`, `Click the link ${w}`, `Follow the "${w}" link`])]] };
  },
  travel(r) {
    const p = new Page(r);
    chrome(p);
    const kind = pick(r, ["hotel", "train", "car", "flight"]);
    const L = {
      from: pick(r, ["Leaving from", "From", "Origin", "Departure station", "Pick-up location"]),
      to: pick(r, ["Going to", "To", "Destination", "Arrival station", "Drop-off location"]),
      d1: pick(r, ["Check-in", "Departure date", "Depart", "Pick-up date", "Outbound"]),
      d2: pick(r, ["Check-out", "Return date", "Return", "Drop-off date", "Inbound"]),
      n: pick(r, ["Guests", "Travelers", "Passengers", "Adults"]),
    };
    const pos = r() < 0.5 ? "above" : "left";
    const lab = (s) => (r() < 0.5 ? `${s}, required.` : s);
    const from = labelled(p, lab(L.from), [200, 300, 220, 34], { role: "textbox", input_type: "text", type_: "text", aria_label: lab(L.from), placeholder: pick(r, ["City or airport", "Where from?", ""]) || null, name: pick(r, ["origin", "from", "segments[0].orig", "pickup"]) }, pos);
    const to = labelled(p, lab(L.to), [460, 300, 220, 34], { role: "textbox", input_type: "text", type_: "text", aria_label: lab(L.to), placeholder: pick(r, ["City or airport", "Where to?", ""]) || null, name: pick(r, ["destination", "to", "segments[0].dest", "dropoff"]) }, pos);
    const d1 = labelled(p, L.d1, [200, 380, 220, 34], { role: "textbox", input_type: "text", type_: "text", placeholder: "mm/dd/yyyy", name: pick(r, ["date1", "segments[0].travelDate", "checkin", "start"]) }, pos);
    const d2 = labelled(p, L.d2, [460, 380, 220, 34], { role: "textbox", input_type: "text", type_: "text", placeholder: "mm/dd/yyyy", name: pick(r, ["date2", "segments[1].travelDate", "checkout", "end"]) }, pos);
    const n = labelled(p, L.n, [720, 380, 120, 34], { tag: "select", role: "combobox", name: "count", value: "1" }, pos);
    const tabs = ["Round trip", "One way"].map((t, i) => p.add("a", [200 + i * 120, 240, 110, 30], { text: t, attrs: { href: `#${t.replace(" ", "").toLowerCase()}`, role: "tab" }, cursor: "pointer" }));
    // The submit's card is often the form's last row (a filter checkbox's label, a note).
    const submitCtx = r() < 0.5 ? `${pick(r, ["Show refundable only", "Flexible dates", "Direct only", "Free cancellation"])} ${pick(r, ["Search", "Find"])}` : null;
    const submit = p.add("button", [720, 450, 120, 40], { text: pick(r, ["Search", "Find", "Search " + kind + "s", "Go"]), attrs: { role: "button", type_: "submit", context_text: submitCtx }, cursor: "pointer", bg: "rgb(200, 30, 30)" });
    const city = pick(r, CITIES), city2 = pick(r, CITIES);
    const m = pick(r, MONTHS), d = 1 + Math.floor(r() * 28), mi = MONTHS.indexOf(m) + 1;
    const date = pick(r, [`${mi}/${d}/2024`, `${m} ${d}`, `the ${d}${d === 1 ? "st" : d === 2 ? "nd" : d === 3 ? "rd" : "th"} of ${m}`, `${m} ${d}th`, `0${mi}/${String(d).padStart(2, "0")}`]);
    const goals = [
      [from, pick(r, [`Fill in the ${L.from.split(",")[0]} box with ${city}`, `Enter ${city} as the departure city`, `${L.from}: ${city}`, `I'm leaving from ${city}`, `Set the origin to ${city}`, `Start from ${city}`])],
      [to, pick(r, [`Put ${city2} in the ${L.to} field`, `Enter ${city2} as the destination`, `I'm going to ${city2}`, `Arrival city: ${city2}`, `Type ${city2} into ${L.to}`])],
      [d1, pick(r, [`I leave on ${date}; fill in the ${L.d1.toLowerCase()}`, `Set the ${L.d1.toLowerCase()} to ${date}`, `Type ${date} into the ${L.d1} field`, `Depart on ${date}`, `Pick the start date ${date}`])],
      [d2, pick(r, [`Set the ${L.d2.toLowerCase()} to ${date}`, `I'm coming back on ${date}; fill in the return date`, `Type ${date} into ${L.d2}`, `Return on ${date}`, `End date ${date}`])],
      [n, pick(r, [`Set the number of ${L.n.toLowerCase()} to 2`, `Choose how many ${L.n.toLowerCase()}: 3`, `Select 2 ${L.n.toLowerCase()}`])],
      [tabs[1], pick(r, ["Choose one-way trip", "Switch to one way", "I only need a one-way ticket"])],
      [tabs[0], pick(r, ["Select round trip", "Make it a round trip"])],
      [submit, pick(r, [`Search for ${kind}s`, "Click the search button", "Submit the search", `Find ${kind}s now`, `Find the ${kind}s`, `Search for ${kind}s now`, `Show me the ${kind}s`, "Run the search"])],
    ];
    return { p, goals };
  },
  shop(r) {
    const p = new Page(r, r() < 0.5 ? { width: 500, height: 400 } : { width: 1280, height: 900 });
    const n = 3 + Math.floor(r() * 3);
    const items = Array.from({ length: n }, (_, i) => ({ name: PRODUCTS[(i * 7 + Math.floor(r() * 15)) % 15], price: 20 + Math.floor(r() * 900), h: 1 + Math.floor(r() * 20), m: Math.floor(r() * 60) }));
    const verb = pick(r, ["Book for", "Buy for", "Add to cart –", "Select –"]);
    const ids = items.map((it, i) => {
      const y = 60 + i * 60;
      p.add("div", [20, y, 160, 50], { text: `${cap(it.name)} Duration: ${it.h}h ${it.m}m ${verb} $${it.price}` });
      p.add("div", [25, y + 2, 150, 14], { text: r() < 0.5 ? `${it.h}h ${it.m}m` : cap(it.name) });
      if (r() < 0.5) p.add("label", [25, y + 16, 60, 12], { text: "Duration:" });
      // The collector sends the card's text as the button's context_text (the static divs are not candidates).
      const context_text = r() < 0.85 ? `${r() < 0.5 ? cap(it.name) + " " : ""}Duration: ${it.h}h ${it.m}m ${verb} $${it.price}` : null;
      return p.add("button", [25, y + 30, 120, 16], { text: `${verb} $${it.price}`, attrs: { role: "button", context_text }, cursor: "pointer" });
    });
    const dur = (it) => it.h * 60 + it.m;
    const arg = (f, sign) => items.reduce((b, it, i) => (sign * f(it) > sign * f(items[b]) ? i : b), 0);
    const goals = [
      [ids[arg((it) => it.price, -1)], pick(r, ["Buy the ticket with the cheapest cost.", "Pick the cheapest option", "Book the least expensive one"])],
      [ids[arg((it) => it.price, 1)], pick(r, ["Buy the most expensive ticket", "Choose the most expensive option"])],
      [ids[arg(dur, 1)], pick(r, ["Buy the ticket with the longest duration.", "Book the longest trip"])],
      [ids[arg(dur, -1)], pick(r, ["Buy the ticket with the shortest duration.", "Book the quickest one"])],
    ];
    return { p, goals };
  },
  settings(r) {
    const p = new Page(r);
    chrome(p);
    const opts = shuffle(r, ["Email notifications", "Dark mode", "Two-factor authentication", "Newsletter", "Auto-save drafts", "Show online status", "Location sharing"]).slice(0, 4);
    const checks = opts.map((o, i) => {
      const id = p.add("input", [300, 150 + i * 40, 16, 16], { attrs: { role: r() < 0.3 ? "switch" : "checkbox", input_type: "checkbox", type_: "checkbox", nearby_text: o, checked: r() < 0.5 ? "true" : "false", name: o.split(" ")[0].toLowerCase() }, cursor: "pointer" });
      p.add("label", [324, 150 + i * 40, 200, 16], { text: o });
      return id;
    });
    const ship = shuffle(r, ["Standard shipping", "Express shipping", "Overnight delivery", "Store pickup"]).slice(0, 3);
    const radios = ship.map((s, i) => {
      const id = p.add("input", [600, 150 + i * 40, 16, 16], { attrs: { role: "radio", input_type: "radio", type_: "radio", nearby_text: s, name: "ship", value: s.split(" ")[0].toLowerCase() }, cursor: "pointer" });
      p.add("label", [624, 150 + i * 40, 200, 16], { text: s });
      return id;
    });
    const save = p.add("button", [300, 400, 100, 32], { text: pick(r, ["Save", "Save changes", "Apply"]), attrs: { role: "button", type_: "submit" }, cursor: "pointer" });
    const a = Math.floor(r() * opts.length), b = Math.floor(r() * ship.length);
    const goals = [
      [checks[a], pick(r, [`Turn on ${opts[a].toLowerCase()}`, `Check ${opts[a]}`, `Uncheck ${opts[a].toLowerCase()}`, `Toggle ${opts[a].toLowerCase()}`, `Disable ${opts[a].toLowerCase()}`])],
      [radios[b], pick(r, [`Select ${ship[b].toLowerCase()}`, `Choose the ${ship[b]} option`, `I want ${ship[b].toLowerCase()}`])],
      [save, pick(r, ["Save the settings", "Click save", "Apply my changes"])],
    ];
    return { p, goals };
  },
  dialog(r) {
    const p = new Page(r, { width: 500, height: 400 });
    ["Home", "News", "Shop"].forEach((t, i) => p.add("a", [10 + i * 50, 10, 40, 14], { text: t, attrs: { href: `/${t}` }, cursor: "pointer" }));
    p.add("div", [5, 60, 150, 150], { attrs: { role: "dialog" }, z: "100", text: "Notice " + words(r, 8).join(" ") });
    const title = cap(pick(r, WORDS));
    p.add("span", [10, 65, 100, 16], { text: title });
    const close = p.add("button", [130, 64, 20, 20], { text: pick(r, ["Close", "×", ""]), attrs: { role: "button", title: "Close", aria_label: r() < 0.5 ? "Close" : null }, cursor: "pointer", z: "100" });
    const ok = p.add("button", [40, 180, 40, 22], { text: pick(r, ["OK", "Ok", "Accept", "Yes"]), attrs: { role: "button" }, cursor: "pointer", z: "100" });
    const cancel = p.add("button", [90, 180, 60, 22], { text: pick(r, ["Cancel", "No"]), attrs: { role: "button" }, cursor: "pointer", z: "100" });
    const okText = p.els[ok - 1].text, cancelText = p.els[cancel - 1].text;
    const goals = [
      [close, pick(r, ['Close the dialog box by clicking the "x".', "Close the popup", "Dismiss the dialog", 'Click the button in the dialog box labeled "x".'])],
      [ok, pick(r, [`Click the button in the dialog box labeled "${okText}".`, `Press ${okText}`, "Confirm the dialog"])],
      [cancel, pick(r, [`Click the button in the dialog box labeled "${cancelText}".`, `Press ${cancelText} in the dialog`])],
    ];
    return { p, goals };
  },
  tabs(r) {
    const p = new Page(r, { width: 500, height: 400 });
    const nt = 2 + Math.floor(r() * 2);
    const tabs = Array.from({ length: nt }, (_, i) => p.add("li", [10 + i * 50, 55, 45, 20], { text: `Tab #${i + 1}`, attrs: { role: "tab", aria_selected: i === 0 ? "true" : "false" }, cursor: "pointer" }));
    const ws = shuffle(r, WORDS).slice(0, 12);
    const shown = ws.slice(0, 4), hidden = ws.slice(4, 6);
    const links = shown.map((w, i) => p.add("span", [15 + (i % 2) * 70, 90 + Math.floor(i / 2) * 16, 50, 14], { text: w, cursor: "pointer" }));
    p.add("p", [10, 85, 150, 80], { text: ws.slice(0, 10).join(" ") });
    const k = Math.floor(r() * shown.length);
    const goals = [
      [links[k], `Switch between the tabs to find and click on the link "${r() < 0.3 ? cap(shown[k]) : shown[k]}".`],
      [nt === 2 ? tabs[1] : null, `Switch between the tabs to find and click on the link "${pick(r, hidden)}".`],
      [tabs[nt - 1], pick(r, [`Open Tab #${nt}`, `Click the ${ORD[nt - 1]} tab`, "Go to the last tab"])],
    ].filter((g) => g[0] !== null);
    return { p, goals };
  },
  results(r) {
    // A result list (flights, hotels, products): every row has the same action button; the row's
    // facts are only in the button's card text (context_text) and in non-candidate static text.
    const p = new Page(r);
    chrome(p);
    const kind = pick(r, ["flight", "hotel", "train", "product", "room"]);
    const action = pick(r, ["Select", "Book", "Choose", "View deal", "Add to cart", "Reserve"]);
    const n = 3 + Math.floor(r() * 4);
    const rows = Array.from({ length: n }, () => ({
      city: pick(r, CITIES), name: cap(pick(r, WORDS)) + " " + pick(r, ["Air", "Inn", "Express", "Co", "Lines", "Suites"]),
      hh: 5 + Math.floor(r() * 17), mm: pick(r, ["00", "15", "30", "45", "05", "50"]),
      h: 1 + Math.floor(r() * 14), m: Math.floor(r() * 60), price: 40 + Math.floor(r() * 1500), stops: Math.floor(r() * 3),
    }));
    const ids = rows.map((it, i) => {
      const y = 150 + i * 100;
      const ctx = `${it.name} ${it.city} ${it.hh}:${it.mm} ${it.h}h ${it.m}m ${it.stops ? it.stops + " stop" + (it.stops > 1 ? "s" : "") : "Nonstop"} $${it.price} ${action}`;
      p.add("div", [200, y, 800, 90], { text: ctx });
      if (r() < 0.5) p.add("a", [210, y + 5, 200, 20], { text: it.name, attrs: { href: `/d/${i}`, context_text: ctx }, cursor: "pointer" });
      return p.add("button", [880, y + 25, 100, 36], { text: action, attrs: { role: "button", context_text: r() < 0.9 ? ctx : null, aria_label: r() < 0.3 ? `${action} ${it.name}` : null }, cursor: "pointer", bg: "rgb(0, 90, 200)" });
    });
    const k = Math.floor(r() * n);
    const it = rows[k];
    const arg = (f, sign) => rows.reduce((b, x, i) => (sign * f(x) > sign * f(rows[b]) ? i : b), 0);
    const uniq = (f) => rows.filter((x) => f(x) === f(it)).length === 1;
    const goals = [];
    if (uniq((x) => x.city)) goals.push([ids[k], pick(r, [`${action} the ${kind} in ${it.city}`, `${action} the one to ${it.city}`, `I want the ${kind} for ${it.city}`])]);
    if (uniq((x) => `${x.hh}:${x.mm}`)) goals.push([ids[k], pick(r, [`${action} the ${it.hh}:${it.mm} ${kind}`, `Book the ${kind} leaving at ${it.hh}:${it.mm}`])]);
    if (uniq((x) => x.price)) goals.push([ids[k], pick(r, [`${action} the ${kind} for $${it.price}`, `Choose the option that costs ${it.price} dollars`])]);
    goals.push([ids[arg((x) => x.price, -1)], pick(r, [`Book the cheapest ${kind}`, `${action} the lowest price option`])]);
    goals.push([ids[arg((x) => x.h * 60 + x.m, -1)], pick(r, [`Book the shortest ${kind}`, `Pick the fastest one`])]);
    goals.push([ids[Math.min(1, n - 1)], pick(r, [`${action} the second ${kind}`, `${action} the 2nd result`])]);
    return { p, goals };
  },
  grid(r) {
    const p = new Page(r, { width: 500, height: 400 });
    const n = 2 + Math.floor(r() * 2);
    const cells = [];
    const style = pick(r, ["id", "aria", "title"]);
    for (let x = -n; x <= n; x++) for (let y = -n; y <= n; y++) {
      const t = `(${x},${y})`;
      const attrs = style === "id" ? { id: t } : style === "aria" ? { aria_label: `Point ${t}` } : { title: t };
      cells.push([p.add(pick(r, ["circle", "circle", "div"]), [20 + (x + n) * 30 - 4, 60 + (n - y) * 30 - 4, 8, 8], { attrs, cursor: r() < 0.5 ? "pointer" : "auto", bg: "rgb(0, 0, 255)" }), x, y]);
    }
    p.add("div", [0, 50, 160, 160], { text: "x y 0 -2 -1 1 2" });
    const [id, x, y] = pick(r, cells);
    return { p, goals: [[id, pick(r, [`Click on the grid coordinate (${x},${y}).`, `Click the point (${x}, ${y})`])]] };
  },
};

/** [{ id, task, goal, body, gold_id }] */
export function generateSynthetic({ seed = 1, perFamily = 120 } = {}) {
  const out = [];
  for (const [fam, make] of Object.entries(families)) {
    const r = rng(seed * 1000 + fam.length * 97 + fam.charCodeAt(0));
    let made = 0;
    for (let page = 0; made < perFamily && page < perFamily * 4; page++) {
      const { p, goals } = make(r);
      const body = p.body();
      for (const [gold, goal] of goals) {
        if (made >= perFamily) break;
        out.push({ id: `syn-${fam}-${page}-${made}`, task: `syn-${fam}`, goal, body, gold_id: gold });
        made++;
      }
    }
  }
  return out;
}
