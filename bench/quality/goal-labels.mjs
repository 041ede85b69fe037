// The real-page goal set's labels: rules over a rendered page (scripts off, as the service
// captures a static page) that find the one visible element a common intent acts on (the site's
// search box, the newsletter's email field, the "Log in" link, the cart, the next page, …), and
// natural phrasings of each intent's goal in the page's language. The cases are made at run time
// from the corpus pages (bench/quality/real-goals.mjs); none is kept in the repository.
//
// A rule finds every visible element that fits its family; the family gives a case only when
// exactly one box fits (elements with the same box are one: a link and the button inside it),
// so the gold is unique and visible. The rules read markup (tags, types, attributes, form
// actions, label and container words) the way a person labelling the page would point at the
// element; they are written independently of the ranking code and are not its features.
//
// `LABEL_PAGE` is the source of a function run in the page (page.evaluate): it returns
// { lang, found: [{ family, box, path, target? }], ambiguous: { family: count } }.
// `goalFor(family, lang, pick, target)` gives one phrasing.

import { PATH_OF_SOURCE } from "./read-pages.mjs";

/** The intent families, in report order. */
export const FAMILIES = [
  "site-search", "newsletter", "log-in", "sign-up", "password-reset", "cart", "add-to-cart", "next-page", "pagination",
  "contact", "cookie-consent", "comment-box", "language-switch", "filter", "sort", "share", "print", "download",
];

