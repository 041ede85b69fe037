// Inferred names for icon-only controls. When a control's accessible name is empty (an <i
// class="fa fa-trash">, an SVG sprite, a background image) or only a glyph (×, ☆) or an icon
// font's ligature ("star_border"), the page still says what the icon is: class tokens of icon
// fonts, ligature text, SVG <title> and <use href="#icon-trash">, data-icon, image file names,
// symbol characters. That word (plus the action it usually stands for: trash → delete) is sent
// as `inferred_name`, with `inferred_from` saying where it came from. The accessible name is
// never changed (it is what assistive technology reads, and what WPT checks).
// Bounded: only unnamed candidates are looked at, and at most a few descendants of each.

/** Icon words → the action or thing they usually stand for, when that is another word. */
const ICON_MEANING: Record<string, string> = {
  trash: "delete", bin: "delete", "trash-can": "delete", "delete-forever": "delete", garbage: "delete", wastebasket: "delete",
  times: "close", xmark: "close", x: "close", clear: "close", cancel: "close", cross: "close", remove: "close", multiply: "close",
  pencil: "edit", pen: "edit", "edit-2": "edit", "pencil-alt": "edit", "pencil-square": "edit", create: "edit", mode: "edit",
  heart: "favorite like", "heart-o": "favorite like", favorite: "favorite", favourite: "favorite",
  star: "star favorite", "star-o": "star favorite", "star-border": "star favorite", "star-outline": "star favorite",
  ellipsis: "more options", "ellipsis-v": "more options", "ellipsis-h": "more options", "ellipsis-vertical": "more options",
  kebab: "more options", "more-vert": "more options", "more-horiz": "more options", "three-dots": "more options",
  "three-dots-vertical": "more options", "dots-vertical": "more options", "dots-horizontal": "more options", more: "more options",
  "share-alt": "share", "share-nodes": "share", "share-2": "share", "ios-share": "share",
  cog: "settings", gear: "settings", gears: "settings", cogs: "settings", sliders: "settings", tune: "settings",
  "magnifying-glass": "search", magnifier: "search", "zoom": "search", loupe: "search",
  plus: "add", "plus-circle": "add", "plus-square": "add", "add-circle": "add", "plus-lg": "add",
  minus: "remove", "minus-circle": "remove", dash: "remove",
  bars: "menu", hamburger: "menu", navicon: "menu", list: "menu", "menu-hamburger": "menu",
  floppy: "save", "floppy-disk": "save", "floppy-o": "save", disk: "save",
  clone: "copy", "content-copy": "copy", files: "copy", duplicate: "copy",
  paperclip: "attach", "attach-file": "attach", clip: "attach",
  envelope: "email mail", "envelope-o": "email mail", mail: "email mail", inbox: "email mail",
  bell: "notifications", "bell-o": "notifications", notifications: "notifications",
  user: "account profile", person: "account profile", "user-circle": "account profile", "account-circle": "account profile",
  cart: "cart", "shopping-cart": "cart", basket: "cart", "shopping-bag": "cart", bag: "cart",
  house: "home", info: "information", "info-circle": "information", question: "help", "question-circle": "help",
  check: "confirm done", checkmark: "confirm done", tick: "confirm done", done: "confirm done", ok: "confirm done",
  sync: "refresh", redo: "refresh", rotate: "refresh", "arrow-clockwise": "refresh", autorenew: "refresh", reload: "refresh",
  eye: "view show", visibility: "view show", "eye-slash": "hide", "visibility-off": "hide",
  flag: "report flag", "thumbs-up": "like", "thumb-up": "like", "thumbs-o-up": "like", "hand-thumbs-up": "like",
  "thumbs-down": "dislike", "thumb-down": "dislike", "hand-thumbs-down": "dislike",
  "chevron-left": "previous back", "arrow-left": "previous back", "angle-left": "previous back", "caret-left": "previous back",
  "chevron-right": "next forward", "arrow-right": "next forward", "angle-right": "next forward", "caret-right": "next forward",
  "chevron-down": "expand", "angle-down": "expand", "caret-down": "expand", "expand-more": "expand",
  "chevron-up": "collapse", "angle-up": "collapse", "caret-up": "collapse", "expand-less": "collapse",
  "external-link": "open in new window", "open-in-new": "open in new window", "box-arrow-up-right": "open in new window",
  reply: "reply", "reply-all": "reply all", forward: "forward", print: "print", printer: "print",
  download: "download", upload: "upload", "cloud-upload": "upload", "cloud-download": "download",
  play: "play", pause: "pause", stop: "stop", "volume-up": "volume", "volume-off": "mute", mute: "mute",
  lock: "lock", unlock: "unlock", bookmark: "bookmark save", "bookmark-o": "bookmark save",
  comment: "comment", comments: "comment", "chat": "comment chat", "chat-bubble": "comment chat",
  calendar: "calendar date", "calendar-alt": "calendar date", "event": "calendar date",
  filter: "filter", funnel: "filter", sort: "sort", archive: "archive", undo: "undo", home: "home",
  "sign-out": "log out", logout: "log out", "sign-in": "log in", login: "log in", "power-off": "log out",
  phone: "call phone", camera: "photo camera", image: "image photo", "photo": "image photo", map: "map", "map-marker": "location",
  pin: "pin", "push-pin": "pin", thumbtack: "pin", "zoom-in": "zoom in", "zoom-out": "zoom out", expand: "expand fullscreen",
  fullscreen: "fullscreen", compress: "exit fullscreen", link: "link", "link-2": "link", help: "help", settings: "settings",
  search: "search", edit: "edit", delete: "delete", close: "close", add: "add", share: "share", menu: "menu", save: "save",
  copy: "copy", attach: "attach", refresh: "refresh",
};

