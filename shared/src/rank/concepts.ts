// The web's common intents as people name them: "sign in", "log in" and "my account" are one
// thing, "sign up" another, though both say "sign"; a basket is a cart is a bag; subscribing to
// a newsletter is not subscribing to the paper. Word synonyms (text.ts) cannot say that: the
// words are shared, the phrases are not. Each concept here is a set of phrases, in English and
// the languages sites are most often written in, matched on whole words of normalised text;
// `NEAR` lists the concepts a goal for one must not be mistaken for. General vocabulary of web
// pages, not of any site.
import { memoize, normalize } from "./text.js";

export const CONCEPTS = [
  "login", "signup", "logout", "password_reset", "account", "newsletter", "subscribe", "cart", "add_to_cart", "checkout",
  "next", "previous", "contact", "cookie_accept", "cookie_reject", "cookie_settings", "comment", "search", "language",
  "filter", "sort", "share", "follow", "print", "download", "close", "menu",
] as const;
export type Concept = (typeof CONCEPTS)[number];

/** Phrases per concept (regular-expression alternatives over lower-case, NFKC text). */
const PHRASES: Record<Concept, string[]> = {
  login: [
    "log ?in", "log ?on", "login", "sign ?in", "signin", "sign into", "member (log ?in|login|sign ?in)", "customer (log ?in|login)",
    "anmelden", "einloggen", "login", "connexion", "se connecter", "s'identifier", "identifiez-vous", "iniciar sesi[oó]n", "inicia sesi[oó]n",
    "ingresar", "acceder", "entrar", "accedi", "accedere", "inloggen", "aanmelden", "zaloguj( się)?", "войти", "вход", "ログイン",
    "로그인", "登录", "登入", "masuk", "đăng nhập",
  ],
  signup: [
    "sign ?up", "signup", "register", "registration", "create (an |your |a free |a new )?account", "new account", "join (now|free|for free|us today)",
    "registrieren", "registrierung", "konto erstellen", "s'inscrire", "inscription", "cr[ée]er (un )?compte", "registrarse", "reg[ií]strate",
    "crear (una )?cuenta", "registrati", "registrazione", "crea (un )?account", "cadastr(o|e-se|ar)", "criar (uma )?conta", "registreren",
    "account aanmaken", "zarejestruj( się)?", "рег[иі]стр\\w*", "зарегистр\\w*", "新規登録", "会員登録", "회원가입", "注册", "daftar",
  ],
  logout: ["log ?out", "logout", "sign ?out", "abmelden", "ausloggen", "d[ée]connexion", "cerrar sesi[oó]n", "esci", "uitloggen", "выйти", "ログアウト", "로그아웃"],
  password_reset: [
    "forgot(ten)? (your |my )?password", "reset (your |my |the )?password", "lost (your |my )?password", "recover (your |my )?password",
    "password reset", "passwort vergessen", "mot de passe oubli[ée]", "olvid[ée] (mi |tu |su )?contraseña", "olvidaste (tu )?contraseña",
    "password dimenticata", "esqueci (minha |a )?senha", "esqueceu (sua |a )?senha", "wachtwoord vergeten", "забыли пароль", "забыл пароль",
    "パスワードを忘れ", "비밀번호 찾기", "lupa (kata sandi|password)",
  ],
  account: ["my account", "your account", "account", "profile", "mein konto", "mon compte", "mi cuenta", "il mio account", "minha conta", "mijn account", "мой аккаунт", "マイページ", "마이페이지"],
  newsletter: [
    "newsletters?", "mailing list", "e-?mail (updates|list|alerts|newsletter)", "inbox", "weekly (email|digest)", "bolet[ií]n", "lettre d'information",
    "infolettre", "nieuwsbrief", "рассылк\\w*", "メルマガ", "ニュースレター", "뉴스레터", "buletin",
  ],
  subscribe: ["subscribe", "subscription", "subscribe now", "abonnieren", "abonnement", "s'abonner", "abonnez-vous", "suscr[ií]b\\w*", "iscriviti", "abbonati", "assine", "assinar", "abonneren", "подписаться", "подписк\\w*", "購読", "구독"],
  cart: [
    "(shopping |my |your |view )?(cart|basket|bag|trolley)", "warenkorb", "panier", "carrito", "carrello", "carrinho", "winkelwagen", "winkelmand",
    "koszyk", "корзин\\w*", "カート", "장바구니", "购物车", "keranjang",
  ],
  add_to_cart: [
    "(add|put) (this |it |the |that )?(product |item )?(in|into|to) (the |my |your )?(shopping )?(cart|basket|bag|trolley)", "in den warenkorb", "ajouter au panier", "añadir al carrito", "agregar al carrito",
    "aggiungi al carrello", "adicionar ao carrinho", "in (de )?winkelwagen", "do koszyka", "в корзину", "カートに入れる", "장바구니 담기", "加入购物车",
    "masukkan keranjang",
  ],
  checkout: ["checkout", "check out", "proceed to checkout", "kasse", "zur kasse", "commander", "finalizar compra", "pagar", "cassa", "afrekenen", "оформить заказ", "レジに進む", "결제"],
  next: [
    "next", "next page", "older posts", "older entries", "older", "more results", "load more", "show more", "›", "»", "→", "weiter", "n[äa]chste( seite)?",
    "suivant(e)?", "page suivante", "siguiente", "successiv[ao]", "avanti", "pr[óo]xim[ao]", "volgende", "następna", "следующ\\w*", "次へ", "次のページ", "다음", "下一页", "berikutnya",
  ],
  previous: ["previous", "prev", "newer posts", "newer entries", "newer", "‹", "«", "←", "zur[üu]ck", "vorherige", "pr[ée]c[ée]dent(e)?", "anterior", "precedente", "vorige", "poprzednia", "предыдущ\\w*", "前へ", "이전", "上一页", "sebelumnya"],
  contact: [
    "contact", "contacts", "contact us", "contact me", "get in touch", "reach us", "kontakt", "kontaktieren", "nous contacter", "contactez(-nous)?", "contacto",
    "cont[áa]ctenos", "contatti", "contattaci", "contato", "fale conosco", "neem contact op", "контакты", "связаться", "お問い合わせ", "문의\\w*", "联系我们", "hubungi kami",
  ],
  cookie_accept: [
    "accept( all)?( cookies)?", "accepting", "allow( all)?( cookies)?", "(i )?agree", "agree and (close|continue)", "got it", "i accept", "i understand", "accept and (close|continue)",
    "alle akzeptieren", "akzeptieren", "einverstanden", "tout accepter", "accepter", "j'accepte", "aceptar( todo| todas)?", "acepto", "accetta( tutti)?", "accetto",
    "aceitar( todos)?", "accepteren", "akceptuj", "принять", "同意する", "동의", "setuju", "terima",
  ],
  cookie_reject: ["reject( all)?", "decline", "deny", "refuse", "necessary only", "only necessary", "essential only", "ablehnen", "refuser", "tout refuser", "rechazar", "rifiuta", "rejeitar", "weigeren", "odrzuć", "отклонить", "拒否", "거부"],
  cookie_settings: ["cookie (settings|preferences|policy)", "manage (cookies|preferences|options)", "customi[sz]e", "preferences", "einstellungen", "param[èe]tres", "configuraci[oó]n", "preferenze", "instellingen"],
  comment: ["comments?", "leave a (reply|comment)", "reply", "respond", "post a comment", "add a comment", "write a comment", "kommentar\\w*", "commentaire\\w*", "coment[áa]rio\\w*", "comentar", "commento", "commenti", "reactie\\w*", "комментари\\w*", "コメント", "댓글", "评论", "komentar"],
  search: ["search", "site search", "suche", "suchen", "recherche", "rechercher", "buscar", "b[úu]squeda", "cerca", "ricerca", "pesquisa", "pesquisar", "zoeken", "szukaj", "поиск", "найти", "検索", "검색", "搜索", "cari"],
  language: [
    "languages?", "select language", "change language", "english", "français", "deutsch", "español", "italiano", "português", "nederlands", "日本語", "中文", "한국어",
    "русский", "polski", "french", "german", "spanish", "italian", "portuguese", "dutch", "japanese", "chinese", "korean", "russian", "polish", "sprache", "langue", "idioma",
    "lingua", "taal", "язык", "言語", "언어", "语言", "bahasa",
  ],
  filter: ["filters?", "refine", "facets?", "filtern", "filtres?", "filtrer", "filtros?", "filtrar", "filtri", "filtra", "filteren", "фильтр\\w*", "絞り込み", "필터", "筛选"],
  sort: ["sort( by)?", "order by", "sortieren", "trier", "ordenar", "ordina", "sorteren", "sortuj", "сортир\\w*", "並び替え", "정렬", "排序"],
  // A network's name alone is a follow link as often as a share link: share words only (a sharer URL says "share", "sharer", "tweet").
  share: ["share", "sharer", "(post|send) (this |it )?(article |page |story |post )?(to|on)", "pin create", "intent (tweet|post)", "share this", "tweet", "pin it", "teilen", "partager", "compartir", "condividi", "compartilhar", "delen", "udostępnij", "поделиться", "共有", "공유", "分享", "bagikan"],
  // A profile link on a social network ("Follow us", facebook.com/acme): not a share.
  follow: ["follow( us)?( on)?", "find us on", "like us on", "visit (us|\\w+) on", "join us on", "connect with us", "folgen", "suivez-nous", "s[ií]guenos", "seguici", "siga-nos", "volg ons"],
  print: ["print", "printable", "printer", "drucken", "imprimer", "imprimir", "stampa", "afdrukken", "drukuj", "печать", "распечатать", "印刷", "인쇄", "打印", "cetak"],
  download: ["download", "downloads", "herunterladen", "t[ée]l[ée]charger", "descargar", "scarica", "baixar", "downloaden", "pobierz", "скачать", "ダウンロード", "다운로드", "下载", "unduh", "pdf"],
  close: ["close", "dismiss", "no thanks", "schließen", "fermer", "cerrar", "chiudi", "fechar", "sluiten", "закрыть", "閉じる", "닫기"],
  menu: ["menu", "navigation", "hamburger", "menü", "men[úu]"],
};

