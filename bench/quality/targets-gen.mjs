// A goal-ranking set of our own: generated pages in the markup styles real sites use for the
// targets issue 21 is about (icon fonts, SVG sprites, image icons, glyphs, script-only listeners,
// event delegation, nested tabs and menus, colour swatches, SVG shapes, per-row icons), across
// task families none of which is in ../shared/corpora/rank. Deterministic (seeded); nothing is
// copied from any corpus. Each case: { id, family, split, html, goal } with the gold element
// marked data-t="gold" (an attribute the collector does not read).
// split "dev": the families the code was developed against (the fixtures mirror them);
// "held-out": written before measuring and not tuned on afterwards.

import { seededRandom } from "../lib/stats.mjs";
const pick = (r, a) => a[Math.floor(r() * a.length)];
function shuffle(r, a) {
  const b = [...a];
  for (let i = b.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [b[i], b[j]] = [b[j], b[i]];
  }
  return b;
}
const sample = (r, a, n) => shuffle(r, a).slice(0, n);

const PEOPLE = ["Dana Whitfield", "Marco Ruiz", "Priya Natarajan", "Tom Becker", "Aiko Tanaka", "Lena Novak", "Omar Haddad", "Grace Liu", "Samuel Okafor", "Ines Duarte", "Jonas Berg", "Fatima Zahra"];
const SUBJECTS = ["Budget review for Q3", "Team offsite photos", "Invoice 2211 overdue", "Lunch on Friday?", "Draft contract attached", "Flight itinerary", "Weekly status update", "Password reset request", "Conference slides", "New hire onboarding"];
const PRODUCTS = ["Wireless headphones", "Coffee grinder", "Yoga mat", "Desk lamp", "Running shoes", "Water bottle", "Backpack", "Phone charger", "Notebook set", "Bluetooth speaker"];
const FILES = ["report-2024.pdf", "budget.xlsx", "team-photo.jpg", "contract-final.docx", "slides-v3.pptx", "notes.txt", "invoice-2211.pdf", "roadmap.png"];
const TASKS = ["Buy milk", "Call the dentist", "Renew passport", "Water the plants", "Book flights", "Pay rent", "Fix the bike", "Send the invoice", "Clean the garage"];
const HANDLES = ["@maria_k", "@devon", "@lucy.h", "@pete_codes", "@anya", "@rob_travels", "@mei", "@jorge88"];
const COLORS = [["red", "#e53935"], ["green", "#43a047"], ["blue", "#1e88e5"], ["yellow", "#fdd835"], ["orange", "#fb8c00"], ["purple", "#8e24aa"], ["pink", "#ec407a"], ["black", "#212121"], ["gray", "#9e9e9e"], ["teal", "#00897b"]];

/** Icons in six styles: icon-font classes (Font Awesome, Bootstrap Icons), Material ligatures, SVG sprite, image file, glyph. */
const ICONS = {
  delete: { fa: "trash", bi: "trash", mat: "delete", sprite: "trash", img: "trash", glyph: "🗑" },
  star: { fa: "star-o", bi: "star", mat: "star_border", sprite: "star", img: "star", glyph: "☆" },
  edit: { fa: "pencil", bi: "pencil", mat: "edit", sprite: "edit", img: "pencil", glyph: "✎" },
  close: { fa: "times", bi: "x-lg", mat: "close", sprite: "close", img: "close", glyph: "×" },
  more: { fa: "ellipsis-v", bi: "three-dots-vertical", mat: "more_vert", sprite: "more-vert", img: "kebab", glyph: "⋮" },
  like: { fa: "heart-o", bi: "heart", mat: "favorite_border", sprite: "heart", img: "heart", glyph: "♡" },
  share: { fa: "share-alt", bi: "share", mat: "share", sprite: "share", img: "share", glyph: "⤴" },
  reply: { fa: "reply", bi: "reply", mat: "reply", sprite: "reply", img: "reply", glyph: "↩" },
  download: { fa: "download", bi: "download", mat: "file_download", sprite: "download", img: "download", glyph: "⬇" },
  bold: { fa: "bold", bi: "type-bold", mat: "format_bold", sprite: "bold", img: "bold", glyph: "B" },
  italic: { fa: "italic", bi: "type-italic", mat: "format_italic", sprite: "italic", img: "italic", glyph: "I" },
  underline: { fa: "underline", bi: "type-underline", mat: "format_underlined", sprite: "underline", img: "underline", glyph: "U" },
  link: { fa: "link", bi: "link-45deg", mat: "insert_link", sprite: "link", img: "link", glyph: "🔗" },
  undo: { fa: "undo", bi: "arrow-counterclockwise", mat: "undo", sprite: "undo", img: "undo", glyph: "↺" },
  list: { fa: "list-ul", bi: "list-ul", mat: "format_list_bulleted", sprite: "list", img: "list", glyph: "☰" },
  cart: { fa: "shopping-cart", bi: "cart", mat: "shopping_cart", sprite: "cart", img: "cart", glyph: "🛒" },
  user: { fa: "user", bi: "person", mat: "account_circle", sprite: "user", img: "user", glyph: "👤" },
  search: { fa: "search", bi: "search", mat: "search", sprite: "search", img: "search", glyph: "🔍" },
  bell: { fa: "bell", bi: "bell", mat: "notifications", sprite: "bell", img: "bell", glyph: "🔔" },
  menu: { fa: "bars", bi: "list", mat: "menu", sprite: "menu", img: "hamburger", glyph: "☰" },
};
const STYLES = ["fa", "bi", "mat", "sprite", "img", "glyph"];