const LABEL_PAGE_RAW = String.raw`(() => {
  const lang = ((document.documentElement.getAttribute("lang") || "").trim().toLowerCase().split(/[-_]/)[0]) || "en";
  const CHECK = Element.prototype.checkVisibility;
  function visible(el) {
    if (CHECK && !CHECK.call(el, { checkOpacity: true, checkVisibilityCSS: true })) return false;
    const r = el.getBoundingClientRect();
    if (r.width < 4 || r.height < 4) return false;
    if (r.right <= 0 || r.bottom <= 0) return false;
    if (r.left >= Math.max(document.documentElement.scrollWidth, innerWidth)) return false;
    // Clipped to nothing (the visually-hidden pattern).
    const cs = getComputedStyle(el);
    if (cs.clip === "rect(0px, 0px, 0px, 0px)" || cs.clipPath === "inset(50%)") return false;
    return true;
  }
  const norm = (s) => String(s || "").replace(/\s+/g, " ").trim();
  const low = (s) => norm(s).toLowerCase();
  /** What the element says: its label as a person reads it. */
  function says(el) {
    const tag = el.localName;
    if (tag === "input") {
      const t = (el.type || "").toLowerCase();
      if (t === "submit" || t === "button" || t === "reset") return low(el.value || el.getAttribute("aria-label") || (t === "submit" ? "submit" : ""));
      if (t === "image") return low(el.getAttribute("alt") || el.getAttribute("aria-label") || el.getAttribute("title") || "");
      return low(el.getAttribute("aria-label") || el.getAttribute("placeholder") || el.getAttribute("title") || "");
    }
    const aria = el.getAttribute("aria-label");
    if (aria && aria.trim()) return low(aria);
    const text = low(el.innerText) || low(el.textContent);
    if (text) return text;
    const img = el.querySelector("img[alt]");
    if (img && img.getAttribute("alt").trim()) return low(img.getAttribute("alt"));
    return low(el.getAttribute("title") || (el.querySelector("svg title") || {}).textContent || "");
  }
  /** id, class, name, action, href, data-* words of an element, lower case. */
  function marks(el) {
    if (!el || el.nodeType !== 1) return "";
    let s = (el.id || "") + " " + (el.getAttribute("class") || "") + " " + (el.getAttribute("name") || "");
    if (el.localName === "form") s += " " + (el.getAttribute("action") || "");
    if (el.localName === "a") s += " " + (el.getAttribute("href") || "");
    for (const a of el.attributes) if (a.name.startsWith("data-") && a.value.length < 60) s += " " + a.name + " " + a.value;
    return s.toLowerCase();
  }
  /** The marks of the element and of up to n ancestors. */
  function upMarks(el, n) {
    let s = "";
    for (let a = el, i = 0; a && i <= n; a = a.parentElement, i++) s += " " + marks(a);
    return s;
  }
  function within(el, n, test) {
    for (let a = el.parentElement, i = 0; a && i < n; a = a.parentElement, i++) if (test(a)) return a;
    return null;
  }
  const clickables = () => Array.from(document.querySelectorAll("a[href], button, input[type=submit], input[type=button], input[type=image], [role=button], [role=link], summary"));
  const fields = () => Array.from(document.querySelectorAll("input:not([type=hidden]):not([type=checkbox]):not([type=radio]):not([type=submit]):not([type=button]):not([type=image]):not([type=reset]):not([type=file]), textarea"));
  const textLike = (el) => el.localName === "textarea" ? false : ["", "text", "search", "email"].includes((el.getAttribute("type") || "").toLowerCase());
  const formOf = (el) => el.form || el.closest("form");
  const hasPassword = (f) => !!(f && f.querySelector("input[type=password]"));

  const SEARCH = /\b(search|suche|suchen|recherche|rechercher|buscar|busca|búsqueda|cerca|ricerca|pesquisa|pesquisar|zoeken|zoek|szukaj|sök|søg|haku|hledat|arama|поиск|найти|検索|검색|搜索|搜尋|cari|tìm)\b|検索|검색|搜索|поиск/i;
  const NEWS = /newsletter|subscri|mailchimp|list-manage|mc-embedded|mc_embed|klaviyo|convertkit|sendinblue|brevo|mailerlite|e-?mail-?updates|abonn|inscri.*(lettre|newsletter)|bolet[ií]n|iscriviti/i;
  const LOGIN = /^(log ?in|log ?on|sign ?in|login|signin|member login|customer login|my account|account login|anmelden|einloggen|connexion|se connecter|s'identifier|iniciar sesi[oó]n|ingresar|acceder|entrar|accedi|accesso|inloggen|aanmelden|zaloguj( się)?|войти|вход|ログイン|로그인|登录|登入|masuk|đăng nhập)$/i;
  const SIGNUP = /^(sign ?up|sign ?up (now|free|for free)|register|register now|create (an |your |a free )?account|join (now|free|for free|us)|registrieren|konto erstellen|s'inscrire|inscription|créer un compte|registrarse|reg[ií]strate|crear cuenta|crea (un )?account|registrati|cadastre-se|criar conta|registreren|zarejestruj( się)?|зарегистрироваться|регистрация|新規登録|会員登録|회원가입|注册|daftar)$/i;
  const RESET = /(forgot(ten)? (your |my )?password|reset (your |my )?password|lost (your )?password|can'?t (log|sign) in|passwort vergessen|mot de passe oublié|olvid(é|aste|o) (tu |mi |su )?contraseña|password dimenticata|esqueceu (a )?senha|wachtwoord vergeten|забыли пароль|パスワードを忘れ|비밀번호 찾기|lupa (kata sandi|password))/i;
  const CART = /^((view |my |your |shopping )?(cart|basket|bag|trolley)( \(?\d+\)?)?|warenkorb|panier|mon panier|carrito|carrello|carrinho|winkelwagen|koszyk|корзина|カート|장바구니|购物车|keranjang)$/i;
  const CART_HREF = /\/(cart|basket|bag|warenkorb|panier|carrito|carrello|checkout\/cart)(\.[a-z]+)?\/?(\?|#|$)/i;
  const ADD = /^(add to (cart|basket|bag|trolley)|add to shopping (cart|bag)|in den warenkorb|ajouter au panier|añadir al carrito|agregar al carrito|aggiungi al carrello|adicionar ao carrinho|in winkelwagen|do koszyka|в корзину|カートに入れる|장바구니 담기|加入购物车|masukkan keranjang)\b/i;
  const NEXT = /^(next|next page|next ›|next »|next →|next >|›|»|→|older posts|older entries|older|weiter|nächste( seite)?|suivant(e)?|page suivante|siguiente|successiva|avanti|próxima|volgende|następna|следующая|次へ|다음|下一页|berikutnya)$/i;
  const CONTACT = /^(contact|contact us|contact me|get in touch|kontakt|kontaktieren sie uns|nous contacter|contactez-nous|contact us today|contacto|contáctenos|contatti|contattaci|contato|fale conosco|neem contact op|контакты|связаться с нами|お問い合わせ|문의하기|联系我们|hubungi kami)$/i;
  const COOKIE = /cookie|consent|gdpr|cmp|privacy-banner|cc-banner|onetrust|didomi|cookiebot|usercentrics|eu-cookie/i;
  const ACCEPT = /^(accept|accept all|accept cookies|accept all cookies|allow|allow all|allow cookies|agree|i agree|agree and close|got it|ok|okay|i accept|i understand|understood|yes|alle akzeptieren|akzeptieren|einverstanden|tout accepter|accepter|j'accepte|aceptar|aceptar todo|acepto|accetta|accetto|accetta tutti|aceitar|concordo|accepteren|akceptuj|принять|同意する|동의|同意|setuju|terima)$/i;
  const COMMENT = /comment|reply|respond|discussion|disqus|kommentar|commentaire|comentario|commento|comentário|reactie/i;
  const LANG_WORDS = /^(language|languages|lang|select language|choose language|sprache|langue|idioma|lingua|taal|język|язык|言語|언어|语言|bahasa)$/i;
  const LANG_NAMES = { en: /^(english|en)$/i, fr: /^(français|francais|french|fr)$/i, de: /^(deutsch|german|de)$/i, es: /^(español|espanol|spanish|es)$/i, it: /^(italiano|italian|it)$/i, pt: /^(português|portugues|portuguese|pt)$/i, nl: /^(nederlands|dutch|nl)$/i, ja: /^(日本語|japanese|ja)$/i, zh: /^(中文|简体中文|繁體中文|chinese|zh)$/i, ko: /^(한국어|korean|ko)$/i, ru: /^(русский|russian|ru)$/i, pl: /^(polski|polish|pl)$/i, ar: /^(العربية|arabic|ar)$/i };
  const ENDONYM = /^(english|français|francais|deutsch|español|espanol|italiano|português|portugues|nederlands|日本語|中文|简体中文|繁體中文|한국어|русский|polski|العربية)$/i;
  /** A control that acts on this page (a button, or a link to an anchor or a script), not a link to another page. */
  const inPage = (el) => el.localName !== "a" || /^(#|javascript:)/i.test(el.getAttribute("href") || "#") || el.getAttribute("role") === "button";
  const FILTER = /^(filter|filters|filter results|filter by|show filters|refine|refine results|refine by|filtern|filtres|filtrer|filtros|filtrar|filtri|filtra|filteren|фильтр|фильтры|絞り込み|필터|筛选)$/i;
  const SORT = /^(sort|sort by|sort by:.*|order by|sort results|sortieren|sortieren nach|trier|trier par|ordenar|ordenar por|ordina|ordina per|sorteren|sortuj|сортировка|並び替え|정렬|排序)$/i;
  const SHARE_HREF = { facebook: /facebook\.com\/(sharer|share\.php|dialog\/share)/i, twitter: /(twitter|x)\.com\/(intent\/(tweet|post)|share)/i, linkedin: /linkedin\.com\/(share|sharing|shareArticle|cws\/share)/i, pinterest: /pinterest\.[a-z.]+\/pin\/create/i, whatsapp: /(wa\.me\/|api\.whatsapp\.com\/send|whatsapp:\/\/send)/i, reddit: /reddit\.com\/submit/i, email: /^mailto:\?/i };
  const SHARE = /^(share|share this|share this (article|story|post|page)|share article|teilen|partager|compartir|condividi|compartilhar|delen|udostępnij|поделиться|共有|공유|分享|bagikan)$/i;
  const PRINT = /^(print|print this|print this (page|article|recipe)|print page|print article|print recipe|drucken|imprimer|imprimir|stampa|afdrukken|drukuj|печать|印刷|인쇄|打印|cetak)$/i;
  const DOWNLOAD = /^(download|download pdf|download the pdf|download now|download (the )?(report|file|brochure|guide|app|paper|datasheet|whitepaper)|herunterladen|télécharger|descargar|scarica|baixar|downloaden|pobierz|скачать|ダウンロード|다운로드|下载|unduh)\b/i;

  const found = [];
  const ambiguous = {};
  /** Keeps one case for the family when exactly one box fits. */
  function offer(family, els, target) {
    const seen = [];
    for (const el of els) {
      if (!el || !visible(el)) continue;
      const r = el.getBoundingClientRect();
      const box = { x: r.x, y: r.y, width: r.width, height: r.height };
      // One box, one element (an input inside the label that fits the rule too, a link and its button).
      const same = seen.find((s) => Math.abs(s.box.x - box.x) < 3 && Math.abs(s.box.y - box.y) < 3 && Math.abs(s.box.width - box.width) < 3 && Math.abs(s.box.height - box.height) < 3);
      if (same) continue;
      seen.push({ el, box });
    }
    if (seen.length === 1) found.push({ family, el: seen[0].el, box: seen[0].box, target: target || null });
    else if (seen.length > 1) ambiguous[family] = seen.length;
  }

  // site search: the field one types a site search into; without one, the control that opens it.
  {
    const boxes = fields().filter((el) => {
      if (!textLike(el)) return false;
      const f = formOf(el);
      if (hasPassword(f)) return false;
      const type = (el.getAttribute("type") || "").toLowerCase();
      const own = marks(el) + " " + low(el.getAttribute("placeholder")) + " " + low(el.getAttribute("aria-label")) + " " + low(el.getAttribute("title"));
      const name = (el.getAttribute("name") || "").toLowerCase();
      const inSearch = !!el.closest("[role=search], search") || (f && (SEARCH.test(marks(f)) || /[?&/](s|q|search|query)=?$/.test(f.getAttribute("action") || "")));
      return type === "search" || SEARCH.test(own) || inSearch || ((name === "q" || name === "s" || name === "query" || name === "keyword" || name === "keywords") && !!f);
    });
    if (boxes.length) offer("site-search", boxes);
    else offer("site-search", clickables().filter((el) => SEARCH.test(says(el)) && says(el).length < 30 && !(el.getAttribute("href") || "").startsWith("mailto:")));
  }
  // newsletter: the email field of a newsletter or mailing-list form (not a log-in form).
  offer("newsletter", fields().filter((el) => {
    const type = (el.getAttribute("type") || "").toLowerCase();
    const emailish = type === "email" || /e-?mail/i.test(marks(el) + " " + (el.getAttribute("placeholder") || "") + " " + (el.getAttribute("autocomplete") || ""));
    if (!emailish || el.localName === "textarea") return false;
    const f = formOf(el);
    if (hasPassword(f)) return false;
    const holder = f || within(el, 4, () => true);
    if (!holder) return false;
    if (f && f.querySelectorAll("textarea").length) return false; // a contact form
    const words = upMarks(f || el, 3) + " " + low((holder.closest("section, aside, footer, div") || holder).textContent).slice(0, 600);
    return NEWS.test(words);
  }));
  // log in / sign up / password reset: the control that says so.
  offer("log-in", clickables().filter((el) => LOGIN.test(says(el).replace(/[›»→>\s]+$/, ""))));
  // Not the submit button of an email-only form (a newsletter's "Sign up").
  const emailOnlyForm = (el) => { const f = formOf(el); return !!f && !hasPassword(f) && !!f.querySelector("input[type=email], input[name*=mail i]"); };
  offer("sign-up", clickables().filter((el) => SIGNUP.test(says(el).replace(/[›»→>!\s]+$/, "")) && !NEWS.test(upMarks(el, 3)) && !emailOnlyForm(el)));
  offer("password-reset", clickables().filter((el) => RESET.test(says(el)) && says(el).length < 60));
  // cart: the link to the cart (words, or an icon link to a cart page); add to cart: the buy button.
  offer("cart", clickables().filter((el) => {
    const s = says(el).replace(/[\d()]+/g, " ").trim();
    if (ADD.test(says(el))) return false;
    return CART.test(s) || CART.test(says(el)) || (s.length < 3 && CART_HREF.test(el.getAttribute("href") || ""));
  }));
  offer("add-to-cart", clickables().filter((el) => ADD.test(says(el)) && says(el).length < 40));
  // next page: rel=next or a pager's "Next"; pagination: the link to page 2 (or 3) of a pager.
  {
    const pagers = Array.from(document.querySelectorAll("nav, ul, ol, div")).filter((n) => /pagination|pager|page-numbers|paging|pagenav|page-nav|wp-pagenavi/i.test(marks(n)) || /pagination|pager|pages/i.test(n.getAttribute("aria-label") || ""));
    const inPager = (el) => pagers.some((p) => p.contains(el));
    // Not a carousel's or slider's arrow, and not rel=next on a link to the next article.
    const CAROUSEL = /slick|carousel|swiper|slider|glide|flickity|splide|owl-|gallery|lightbox/i;
    const rel = Array.from(document.querySelectorAll("a[rel~=next]")).filter((el) => NEXT.test(says(el)) || inPager(el));
    offer("next-page", (rel.length ? rel : clickables().filter((el) => NEXT.test(says(el)) && (inPager(el) || /next/i.test(marks(el))))).filter((el) => !CAROUSEL.test(upMarks(el, 3))));
    let number = null;
    for (const n of ["2", "3"]) {
      const links = clickables().filter((el) => says(el) === n && inPager(el) && el.localName === "a");
      if (links.length === 1) { number = n; offer("pagination", links, n); break; }
    }
    if (number === null) {
      const twos = clickables().filter((el) => says(el) === "2" && inPager(el));
      if (twos.length) offer("pagination", twos, "2");
    }
  }
  offer("contact", clickables().filter((el) => CONTACT.test(says(el).replace(/[›»→>!\s]+$/, ""))));
  // cookie consent: the accepting button of a cookie or consent banner.
  offer("cookie-consent", clickables().filter((el) => ACCEPT.test(says(el).replace(/[!.\s]+$/, "")) && COOKIE.test(upMarks(el, 6) + " " + low((within(el, 4, (a) => (a.textContent || "").length > 60) || el).textContent).slice(0, 400))));
  // comment box: the text area of a comment or reply form.
  offer("comment-box", Array.from(document.querySelectorAll("textarea")).filter((el) => COMMENT.test(upMarks(el, 4) + " " + low(el.getAttribute("placeholder")) + " " + low(el.getAttribute("aria-label")))));
  // language switch: the link to one other language (hreflang, or a language's own name), else a language chooser.
  {
    const byLang = new Map();
    for (const el of clickables()) {
      const hl = ((el.getAttribute("hreflang") || "").toLowerCase().split(/[-_]/)[0]) || null;
      const s = says(el);
      let code = hl;
      if (!code) for (const [k, re] of Object.entries(LANG_NAMES)) if (re.test(s)) { code = k; break; }
      if (!code || code === lang || !LANG_NAMES[code]) continue;
      // A language link names a language (or carries hreflang); two-letter words alone need
      // hreflang, and a language's English name ("Spanish", a subject tag too) a language menu.
      if (!hl && s.length <= 2) continue;
      if (!hl && !ENDONYM.test(s) && !/lang|locale|translat|i18n|country|region/i.test(upMarks(el, 3))) continue;
      if (!byLang.has(code)) byLang.set(code, []);
      byLang.get(code).push(el);
    }
    const pick = [...byLang.entries()].find(([, els]) => els.length === 1);
    if (pick) offer("language-switch", pick[1], pick[0]);
    else offer("language-switch", [...clickables(), ...document.querySelectorAll("select")].filter((el) => LANG_WORDS.test(says(el)) || (el.localName === "select" && /lang/i.test(marks(el)))));
  }
  offer("filter", clickables().filter((el) => inPage(el) && FILTER.test(says(el).replace(/[▾▼⌄+\s]+$/, ""))));
  offer("sort", [...clickables(), ...document.querySelectorAll("select")].filter((el) => el.localName === "select" ? /sort|(^|[\s_-])order(by|-by|_by)?([\s_-]|$)/i.test((el.id || "") + " " + (el.getAttribute("name") || "") + " " + low(el.getAttribute("aria-label")) + " " + low(el.labels && el.labels[0] ? el.labels[0].textContent : "")) : inPage(el) && SORT.test(says(el).replace(/[▾▼⌄\s]+$/, ""))));
  // share: the share link of one network (a sharer URL), else a lone "Share" control.
  {
    const links = Array.from(document.querySelectorAll("a[href]"));
    let done = false;
    for (const [net, re] of Object.entries(SHARE_HREF)) {
      const hits = links.filter((a) => re.test(a.getAttribute("href") || "") && visible(a));
      if (hits.length === 1) { offer("share", hits, net); done = true; break; }
    }
    if (!done) offer("share", clickables().filter((el) => SHARE.test(says(el))));
  }
  offer("print", clickables().filter((el) => PRINT.test(says(el)) || /window\.print|javascript:print/i.test(el.getAttribute("href") || el.getAttribute("onclick") || "")));
  offer("download", clickables().filter((el) => (DOWNLOAD.test(says(el)) && says(el).length < 50) || (el.hasAttribute("download") && el.localName === "a")));

  const pathOf = __PATH_OF__;
  return {
    lang,
    found: found.map((f) => ({ family: f.family, box: f.box, path: pathOf(f.el), target: f.target, tag: f.el.localName })),
    ambiguous,
  };
})()`;