/**
 * Concepts a goal for the key must not be mistaken for: a control that carries one of these and
 * not the goal's concept is a near miss (a "Sign up" link for "sign in").
 */
export const NEAR: Partial<Record<Concept, Concept[]>> = {
  login: ["signup", "logout", "password_reset", "subscribe", "newsletter"],
  signup: ["login", "logout", "newsletter", "subscribe"],
  password_reset: ["login", "signup"],
  account: ["signup", "logout"],
  newsletter: ["login", "signup", "contact", "share", "comment"],
  subscribe: ["login", "signup"],
  cart: ["add_to_cart"],
  add_to_cart: ["cart", "checkout"],
  checkout: ["add_to_cart"],
  next: ["previous"],
  previous: ["next"],
  cookie_accept: ["cookie_reject", "cookie_settings"],
  cookie_reject: ["cookie_accept"],
  cookie_settings: ["cookie_accept", "cookie_reject"],
  contact: ["newsletter", "share"],
  comment: ["search", "contact", "newsletter"],
  search: ["newsletter", "comment", "login"],
  share: ["print", "download", "comment", "follow"],
  print: ["share", "download"],
  download: ["share", "print"],
};

/** Concepts that only stand in a page's words next to another (e.g. "accept" means cookies only near "cookie"). */
const COOKIE_WORDS = /\b(cookies?|consent|gdpr|privacy|tracking|datenschutz|confidentialit[ée]|privacidad)\b/;