function iconHtml(kind, style) {
  const i = ICONS[kind];
  switch (style) {
    case "fa": return `<i class="fa fa-${i.fa}" aria-hidden="true"></i>`;
    case "bi": return `<i class="bi bi-${i.bi}"></i>`;
    case "mat": return `<span class="material-icons">${i.mat}</span>`;
    case "sprite": return `<svg class="ico" width="16" height="16" aria-hidden="true"><use href="#icon-${i.sprite}"></use></svg>`;
    case "img": return `<img src="/assets/icons/${i.img}.svg" alt="" width="16" height="16">`;
    default: return `<span class="glyph">${i.glyph}</span>`;
  }
}
/** An icon-only control in one of four wrappers; `gold` marks it. */
function iconControl(r, kind, style, gold, cls = "act") {
  const t = gold ? ' data-t="gold"' : "";
  const w = pick(r, ["button", "a", "span-role", "button"]);
  const ic = iconHtml(kind, style);
  if (w === "a") return `<a href="#" class="${cls}"${t}>${ic}</a>`;
  if (w === "span-role") return `<span class="${cls}" role="button" tabindex="0"${t}>${ic}</span>`;
  return `<button type="button" class="${cls}"${t}>${ic}</button>`;
}

const SPRITE = `<svg style="display:none" xmlns="http://www.w3.org/2000/svg">${Object.values(ICONS).map((i) => `<symbol id="icon-${i.sprite}" viewBox="0 0 16 16"><rect width="16" height="16"/></symbol>`).join("")}</svg>`;
const CSS = `body{font:14px/1.4 sans-serif;margin:0;color:#222}header{display:flex;gap:16px;align-items:center;padding:10px 16px;background:#f5f5f5}
main{padding:16px}table{border-collapse:collapse}td,th{padding:6px 10px;border-bottom:1px solid #e0e0e0;text-align:left}
.act{display:inline-block;width:28px;height:28px;padding:0;border:0;background:none;text-align:center;line-height:28px;vertical-align:middle;cursor:pointer;color:#555}
.act i,.act .material-icons,.act .ico,.act img{display:inline-block;width:16px;height:16px;font-size:0;vertical-align:middle}
.glyph{font-size:16px}footer{padding:16px;color:#777;font-size:12px}`;