/** Symbol characters → what they stand for. */
const SYMBOLS: Record<string, string> = {
  "×": "close", "✕": "close", "✖": "close", "✗": "close", "❌": "close", "╳": "close", "⨯": "close",
  "☆": "star favorite", "★": "star favorite", "⭐": "star favorite", "✩": "star favorite", "✰": "star favorite",
  "✎": "edit", "✏": "edit", "✐": "edit", "🖉": "edit", "🖊": "edit", "📝": "edit",
  "🗑": "delete", "🚮": "delete", "🗙": "close",
  "♥": "favorite like", "♡": "favorite like", "❤": "favorite like", "💙": "favorite like",
  "⋮": "more options", "⋯": "more options", "…": "more options", "⁝": "more options", "︙": "more options",
  "☰": "menu", "≡": "menu", "🍔": "menu",
  "+": "add", "＋": "add", "➕": "add", "−": "remove", "➖": "remove", "-": "remove",
  "⟳": "refresh", "↻": "refresh", "🔄": "refresh", "↺": "undo", "⟲": "undo",
  "🔍": "search", "🔎": "search", "⚙": "settings", "🔔": "notifications", "🛒": "cart",
  "✓": "confirm done", "✔": "confirm done", "☑": "confirm done",
  "▶": "play", "►": "play", "⏵": "play", "⏸": "pause", "■": "stop", "⏹": "stop",
  "←": "previous back", "‹": "previous back", "«": "previous back", "◀": "previous back", "◄": "previous back",
  "→": "next forward", "›": "next forward", "»": "next forward",
  "↑": "up", "↓": "down", "▲": "up", "▼": "expand", "▾": "expand", "▴": "collapse",
  "✉": "email mail", "📧": "email mail", "📎": "attach", "🖨": "print", "📅": "calendar date", "🔗": "link",
  "👍": "like", "👎": "dislike", "💬": "comment", "🔒": "lock", "🔓": "unlock", "⚑": "report flag", "🚩": "report flag",
  "🏠": "home", "⌂": "home", "ⓘ": "information", "ℹ": "information", "?": "help", "❓": "help", "⤴": "share", "📤": "share",
  "⬇": "download", "⬆": "upload", "💾": "save", "📋": "copy", "🖋": "edit", "⎘": "copy",
};