const BIT = new Map<Concept, number>(CONCEPTS.map((c, i) => [c, 1 << i]));
export const conceptBit = (c: Concept): number => BIT.get(c) ?? 0;

// One regular expression per concept; \b does not know non-Latin letters, so the boundaries are
// "not a letter or digit" on either side.
const RES: [Concept, RegExp][] = CONCEPTS.map((c) => [c, new RegExp(`(?:^|[^\\p{L}\\p{N}])(?:${PHRASES[c].join("|")})(?=$|[^\\p{L}\\p{N}])`, "u")]);

/** Bit set of the concepts a text names (normalised, lower case). Memoized: labels repeat. */
export const conceptsOf: (text: string) => number = memoize((text: string): number => {
  const t = normalize(text).replace(/[_\-/]+/g, " ");
  if (!t.trim()) return 0;
  let bits = 0;
  for (const [c, re] of RES) if (re.test(t)) bits |= BIT.get(c)!;
  // "Add to cart" also says "cart", "sign up for the newsletter" also "sign up": the longer phrase is the concept.
  if (bits & BIT.get("add_to_cart")!) bits &= ~BIT.get("cart")!;
  if (bits & BIT.get("password_reset")!) bits &= ~BIT.get("login")!;
  // The object decides: "Newsletter sign-up" and "subscribe to our newsletter" are the newsletter.
  if (bits & BIT.get("newsletter")!) bits &= ~(BIT.get("signup")! | BIT.get("subscribe")! | BIT.get("login")!);
  if (bits & BIT.get("cookie_accept")! && !COOKIE_WORDS.test(t) && t.length > 30) bits &= ~BIT.get("cookie_accept")!;
  return bits;
});

/**
 * The goal's concepts, the ones its words settle: "sign up for the newsletter" is newsletter
 * (the object), not signup; "subscribe to the newsletter" newsletter, not the paper's subscribe.
 */