function page(title, body, { script = "", css = "" } = {}) {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title><style>${CSS}${css}</style></head><body>${SPRITE}
<header><a href="/" class="logo">Acme</a><nav><a href="/help">Help</a> <a href="/account">Account</a></nav><input type="search" placeholder="Search"></header>
<main>${body}</main><footer><a href="/privacy">Privacy</a> · <a href="/terms">Terms</a></footer>${script ? `<script>${script}</script>` : ""}</body></html>`;
}

// ------------------------------------------------------------------ families
const FAMILIES = {
  "inbox-delete": { split: "dev", make(r) {
    const people = sample(r, PEOPLE, 5), subj = sample(r, SUBJECTS, 5), style = pick(r, STYLES), k = Math.floor(r() * 5);
    const rows = people.map((p, i) => `<tr><td><input type="checkbox"></td><td>${p}</td><td>${subj[i]}</td><td>${iconControl(r, "star", style, false)}${iconControl(r, "delete", style, i === k)}</td></tr>`).join("");
    const goal = pick(r, [`Delete the email from ${people[k]}`, `Trash the message from ${people[k].split(" ")[0]}`, `Delete ${people[k].split(" ")[0]}'s email about "${subj[k]}"`]);
    return { html: page("Inbox", `<h1>Inbox</h1><table>${rows}</table>`), goal };
  } },
  "inbox-star": { split: "dev", make(r) {
    const people = sample(r, PEOPLE, 5), subj = sample(r, SUBJECTS, 5), style = pick(r, STYLES), k = Math.floor(r() * 5);
    const rows = people.map((p, i) => `<div class="msg"><b>${p}</b> <span>${subj[i]}</span> ${iconControl(r, "star", style, i === k)}${iconControl(r, "delete", style, false)}</div>`).join("");
    const goal = pick(r, [`Star the email from ${people[k]}`, `Star the message about ${subj[k].toLowerCase()}`]);
    return { html: page("Mail", `<h1>Mail</h1><div class="list">${rows}</div>`), goal };
  } },
  "color-swatch": { split: "dev", make(r) {
    const cols = sample(r, COLORS, 6), k = Math.floor(r() * 6);
    const sw = cols.map(([n, hex], i) => `<div class="swatch"${i === k ? ' data-t="gold"' : ""} style="background:${hex}"></div>`).join("");
    const goal = pick(r, [`Pick the ${cols[k][0]} colour`, `Choose ${cols[k][0]}`, `Click the ${cols[k][0]} swatch`]);
    return { html: page("Product", `<h1>T-shirt</h1><p>Colour:</p><div class="swatches">${sw}</div><button>Add to bag</button>`, {
      css: ".swatches{display:flex;gap:8px}.swatch{width:30px;height:30px;border-radius:50%}",
      script: `document.querySelectorAll(".swatch").forEach(s=>s.addEventListener("click",()=>s.classList.toggle("on")));`,
    }), goal };
  } },
  "svg-shape": { split: "dev", make(r) {
    const kinds = ["circle", "square", "triangle", "rectangle"];
    const items = sample(r, COLORS.slice(0, 6), 4).map(([n, hex], i) => ({ n, hex, kind: kinds[(i + Math.floor(r() * 4)) % 4] }));
    const k = Math.floor(r() * items.length);
    const draw = (it, i) => {
      const x = 20 + i * 70, t = i === k ? ' data-t="gold"' : "";
      if (it.kind === "circle") return `<circle cx="${x + 20}" cy="40" r="20" fill="${it.hex}"${t}/>`;
      if (it.kind === "square") return `<rect x="${x}" y="20" width="40" height="40" fill="${it.hex}"${t}/>`;
      if (it.kind === "rectangle") return `<rect x="${x}" y="28" width="56" height="24" fill="${it.hex}"${t}/>`;
      return `<polygon points="${x},60 ${x + 20},20 ${x + 40},60" fill="${it.hex}"${t}/>`;
    };
    const goal = `Click on the ${items[k].n} ${items[k].kind}`;
    // One listener on the drawing (d3 / jQuery style), none on the shapes.
    return { html: page("Shapes", `<h1>Find the shape</h1><svg width="320" height="80">${items.map(draw).join("")}</svg><p><button>Submit</button></p>`, {
      script: `document.querySelector("main svg").addEventListener("click",e=>{e.target.setAttribute("stroke","#000")});`,
    }), goal };
  } },
  "calendar-day": { split: "dev", make(r) {
    const month = pick(r, ["March", "April", "June", "October"]), n = 1 + Math.floor(r() * 28);
    const cells = Array.from({ length: 30 }, (_, i) => `<div class="day"${i + 1 === n ? ' data-t="gold"' : ""}>${i + 1}</div>`).join("");
    const goal = pick(r, [`Pick ${month} ${n}`, `Select the ${n}${n === 1 ? "st" : n === 2 ? "nd" : n === 3 ? "rd" : "th"} of ${month}`]);
    return { html: page("Book", `<h1>Choose a date</h1><div class="cal"><div class="head">${month} 2025</div><div class="grid">${cells}</div></div><button>Continue</button>`, {
      css: ".grid{display:grid;grid-template-columns:repeat(7,36px);gap:2px}.day{height:30px;line-height:30px;text-align:center;border:1px solid #ccc}",
      script: `document.querySelector(".grid").addEventListener("click",e=>{const d=e.target.closest(".day");if(d)d.classList.add("sel")});`,
    }), goal };
  } },
  "dialog-close": { split: "dev", make(r) {
    const style = pick(r, STYLES);
    const body = `<h1>Welcome</h1><p>Browse our catalogue.</p><button>Shop now</button><button>Learn more</button>
      <div class="modal" role="dialog" aria-modal="true"><div class="mh"><h2>${pick(r, ["Subscribe to our newsletter", "Cookie settings", "Special offer"])}</h2>${iconControl(r, "close", style, true, "act close")}</div>
      <p>Get 10% off your first order.</p><input type="email" placeholder="Email"><button>Subscribe</button></div>`;
    const goal = pick(r, ["Close the dialog", "Dismiss the popup", "Close this window"]);
    return { html: page("Home", body, { css: ".modal{position:fixed;top:120px;left:200px;width:420px;background:#fff;border:1px solid #999;padding:16px;z-index:10}.mh{display:flex;justify-content:space-between}" }), goal };
  } },
  "nested-tabs": { split: "dev", make(r) {
    const names = sample(r, ["Profile", "Security", "Billing", "Notifications", "Integrations", "Team"], 4), k = 1 + Math.floor(r() * 3);
    const tabs = names.map((n, i) => `<li role="tab"${i === 0 ? ' aria-selected="true" class="active"' : ""}><a href="#${n.toLowerCase()}"${i === k ? ' data-t="gold"' : ""}>${n}</a></li>`).join("");
    const goal = pick(r, [`Open the ${names[k]} tab`, `Go to ${names[k]} settings`]);
    return { html: page("Settings", `<h1>Settings</h1><ul class="tabs" role="tablist">${tabs}</ul><section><p>${names[0]} details</p><button>Save</button></section>`, {
      css: ".tabs{list-style:none;display:flex;gap:4px;padding:0}.tabs li{cursor:pointer}.tabs a{display:block;padding:8px 14px;text-decoration:none;color:#333}",
    }), goal };
  } },
  "todo-edit": { split: "dev", make(r) {
    const tasks = sample(r, TASKS, 5), style = pick(r, STYLES), k = Math.floor(r() * 5);
    const rows = tasks.map((t, i) => `<li><input type="checkbox"> <span>${t}</span> ${iconControl(r, "edit", style, i === k)}${iconControl(r, "delete", style, false)}</li>`).join("");
    const goal = pick(r, [`Edit the task "${tasks[k]}"`, `Edit ${tasks[k].toLowerCase()}`]);
    return { html: page("Todo", `<h1>My tasks</h1><ul class="todos">${rows}</ul><input placeholder="New task"><button>Add</button>`), goal };
  } },
  "pricing-cards": { split: "dev", make(r) {
    const plans = [["Basic", 5], ["Pro", 15], ["Team", 40], ["Enterprise", 99]], k = Math.floor(r() * 4);
    const cards = plans.map(([n, p], i) => `<div class="card"${i === k ? ' data-t="gold"' : ""}><h3>${n}</h3><div>$${p} a month</div><div>${i + 1} seats</div></div>`).join("");
    const goal = pick(r, [`Choose the ${plans[k][0]} plan`, `Select the $${plans[k][1]} plan`]);
    return { html: page("Pricing", `<h1>Plans</h1><div class="cards">${cards}</div>`, {
      css: ".cards{display:flex;gap:12px}.card{border:1px solid #ccc;padding:12px;width:160px}",
      script: `document.querySelectorAll(".card").forEach(c=>c.addEventListener("click",()=>c.classList.add("sel")));`,
    }), goal };
  } },
  // ----------------------------------------------------------------- held out
  "cart-remove": { split: "held-out", make(r) {
    const prods = sample(r, PRODUCTS, 4), style = pick(r, STYLES), k = Math.floor(r() * 4);
    const rows = prods.map((p, i) => `<tr><td>${p}</td><td><input type="number" value="${1 + (i % 3)}" style="width:48px"></td><td>$${(19 + i * 13).toFixed(2)}</td><td>${iconControl(r, pick(r, ["delete", "close"]), style, i === k)}</td></tr>`).join("");
    return { html: page("Cart", `<h1>Your cart</h1><table>${rows}</table><button>Checkout</button>`), goal: pick(r, [`Remove the ${prods[k].toLowerCase()} from the cart`, `Delete ${prods[k].toLowerCase()} from my basket`]) };
  } },
  "social-like": { split: "held-out", make(r) {
    const who = sample(r, HANDLES, 4), style = pick(r, STYLES), k = Math.floor(r() * 4), act = pick(r, ["like", "share", "reply"]);
    const posts = who.map((h, i) => `<article class="post"><b>${h}</b><p>${pick(r, ["Great hike today!", "New blog post is up.", "Coffee first.", "Shipping v2 tomorrow."])}</p><div class="bar">${["reply", "share", "like"].map((a) => iconControl(r, a, style, i === k && a === act)).join("")}</div></article>`).join("");
    const goal = act === "like" ? `Like the post by ${who[k]}` : act === "share" ? `Share ${who[k]}'s post` : `Reply to ${who[k]}`;
    return { html: page("Feed", `<h1>Feed</h1>${posts}`, { css: ".post{border-bottom:1px solid #ddd;padding:8px 0}" }), goal };
  } },
  "file-actions": { split: "held-out", make(r) {
    const files = sample(r, FILES, 5), style = pick(r, STYLES), k = Math.floor(r() * 5), act = pick(r, ["download", "more"]);
    const rows = files.map((f, i) => `<tr><td>${f}</td><td>${12 + i * 7} KB</td><td>${iconControl(r, "download", style, i === k && act === "download")}${iconControl(r, "more", style, i === k && act === "more")}</td></tr>`).join("");
    const goal = act === "download" ? `Download ${files[k]}` : `Open the menu for ${files[k]}`;
    return { html: page("Files", `<h1>Shared files</h1><table>${rows}</table>`), goal };
  } },
  "editor-toolbar": { split: "held-out", make(r) {
    const tools = ["bold", "italic", "underline", "link", "list", "undo"], style = pick(r, STYLES.filter((s) => s !== "glyph")), k = tools[Math.floor(r() * tools.length)];
    const bar = tools.map((t) => iconControl(r, t, style, t === k)).join("");
    const goal = { bold: "Make the text bold", italic: "Italicize the selection", underline: "Underline the text", link: "Insert a link", list: "Make a bulleted list", undo: "Undo the last change" }[k];
    return { html: page("Editor", `<h1>New post</h1><div class="toolbar">${bar}</div><div contenteditable="true" style="border:1px solid #ccc;min-height:120px">Hello</div><button>Publish</button>`), goal };
  } },
  "side-menu": { split: "held-out", make(r) {
    const items = sample(r, ["Dashboard", "Orders", "Customers", "Reports", "Billing", "Integrations"], 5), k = Math.floor(r() * 5);
    const li = items.map((n, i) => `<li onclick="void 0"><button${i === k ? ' data-t="gold"' : ""}>${n}</button></li>`).join("");
    return { html: page("Admin", `<nav class="side"><ul>${li}</ul></nav><section><h1>Dashboard</h1></section>`, {
      css: ".side ul{list-style:none;padding:0;width:200px}.side li{cursor:pointer}.side button{display:block;width:100%;margin:0;border:0;padding:8px;text-align:left;background:#f4f4f4;font:inherit}",
    }), goal: pick(r, [`Go to ${items[k]}`, `Open the ${items[k].toLowerCase()} page`]) };
  } },
  "filter-chips": { split: "held-out", make(r) {
    const chips = sample(r, ["Vegan", "Gluten free", "Under 30 minutes", "Spicy", "Kid friendly", "Dairy free"], 5), k = Math.floor(r() * 5);
    const c = chips.map((n, i) => `<span class="chip"${i === k ? ' data-t="gold"' : ""}>${n}</span>`).join("");
    return { html: page("Recipes", `<h1>Recipes</h1><div class="chips">${c}</div><p>124 recipes</p>`, {
      css: ".chips{display:flex;gap:6px}.chip{border:1px solid #aaa;border-radius:12px;padding:2px 10px}",
      script: `document.querySelectorAll(".chip").forEach(c=>c.addEventListener("click",()=>c.classList.toggle("on")));`,
    }), goal: pick(r, [`Filter by ${chips[k].toLowerCase()}`, `Show only ${chips[k].toLowerCase()} recipes`]) };
  } },
  "seat-map": { split: "held-out", make(r) {
    const rows = 8, cols = ["A", "B", "C", "D"], gr = 1 + Math.floor(r() * rows), gc = pick(r, cols);
    const seats = [];
    for (let i = 1; i <= rows; i++) for (const c of cols) seats.push(`<div class="seat"${i === gr && c === gc ? ' data-t="gold"' : ""}>${i}${c}</div>`);
    return { html: page("Seats", `<h1>Choose your seat</h1><div class="plane">${seats.join("")}</div><button>Confirm</button>`, {
      css: ".plane{display:grid;grid-template-columns:repeat(4,40px);gap:4px}.seat{height:32px;line-height:32px;text-align:center;border:1px solid #789;border-radius:4px}",
      script: `document.querySelector(".plane").addEventListener("click",e=>{const s=e.target.closest(".seat");if(s)s.classList.add("sel")});`,
    }), goal: pick(r, [`Select seat ${gr}${gc}`, `Pick seat ${gr}${gc}`]) };
  } },
  "photo-gallery": { split: "held-out", make(r) {
    const photos = sample(r, ["lighthouse", "mountain-lake", "city-skyline", "red-barn", "sunflower-field", "old-bridge", "desert-dunes"], 5), k = Math.floor(r() * 5);
    const g = photos.map((p, i) => `<a href="/photos/${i}"${i === k ? ' data-t="gold"' : ""} class="th"><img src="/photos/${p}-640.jpg" alt="" width="120" height="80"></a>`).join("");
    return { html: page("Gallery", `<h1>Gallery</h1><div class="g">${g}</div>`, { css: ".g{display:flex;gap:8px}.th{display:inline-block}" }), goal: `Open the ${photos[k].replace(/-/g, " ")} photo` };
  } },
  "share-bar": { split: "held-out", make(r) {
    const nets = sample(r, ["twitter", "facebook", "linkedin", "reddit", "email", "whatsapp"], 4), k = Math.floor(r() * 4);
    const links = nets.map((n, i) => `<a href="#" class="sh sh-${n}"${i === k ? ' data-t="gold"' : ""} style="background-image:url(/assets/social/${n}.svg)"></a>`).join("");
    return { html: page("Article", `<h1>How to brew coffee</h1><p>Grind the beans...</p><div class="shares">${links}</div>`, { css: ".sh{display:inline-block;width:24px;height:24px;margin-right:6px;background-size:cover}" }), goal: `Share this on ${nets[k]}` };
  } },
  "header-icons": { split: "held-out", make(r) {
    const acts = ["cart", "user", "search", "bell", "menu"], style = pick(r, STYLES), k = acts[Math.floor(r() * acts.length)];
    const bar = acts.map((a) => iconControl(r, a, style, a === k)).join("");
    const goal = { cart: "Open my shopping cart", user: "Go to my account", search: "Open search", bell: "Show my notifications", menu: "Open the menu" }[k];
    return { html: page("Store", `<div class="top">${bar}</div><h1>New arrivals</h1><button>Shop women</button><button>Shop men</button>`), goal };
  } },
};

export const FAMILY_NAMES = Object.keys(FAMILIES);

/** `perFamily` cases of every family, deterministic for a seed. */
export function generate(perFamily = 10, seed = 21) {
  const out = [];
  for (const [name, fam] of Object.entries(FAMILIES)) {
    for (let i = 0; i < perFamily; i++) {
      const r = seededRandom(seed * 7919 + i * 104729 + [...name].reduce((a, c) => a * 31 + c.charCodeAt(0), 7));
      const { html, goal } = fam.make(r);
      out.push({ id: `${name}-${i}`, family: name, split: fam.split, html, goal });
    }
  }
  return out;
}