/** Class tokens of icon sets: a prefix, then the icon's name. Generic tokens (fa, fa-lg) are skipped. */
const ICON_CLASS = /^(?:fa[srlbdkt]?|fa-(?:solid|regular|light|brands|duotone|thin)|glyphicon|bi|icon|icons?|ico|ti|mdi|la[srb]?|ion(?:-md|-ios)?|oi|feather|lucide|ri|bx[sl]?|uil|gg|octicon|fe|el|zmdi|material-icons|ph|tabler|heroicon|hi|iconoir|ki)[-_](.+)$/;
const GENERIC_SUFFIX = /^(?:xs|sm|lg|xl|\d+x|fw|li|border|pull-(?:left|right)|spin|pulse|inverse|stack(?:-\dx)?|flip-(?:horizontal|vertical)|rotate-\d+|solid|regular|light|outline|outlined|filled|fill|round|rounded|sharp|two-?tone|\d+|large|small|medium|white|black|primary|secondary|muted|button|btn|wrapper|container)$/;
/** Classes that mark an element as an icon-font glyph whose text is a ligature (Material). */
const LIGATURE_CLASS = /(?:^|\s)(?:material-icons(?:-[a-z]+)?|material-symbols-[a-z]+|material-symbols|mi|icon-ligature|md-icon)(?:\s|$)/;

function words(slug: string): string {
  return slug.replace(/[_-]+/g, " ").replace(/([a-z])([A-Z])/g, "$1 $2").trim().toLowerCase();
}

/** "trash" → "trash (delete)"; "delete" → "delete". */
function describe(slug: string): string | null {
  // Size and style suffixes say nothing about what the icon is ("x-lg", "trash-fill", "star-24px").
  let s = slug.toLowerCase().replace(/_/g, "-").replace(/(?:-(?:icon|svg|png|fill|filled|outline|outlined|line|solid|round|rounded|sharp|lg|sm|xs|xl|\d+x|\d+px|\d+))+$/, "");
  s = s.replace(/^(?:icon|ico|i|svg|sprite|glyph)-/, "");
  if (!s || s.length > 40 || /^\d+$/.test(s)) return null;
  // Font Awesome 4's "-o" (outline) and "-alt" variants name the same icon.
  s = s.replace(/-(?:o|alt)$/, "");
  const meaning = ICON_MEANING[s] ?? ICON_MEANING[s.replace(/-(?:circle|square)$/, "")];
  const own = words(s);
  if (!own) return null;
  if (!meaning || meaning === own || meaning.split(" ")[0] === own) return meaning ?? own;
  return `${own} (${meaning})`;
}

/** A bare class word that names an icon ("trash", "btn-close", "star-icon"). */
const BARE = /^(?:(?:btn|button|js|action|act|ic|icn)[-_])?([a-z]+(?:-[a-z]+)?)(?:[-_](?:btn|button|icon|ico|link|action))?$/;

function fromClass(cls: string | null): string | null {
  if (!cls) return null;
  const toks = cls.split(/\s+/);
  for (const tok of toks) {
    const m = ICON_CLASS.exec(tok);
    if (!m) continue;
    const name = m[1];
    if (GENERIC_SUFFIX.test(name)) continue;
    const d = describe(name);
    if (d) return d;
  }
  for (const tok of toks) {
    const m = BARE.exec(tok.toLowerCase());
    if (m && Object.hasOwn(ICON_MEANING, m[1]) && m[1] !== "list" && m[1] !== "link" && m[1] !== "more") return describe(m[1]);
  }
  return null;
}