/** The labelling function's source, with the element-path helper of read-pages.mjs. */
export const LABEL_PAGE = LABEL_PAGE_RAW.replace("__PATH_OF__", PATH_OF_SOURCE);

const SEARCH_TERMS = ["shipping", "returns", "opening hours", "privacy policy", "gift cards", "careers", "pricing", "sustainability"];
const TERMS = { fr: ["livraison", "retours", "horaires"], de: ["Versand", "Rückgabe", "Öffnungszeiten"], es: ["envíos", "devoluciones", "horarios"], it: ["spedizioni", "resi", "orari"], pt: ["entrega", "devoluções", "horários"], nl: ["verzending", "retouren", "openingstijden"], ru: ["доставка", "возврат"], ja: ["配送", "返品"], ko: ["배송", "반품"], id: ["pengiriman", "pengembalian"], pl: ["dostawa", "zwroty"] };
const NET = { facebook: "Facebook", twitter: "Twitter", linkedin: "LinkedIn", pinterest: "Pinterest", whatsapp: "WhatsApp", reddit: "Reddit", email: "email" };
const LANG_EN = { en: "English", fr: "French", de: "German", es: "Spanish", it: "Italian", pt: "Portuguese", nl: "Dutch", ja: "Japanese", zh: "Chinese", ko: "Korean", ru: "Russian", pl: "Polish", ar: "Arabic" };