export function goalConcepts(goal: string): number {
  let bits = conceptsOf(goal);
  const has = (c: Concept) => (bits & BIT.get(c)!) !== 0;
  // "Find shipping on this site", "look up returns": a site search.
  if (/^(find|look up|look for)\b.*\b(site|website)\b/.test(normalize(goal).trim())) bits |= BIT.get("search")!;
  if (has("newsletter")) bits &= ~(BIT.get("signup")! | BIT.get("subscribe")! | BIT.get("login")!);
  if (has("cookie_accept") || has("cookie_reject") || has("cookie_settings")) bits &= ~(BIT.get("close")!);
  // A search for a term: "search the site for returns" is search, whatever the term says.
  if (has("search")) bits &= BIT.get("search")! | BIT.get("language")!;
  if (has("language")) bits &= BIT.get("language")!;
  if (has("comment")) bits &= ~(BIT.get("contact")!);
  if (has("password_reset")) bits &= ~(BIT.get("account")!);
  if (has("signup")) bits &= ~(BIT.get("account")! | BIT.get("login")!);
  if (has("login") && has("account")) bits &= ~BIT.get("account")!;
  return bits;
}

/** The near-miss concepts of a goal's concepts. */
export function nearOf(goalBits: number): number {
  let near = 0;
  for (const c of CONCEPTS) if (goalBits & BIT.get(c)!) for (const n of NEAR[c] ?? []) near |= BIT.get(n)!;
  return near & ~goalBits;
}

/** Intents whose goal is typed into a field first: a newsletter signs up an address, a comment is written. */
export const TYPED = BIT.get("newsletter")! | BIT.get("comment")!;
/** Goals whose named options (a network, a language) choose among look-alike controls. */
export const OPTION_GROUP_OF: Partial<Record<Concept, number>> = { share: 0, language: 1 };
export const SEARCH_BIT = BIT.get("search")!;

/** login and account are one intent for a goal ("sign in" is where "My account" leads). */
export function widen(goalBits: number): number {
  let b = goalBits;
  if (b & BIT.get("login")!) b |= BIT.get("account")!;
  if (b & BIT.get("account")!) b |= BIT.get("login")!;
  return b;
}

/**
 * Names of mutually exclusive options: a goal that names one ("share on Twitter", "switch to
 * French") is not served by a control that names another of the same kind (WhatsApp, Deutsch).
 * Each option: its names in page and goal words (endonyms and English names for languages).
 */
const OPTIONS: Record<string, string[]>[] = [
  {
    facebook: ["facebook", "fb"], twitter: ["twitter", "tweet", "x\\.com"], linkedin: ["linkedin"], pinterest: ["pinterest", "pin it"],
    whatsapp: ["whatsapp"], reddit: ["reddit"], email: ["e-?mail", "mail"], telegram: ["telegram"], instagram: ["instagram"], youtube: ["youtube"],
  },
  {
    en: ["english", "anglais", "englisch", "inglés", "inglese", "inglês", "engels"], fr: ["french", "français", "francais", "französisch", "francés", "francese", "francês", "frans"],
    de: ["german", "deutsch", "allemand", "alemán", "tedesco", "alemão", "duits"], es: ["spanish", "español", "espanol", "espagnol", "spanisch", "spagnolo", "espanhol", "spaans"],
    it: ["italian", "italiano", "italien", "italienisch", "italiaans"], pt: ["portuguese", "português", "portugues", "portugais", "portugiesisch", "portugués", "portoghese"],
    nl: ["dutch", "nederlands", "néerlandais", "niederländisch", "neerlandés"], ja: ["japanese", "日本語"], zh: ["chinese", "中文", "简体中文", "繁體中文"], ko: ["korean", "한국어"],
    ru: ["russian", "русский"], pl: ["polish", "polski"], ar: ["arabic", "العربية"],
  },
];
const OPTION_RES: { group: number; name: string; re: RegExp }[] = OPTIONS.flatMap((g, group) =>
  Object.entries(g).map(([name, words]) => ({ group, name, re: new RegExp(`(?:^|[^\\p{L}\\p{N}])(?:${words.join("|")})(?=$|[^\\p{L}\\p{N}])`, "u") })),
);

/** The named options a text names, as "group:name" keys (memoized). */
export const optionsOf: (text: string) => readonly string[] = memoize((text: string) => {
  const t = normalize(text);
  const out: string[] = [];
  for (const o of OPTION_RES) if (o.re.test(t)) out.push(`${o.group}:${o.name}`);
  return Object.freeze(out);
});

/** An element naming another option of a kind the goal names one of, and not the goal's. */
export function otherOption(goal: readonly string[], element: readonly string[]): boolean {
  if (!goal.length || !element.length) return false;
  for (const e of element) {
    if (goal.includes(e)) return false;
  }
  const groups = new Set(goal.map((g) => g.split(":")[0]));
  return element.some((e) => groups.has(e.split(":")[0]));
}