/** File name of an image URL without folder, query, extension and size/hash suffixes. */
export function fileStem(url: string): string | null {
  const clean = url.split(/[?#]/)[0];
  if (clean.startsWith("data:")) return null;
  const base = clean.slice(clean.lastIndexOf("/") + 1);
  const stem = base.replace(/\.[a-z0-9]+$/i, "").replace(/[-_.@](?:\d+x\d*|\d+px|\d+|[0-9a-f]{8,}|x\d|small|large|white|black|dark|light)$/i, "");
  return /[a-z]/i.test(stem) && stem.length <= 40 ? stem : null;
}

function fromUse(el: Element): string | null {
  const href = el.getAttribute("href") ?? el.getAttribute("xlink:href");
  if (!href) return null;
  const i = href.lastIndexOf("#");
  const id = i >= 0 ? href.slice(i + 1) : fileStem(href);
  return id ? describe(id) : null;
}

export interface Inferred {
  name: string;
  /** icon-class | ligature | svg-title | svg-use | data-icon | image-file | symbol | background-image */
  from: string;
}

const SYMBOL_ONLY = /^[^\p{L}\p{N}]{1,3}$/u;
const LIGATURE = /^[a-z]+(?:_[a-z]+)*$/;

/**
 * What the element's icon says it is, or null. `name` is the computed accessible name and
 * `text` the element's visible text; only controls whose name is empty, a glyph or a ligature
 * are looked at. `bgImage`: the element's computed background-image, read lazily.
 */
export function inferIconName(el: Element, name: string, text: string, bgImage: () => string): Inferred | null {
  const label = (name || text).trim();
  if (label && !SYMBOL_ONLY.test(label) && !LIGATURE.test(label)) return null;
  if (label && SYMBOL_ONLY.test(label)) {
    const ch = label.replace(/[\uFE0E\uFE0F\s]/g, "");
    const m = SYMBOLS[ch] ?? SYMBOLS[ch[0] ?? ""];
    if (m) return { name: m, from: "symbol" };
  }
  // A word label is looked at only as an icon font's ligature ("star_border" in a material-icons <i>).
  const wordLabel = label !== "" && !SYMBOL_ONLY.test(label);
  // The element itself, then a few descendants (icon <i>, <svg>, <img>, <use>), breadth first.
  const queue: Element[] = [el];
  let seen = 0;
  for (let q = 0; q < queue.length && seen < 12; q++) {
    const n = queue[q];
    seen++;
    const tag = n.localName;
    const di = wordLabel ? null : n.getAttribute("data-icon") ?? n.getAttribute("data-feather") ?? n.getAttribute("data-lucide");
    if (di) {
      const d = describe(di);
      if (d) return { name: d, from: "data-icon" };
    }
    const cls = n.getAttribute("class");
    if (cls && label && LIGATURE.test(label) && LIGATURE_CLASS.test(cls) && n.textContent?.trim() === label) {
      const d = describe(label);
      if (d) return { name: d, from: "ligature" };
    }
    if (wordLabel) {
      for (let ch = n.firstElementChild; ch && queue.length < 12; ch = ch.nextElementSibling) queue.push(ch);
      continue;
    }
    const c = fromClass(cls);
    if (c) return { name: c, from: "icon-class" };
    if (tag === "svg") {
      const title = n.querySelector("title");
      const t = title?.textContent?.trim();
      if (t) return { name: t.toLowerCase().length <= 40 ? t : t.slice(0, 40), from: "svg-title" };
      const use = n.querySelector("use");
      const u = use ? fromUse(use) : null;
      if (u) return { name: u, from: "svg-use" };
    } else if (tag === "use") {
      const u = fromUse(n);
      if (u) return { name: u, from: "svg-use" };
    } else if (tag === "img" || (tag === "input" && n.getAttribute("type") === "image")) {
      const src = n.getAttribute("src");
      const stem = src ? fileStem(src) : null;
      const d = stem ? describe(stem) : null;
      if (d) return { name: d, from: "image-file" };
    }
    for (let ch = n.firstElementChild; ch && queue.length < 12; ch = ch.nextElementSibling) queue.push(ch);
  }
  if (label && LIGATURE.test(label) && label.includes("_")) {
    const d = describe(label);
    if (d) return { name: d, from: "ligature" };
  }
  if (!label) {
    const bg = bgImage();
    const m = bg && bg !== "none" ? /url\(["']?([^"')]+)["']?\)/.exec(bg) : null;
    const stem = m ? fileStem(m[1]) : null;
    const d = stem ? describe(stem) : null;
    if (d) return { name: d, from: "background-image" };
  }
  return null;
}