/** Phrasings per family: English, and the languages of the corpus pages that are not English. */
const PHRASES = {
  en: {
    "site-search": ["search the site for {term}", "find {term} on this site", "look up {term} using the site search", "type {term} into the search box"],
    newsletter: ["subscribe to the newsletter with my email", "sign up for their email newsletter", "enter my email address to get the newsletter", "join the mailing list"],
    "log-in": ["sign in", "log in to my account", "go to the login page", "sign into my account"],
    "sign-up": ["create an account", "sign up for an account", "register a new account", "open the registration page"],
    "password-reset": ["I forgot my password", "reset my password", "recover my password"],
    cart: ["open my shopping cart", "view the basket", "go to my cart", "show what is in my bag"],
    "add-to-cart": ["add this product to my cart", "put this item in the basket", "add it to the shopping bag"],
    "next-page": ["go to the next page", "show the next page of results", "see older posts", "continue to the next page"],
    pagination: ["go to page {target}", "open page {target} of the results", "jump to page {target}"],
    contact: ["contact them", "find the contact page", "get in touch with the company", "how do I contact you"],
    "cookie-consent": ["accept the cookies", "agree to the cookie banner", "allow cookies and close the notice", "dismiss the cookie consent by accepting"],
    "comment-box": ["write a comment", "leave a reply to this post", "post a comment on this article", "type my comment"],
    "language-switch": ["switch the site to {language}", "view this page in {language}", "change the language to {language}"],
    filter: ["filter the results", "open the filters", "refine the list"],
    sort: ["sort the results", "change the sort order", "sort the list by price"],
    share: ["share this on {network}", "post this article to {network}", "send this page to {network}"],
    print: ["print this page", "print the article", "get a printable version"],
    download: ["download the file", "download it", "get the download"],
  },
  fr: { "site-search": ["rechercher {term} sur le site", "chercher {term}"], newsletter: ["s'abonner à la newsletter avec mon e-mail", "m'inscrire à la lettre d'information"], "log-in": ["se connecter", "me connecter à mon compte"], "sign-up": ["créer un compte", "s'inscrire"], "password-reset": ["j'ai oublié mon mot de passe"], cart: ["voir mon panier"], "add-to-cart": ["ajouter ce produit au panier"], "next-page": ["aller à la page suivante"], pagination: ["aller à la page {target}"], contact: ["contacter l'entreprise", "trouver la page de contact"], "cookie-consent": ["accepter les cookies"], "comment-box": ["écrire un commentaire"], "language-switch": ["passer le site en {language}"], filter: ["filtrer les résultats"], sort: ["trier les résultats"], share: ["partager sur {network}"], print: ["imprimer la page"], download: ["télécharger le fichier"] },
  de: { "site-search": ["auf der Website nach {term} suchen", "{term} suchen"], newsletter: ["den Newsletter mit meiner E-Mail abonnieren"], "log-in": ["anmelden", "in mein Konto einloggen"], "sign-up": ["ein Konto erstellen", "registrieren"], "password-reset": ["ich habe mein Passwort vergessen"], cart: ["den Warenkorb öffnen"], "add-to-cart": ["in den Warenkorb legen"], "next-page": ["zur nächsten Seite"], pagination: ["zu Seite {target} gehen"], contact: ["Kontakt aufnehmen", "die Kontaktseite finden"], "cookie-consent": ["Cookies akzeptieren"], "comment-box": ["einen Kommentar schreiben"], "language-switch": ["die Seite auf {language} umstellen"], filter: ["die Ergebnisse filtern"], sort: ["die Ergebnisse sortieren"], share: ["auf {network} teilen"], print: ["die Seite drucken"], download: ["die Datei herunterladen"] },
  es: { "site-search": ["buscar {term} en el sitio"], newsletter: ["suscribirme al boletín con mi correo"], "log-in": ["iniciar sesión", "entrar en mi cuenta"], "sign-up": ["crear una cuenta", "registrarme"], "password-reset": ["olvidé mi contraseña"], cart: ["ver mi carrito"], "add-to-cart": ["añadir este producto al carrito"], "next-page": ["ir a la página siguiente"], pagination: ["ir a la página {target}"], contact: ["contactar con la empresa"], "cookie-consent": ["aceptar las cookies"], "comment-box": ["escribir un comentario"], "language-switch": ["cambiar el idioma a {language}"], filter: ["filtrar los resultados"], sort: ["ordenar los resultados"], share: ["compartir en {network}"], print: ["imprimir la página"], download: ["descargar el archivo"] },
  it: { "site-search": ["cercare {term} nel sito"], newsletter: ["iscrivermi alla newsletter con la mia email"], "log-in": ["accedere", "entrare nel mio account"], "sign-up": ["creare un account", "registrarmi"], "password-reset": ["ho dimenticato la password"], cart: ["aprire il carrello"], "add-to-cart": ["aggiungere al carrello"], "next-page": ["andare alla pagina successiva"], pagination: ["andare alla pagina {target}"], contact: ["contattare l'azienda"], "cookie-consent": ["accettare i cookie"], "comment-box": ["scrivere un commento"], "language-switch": ["cambiare la lingua in {language}"], filter: ["filtrare i risultati"], sort: ["ordinare i risultati"], share: ["condividere su {network}"], print: ["stampare la pagina"], download: ["scaricare il file"] },
  pt: { "site-search": ["pesquisar {term} no site"], newsletter: ["assinar a newsletter com meu e-mail"], "log-in": ["entrar", "fazer login na minha conta"], "sign-up": ["criar uma conta", "cadastrar-me"], "password-reset": ["esqueci minha senha"], cart: ["ver meu carrinho"], "add-to-cart": ["adicionar ao carrinho"], "next-page": ["ir para a próxima página"], pagination: ["ir para a página {target}"], contact: ["entrar em contato"], "cookie-consent": ["aceitar os cookies"], "comment-box": ["escrever um comentário"], "language-switch": ["mudar o idioma para {language}"], filter: ["filtrar os resultados"], sort: ["ordenar os resultados"], share: ["compartilhar no {network}"], print: ["imprimir a página"], download: ["baixar o arquivo"] },
  nl: { "site-search": ["op de site zoeken naar {term}"], newsletter: ["me aanmelden voor de nieuwsbrief met mijn e-mail"], "log-in": ["inloggen"], "sign-up": ["een account aanmaken"], "password-reset": ["ik ben mijn wachtwoord vergeten"], cart: ["mijn winkelwagen openen"], "add-to-cart": ["in de winkelwagen leggen"], "next-page": ["naar de volgende pagina"], pagination: ["naar pagina {target}"], contact: ["contact opnemen"], "cookie-consent": ["cookies accepteren"], "comment-box": ["een reactie schrijven"], "language-switch": ["de taal wijzigen naar {language}"], filter: ["de resultaten filteren"], sort: ["de resultaten sorteren"], share: ["delen op {network}"], print: ["de pagina afdrukken"], download: ["het bestand downloaden"] },
  ru: { "site-search": ["найти {term} на сайте"], newsletter: ["подписаться на рассылку"], "log-in": ["войти", "войти в аккаунт"], "sign-up": ["зарегистрироваться"], "password-reset": ["я забыл пароль"], cart: ["открыть корзину"], "add-to-cart": ["добавить в корзину"], "next-page": ["перейти на следующую страницу"], pagination: ["перейти на страницу {target}"], contact: ["связаться с компанией"], "cookie-consent": ["принять файлы cookie"], "comment-box": ["написать комментарий"], "language-switch": ["переключить язык на {language}"], filter: ["отфильтровать результаты"], sort: ["отсортировать результаты"], share: ["поделиться в {network}"], print: ["распечатать страницу"], download: ["скачать файл"] },
  ja: { "site-search": ["サイト内で{term}を検索"], newsletter: ["メールでニュースレターに登録"], "log-in": ["ログイン"], "sign-up": ["アカウントを作成"], "password-reset": ["パスワードを忘れた"], cart: ["カートを見る"], "add-to-cart": ["カートに入れる"], "next-page": ["次のページへ"], pagination: ["{target}ページ目へ"], contact: ["お問い合わせ"], "cookie-consent": ["クッキーに同意"], "comment-box": ["コメントを書く"], "language-switch": ["{language}に切り替える"], filter: ["結果を絞り込む"], sort: ["結果を並び替える"], share: ["{network}で共有"], print: ["ページを印刷"], download: ["ファイルをダウンロード"] },
  ko: { "site-search": ["사이트에서 {term} 검색"], newsletter: ["이메일로 뉴스레터 구독"], "log-in": ["로그인"], "sign-up": ["회원가입"], "password-reset": ["비밀번호를 잊어버렸어요"], cart: ["장바구니 보기"], "add-to-cart": ["장바구니에 담기"], "next-page": ["다음 페이지로"], pagination: ["{target} 페이지로 이동"], contact: ["문의하기"], "cookie-consent": ["쿠키 동의"], "comment-box": ["댓글 쓰기"], "language-switch": ["{language}로 바꾸기"], filter: ["결과 필터"], sort: ["결과 정렬"], share: ["{network}에 공유"], print: ["페이지 인쇄"], download: ["파일 다운로드"] },
  id: { "site-search": ["cari {term} di situs"], newsletter: ["berlangganan buletin dengan email saya"], "log-in": ["masuk ke akun saya"], "sign-up": ["daftar akun baru"], "password-reset": ["saya lupa kata sandi"], cart: ["buka keranjang belanja"], "add-to-cart": ["masukkan ke keranjang"], "next-page": ["halaman berikutnya"], pagination: ["buka halaman {target}"], contact: ["hubungi kami"], "cookie-consent": ["terima cookie"], "comment-box": ["tulis komentar"], "language-switch": ["ganti bahasa ke {language}"], filter: ["saring hasil"], sort: ["urutkan hasil"], share: ["bagikan ke {network}"], print: ["cetak halaman"], download: ["unduh file"] },
};
const LANG_NAME = {
  fr: { en: "anglais", de: "allemand", es: "espagnol", it: "italien", nl: "néerlandais", pt: "portugais" },
  de: { en: "Englisch", fr: "Französisch", es: "Spanisch", it: "Italienisch", nl: "Niederländisch" },
  es: { en: "inglés", fr: "francés", de: "alemán", pt: "portugués", it: "italiano" },
  it: { en: "inglese", fr: "francese", de: "tedesco", es: "spagnolo" },
  pt: { en: "inglês", es: "espanhol", fr: "francês" },
};

/** One phrasing of the family's goal in `lang` (English where the language has none), `pick` a number choosing among them. */
/** Phrasings of the families whose goal names a target, for a case without one (a lone "Share" button, a language menu). */
const UNTARGETED = { en: { "language-switch": ["change the language", "open the language menu", "switch to another language"], share: ["share this page", "share this article", "open the share options"] } };

export function goalFor(family, lang, pick, target) {
  const untargeted = (target === null || target === undefined) && UNTARGETED.en[family];
  // The page's language when it has phrasings for the family, else English.
  const use = !untargeted && PHRASES[lang]?.[family] ? lang : "en";
  const list = untargeted ? UNTARGETED.en[family] : PHRASES[use][family];
  let g = list[pick % list.length];
  const terms = TERMS[use] ?? SEARCH_TERMS;
  g = g.replace("{term}", terms[Math.floor(pick / list.length) % terms.length]);
  if (target !== null && target !== undefined) {
    g = g.replace("{target}", target).replace("{network}", NET[target] ?? target);
    g = g.replace("{language}", (LANG_NAME[use] ?? {})[target] ?? LANG_EN[target] ?? target);
  }
  return { goal: g, lang: use };
}
