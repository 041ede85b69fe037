// A generated shop (catalogue and checkout) with the weight of a real one: navigation, filters,
// a product grid, a footer of links. Written here, not copied from any site.
const CATEGORIES = ["Audio", "Cameras", "Laptops", "Phones", "Tablets", "Wearables", "Gaming", "Smart home", "Accessories", "Cables", "Storage", "Printers", "Monitors", "Networking", "Software"];
const NAMES = ["Aurora", "Basalt", "Cinder", "Drift", "Ember", "Fjord", "Glacier", "Harbor", "Indigo", "Juniper", "Kestrel", "Lumen", "Meridian", "Nimbus", "Onyx", "Pioneer", "Quartz", "Ridge", "Sierra", "Tundra", "Umber", "Vertex", "Willow", "Zephyr"];
const KINDS = ["Headphones", "Speaker", "Camera", "Laptop", "Phone", "Tablet", "Watch", "Router"];

export function catalogue(): string {
  const nav = ["Home", "Deals", "New arrivals", "Best sellers", "Gift cards", "Help", "Track order", "Stores", "Sign in", "Register", "Wishlist", "Compare", "Blog", "Careers", "Press", "Affiliates", "Sell with us", "Business", "Students", "Refurbished"]
    .map((n) => `<li><a href="/${n.toLowerCase().replace(/\s+/g, "-")}">${n}</a></li>`)
    .join("");
  const filters = CATEGORIES.map((c, i) => `<li><label><input type="checkbox" name="cat" value="${i}"> ${c} <span class="count">(${10 + i * 3})</span></label></li>`).join("");
  const products = NAMES.map((n, i) => {
    const kind = KINDS[i % KINDS.length];
    return `<article class="card"><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" alt="${n} ${kind}" width="160" height="120">
      <h3><a href="/p/${i}">${n} ${kind}</a></h3><p class="price">$${(49 + i * 17).toFixed(2)}</p>
      <p class="rating" aria-label="${(3 + (i % 20) / 10).toFixed(1)} out of 5 stars">★★★★☆ <span>${120 + i * 7} reviews</span></p>
      <p class="blurb">${n} ${kind.toLowerCase()} with a long battery life, a two-year warranty and free returns within thirty days.</p>
      <button type="button" class="add" aria-label="Add ${n} ${kind} to cart" onclick="addToCart('${n} ${kind}')">Add to cart</button></article>`;
  }).join("");
  const footer = Array.from({ length: 36 }, (_, i) => `<li><a href="/info/${i}">${["About us", "Contact", "Shipping", "Returns", "Privacy", "Terms", "Cookies", "Accessibility"][i % 8]} ${Math.floor(i / 8) || ""}</a></li>`).join("");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop — catalogue</title>
<style>body{font:14px sans-serif;margin:0} header,footer{background:#222;color:#eee;padding:8px} header a,footer a{color:#eee} nav ul,footer ul{display:flex;flex-wrap:wrap;gap:10px;list-style:none;padding:0}
main{display:flex;gap:16px;padding:16px} aside{width:200px} aside ul{list-style:none;padding:0} .grid{display:grid;grid-template-columns:repeat(4,1fr);gap:12px;flex:1}
.card{border:1px solid #ddd;padding:8px} .add{background:#f90;border:0;padding:6px 10px;cursor:pointer} #cart{position:fixed;right:8px;top:8px;background:#fff;color:#000;padding:6px;border:1px solid #999}</style></head>
<body><header><nav aria-label="Main"><ul>${nav}</ul></nav>
<form role="search" onsubmit="event.preventDefault()"><label>Search <input type="search" name="q" placeholder="Search products"></label> <button type="submit">Search</button></form>
<div id="cart">Cart: <span id="count">0</span> items <a href="/checkout.html">Checkout</a></div></header>
<main><aside><h2>Categories</h2><ul>${filters}</ul><label>Sort by <select name="sort"><option>Featured</option><option>Price: low to high</option><option>Price: high to low</option><option>Rating</option></select></label></aside>
<section class="grid" aria-label="Products">${products}</section></main>
<footer><ul>${footer}</ul><p>© Example Shop. All prices include VAT.</p></footer>
<script>function addToCart(n){const c=document.getElementById("count");c.textContent=String(Number(c.textContent)+1);const s=document.createElement("p");s.setAttribute("role","status");s.textContent=n+" added to your cart";document.body.appendChild(s);}</script>
</body></html>`;
}

export function checkout(): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop — checkout</title></head><body>
<h1>Checkout</h1><form method="post" action="/done"><label>Full name <input name="name" autocomplete="name"></label>
<label>Email <input name="email" type="email" autocomplete="email"></label><label>Address <input name="address"></label>
<label>Country <select name="country"><option>United States</option><option>Germany</option><option>France</option></select></label>
<button type="submit">Place order</button></form><a href="/">Continue shopping</a></body></html>`;
}
